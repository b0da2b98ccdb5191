// The smoke test: prove a server generates. SGLang's generation health path where the engine has one, then one
// short streamed chat completion: its answer must be non-empty text and `usage` must agree with what streamed.
import { getEngine } from '../engines/index.ts';
import type { EngineId } from '../engines/types.ts';
import type { Evidence } from '../events.ts';
import { getText, underBase } from '../bench/get.ts';
import { sendCompletion, type RequestResult } from '../bench/request.ts';
import { firstModel } from '../bench/run.ts';
import { openSpecProbe } from '../bench/spec.ts';
import { createDefaultTransport } from '../bench/default-transport.ts';
import type { Transport } from '../bench/transport.ts';

export const SMOKE_PROMPT = 'Say hello in one short sentence.';
export const SMOKE_MAX_TOKENS = 16;

export interface SmokeOptions {
  url: URL;
  /** `auto` asks the server (the engines' spec endpoints) which engine it is. */
  engine: EngineId | 'auto';
  model?: string;
  timeoutMs: number;
  apiKey?: string;
  transport?: Transport;
  signal?: AbortSignal;
}

export interface SmokeReport {
  ok: boolean;
  /** The whole smoke test. */
  ms: number;
  ttft_ms: number | null;
  /** Completion tokens, from usage. */
  tokens: number | null;
  model: string | null;
  engine: EngineId | null;
  /** The generation health path's answer, when the engine has one. */
  health_generate: { path: string; status: number | null; ms: number } | null;
  /** The start of the answer. */
  text: string;
  /** Why it failed, and the response that shows it (unredacted: callers pass it through their redactor). */
  failure: { summary: string; evidence: Evidence[] } | null;
}

const TEXT_EXCERPT = 200;
const COMPLETION_SOURCE = 'POST /v1/chat/completions';

// The usage check: the server counted at least one token per text chunk it streamed, and no more than asked for.
const usageProblem = (r: RequestResult): string | null => {
  const tokens = r.completionTokens ?? 0;
  if (tokens < r.textChunks)
    return `usage says ${String(tokens)} completion tokens but ${String(r.textChunks)} text chunks streamed`;
  if (tokens > SMOKE_MAX_TOKENS)
    return `usage says ${String(tokens)} completion tokens, more than max_tokens ${String(SMOKE_MAX_TOKENS)}`;
  return null;
};

// Runs the smoke test; resolves with a report, never throws for a failing server.
export const runSmoke = async (options: SmokeOptions): Promise<SmokeReport> => {
  const started = performance.now();
  const deadline = started + options.timeoutMs;
  const left = (): number => Math.max(1, deadline - performance.now());
  const transport = options.transport ?? createDefaultTransport({ maxSockets: 2 });
  const headers: Record<string, string> =
    options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` };
  const report: SmokeReport = {
    ok: false,
    ms: 0,
    ttft_ms: null,
    tokens: null,
    model: options.model ?? null,
    engine: options.engine === 'auto' ? null : options.engine,
    health_generate: null,
    text: '',
    failure: null,
  };
  const fail = (summary: string, evidence: Evidence[] = []): SmokeReport => {
    report.failure = { summary, evidence };
    report.ms = performance.now() - started;
    return report;
  };
  // The HTTP answer that shows the failure, named by the request that got it (it is no log line).
  const response = (source: string, status: number | null, body: string | null): Evidence[] => [
    {
      source,
      text: `HTTP ${status === null ? 'none' : String(status)}${body === null || body === '' ? '' : `: ${body.slice(0, 500)}`}`,
    },
  ];
  try {
    if (options.engine === 'auto') {
      report.engine = (await openSpecProbe(transport, options.url, 'auto', headers))?.engine ?? null;
    }
    const path = report.engine === null ? undefined : getEngine(report.engine).generationHealthPath;
    if (path !== undefined) {
      const url = underBase(options.url, path);
      try {
        const answer = await getText(transport, url, left(), headers);
        report.health_generate = { path, status: answer.status, ms: answer.ms };
        if (answer.status !== 200)
          return fail(
            `${path} answered HTTP ${String(answer.status)}: the server cannot generate`,
            response(`GET ${path}`, answer.status, answer.body),
          );
      } catch (error) {
        report.health_generate = { path, status: null, ms: performance.now() - started };
        return fail(
          `${path} gave no answer within the smoke timeout (${error instanceof Error ? error.message : String(error)})`,
        );
      }
    }
    if (report.model === null) {
      try {
        report.model = await firstModel(transport, options.url, headers);
      } catch (error) {
        return fail(error instanceof Error ? error.message : String(error));
      }
    }
    const result = await sendCompletion(transport, {
      baseUrl: options.url,
      model: report.model,
      prompt: { messages: [{ role: 'user', content: SMOKE_PROMPT }], maxTokens: SMOKE_MAX_TOKENS },
      stream: true,
      timeoutMs: left(),
      headers,
      keepText: true,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    report.ttft_ms = result.ttftMs;
    report.tokens = result.completionTokens;
    report.text = result.text.slice(0, TEXT_EXCERPT);
    const error = result.error;
    if (error !== null) {
      const what =
        error.kind === 'timeout'
          ? `no complete answer within the smoke timeout`
          : error.kind.startsWith('http_')
            ? `the chat completion answered HTTP ${String(error.status)}`
            : `the chat completion failed (${error.kind}): ${error.message}`;
      return fail(what, response(COMPLETION_SOURCE, error.status, error.excerpt));
    }
    if (result.text.trim() === '')
      return fail(
        'the chat completion streamed an empty answer',
        response(
          COMPLETION_SOURCE,
          200,
          `${result.text === '' ? '(no text)' : JSON.stringify(result.text)}, finish_reason ${result.finishReason ?? 'none'}, ${String(result.completionTokens ?? 0)} completion tokens`,
        ),
      );
    const problem = usageProblem(result);
    if (problem !== null) return fail(problem);
    report.ok = true;
    report.ms = performance.now() - started;
    return report;
  } finally {
    if (options.transport === undefined) transport.close();
  }
};
