// The preflight step of a launch: check the flags, emit the `preflight` event, and turn a blocking outcome
// into the diagnosis of a failed start (exit 2).
import type { Diagnosis, VigilEvent } from '../events.ts';
import { getEngine } from '../engines/index.ts';
import type { HostRunner } from '../hosts/types.ts';
import type { LaunchConfig } from './launch-config.ts';
import type { Emittable } from './loop.ts';

// Runs preflight and emits its event; resolves the diagnosis that blocks the launch, or null.
export const runPreflightStep = async (
  config: LaunchConfig,
  emit: (event: Emittable) => VigilEvent,
  host?: HostRunner,
): Promise<Diagnosis | null> => {
  const engine = config.server.engine;
  if (getEngine(engine).flags === undefined) {
    emit({
      type: 'preflight',
      status: 'skipped',
      source: null,
      findings: [],
      skipped_reason: `--engine ${engine}: vigil has no flag schema for this server`,
    });
    return null;
  }
  const { signal } = config.options;
  // Loaded here, not at the top: a start that skips the check (a generic server) never pays for the flag modules.
  const { runPreflight } = await import('../flags/preflight.ts');
  const outcome = await runPreflight({
    command: config.command,
    engine: config.options.engine === 'auto' || config.options.engine === undefined ? 'auto' : engine,
    ...(config.options.helpFile === undefined ? {} : { helpFile: config.options.helpFile }),
    ...(config.options.offline === true ? { offline: true } : {}),
    ...(config.options.strict === true ? { strict: true } : {}),
    ...(config.engineVersion === null ? {} : { engineVersion: config.engineVersion }),
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    ...(signal === undefined ? {} : { signal }),
    ...(host === undefined ? {} : { host }),
    onNote: (message) => {
      emit({ type: 'notice', code: 'preflight', message });
    },
  });
  emit({ type: 'preflight', ...outcome.report });
  if (!outcome.blocked) return null;
  const errors = outcome.report.findings.filter((f) => f.severity === 'error');
  const first = errors[0] ?? outcome.report.findings[0];
  return {
    class: first === undefined ? 'unknown' : findingClass(first.code),
    summary:
      first === undefined
        ? 'preflight found problems in the server flags'
        : `preflight: ${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`,
    evidence: [],
    advice: outcome.report.findings.flatMap(adviceFor),
  };
};

// Finding codes (src/flags) that mean the engine would reject an option it does not know.
const UNKNOWN_FLAG_CODES = new Set([
  'unknown-option',
  'version-dependent-option',
  'hidden-option',
  'unexpected-argument',
  'ambiguous-option',
]);
// Finding codes whose suggestions are options to add, not replacements.
const ADD_CODES = new Set(['missing-required', 'speculative-partial', 'speculative-draft-missing']);

const findingClass = (code: string): Diagnosis['class'] => {
  if (UNKNOWN_FLAG_CODES.has(code)) return 'unknown-flag';
  if (code === 'path-not-found') return 'model-not-found-or-auth';
  return 'invalid-value';
};

const adviceFor = (finding: { code: string; arg: string | null; suggestions: string[] }): string[] => {
  const best = finding.suggestions[0];
  if (best === undefined) return [];
  if (ADD_CODES.has(finding.code)) return [`add ${finding.suggestions.join(' ')}`];
  if (finding.arg === null) return [];
  return UNKNOWN_FLAG_CODES.has(finding.code)
    ? [`${finding.arg}: did you mean ${best}?`]
    : [`${finding.arg}: ${best}`];
};
