// The smoke test's public face: run it, and turn a failed one into the diagnosis of a failed start.
import type { Diagnosis } from '../events.ts';
import type { SmokeReport } from './smoke.ts';

export { runSmoke, SMOKE_MAX_TOKENS, SMOKE_PROMPT, type SmokeOptions, type SmokeReport } from './smoke.ts';

// Evidence quotes the server's HTTP answer, not its log: it names the request as its source, with no line number.
export const smokeDiagnosis = (report: SmokeReport): Diagnosis => ({
  class: 'unknown',
  summary: `smoke test failed: ${report.failure?.summary ?? 'unknown reason'}`,
  evidence: report.failure?.evidence ?? [],
  advice: [
    "the server answers /health but not a real request: check the chat template, the served model name and the server's log around the request",
    'rerun the check alone with: vigil smoke <url>',
  ],
});
