// The load generator's loops: closed (N workers, each sends its next request when the last one ends) or open
// (Poisson arrivals at a set rate, whatever is in flight), until a request count or a duration is reached.
import { exponentialGapMs, seededRandom } from './random.ts';
import { sendCompletion, type Prompt, type RequestResult, type RequestSpec } from './request.ts';
import type { Transport } from './transport.ts';

export type LoadMode = { kind: 'closed'; concurrency: number } | { kind: 'open'; rate: number; seed: number };
export type LoadStop = { requests: number } | { durationMs: number };

export interface LoadOptions {
  transport: Transport;
  request: Omit<RequestSpec, 'prompt'>;
  prompts: readonly Prompt[];
  /** Index of the first prompt (compare blocks continue where the last block of the pair began). */
  firstPrompt?: number;
  mode: LoadMode;
  stop: LoadStop;
  signal?: AbortSignal;
  /** Called as each request ends (progress). */
  onResult?: (result: RequestResult) => void;
}

export interface LoadRun {
  results: RequestResult[];
  /** performance.now() at the first send and after the last end. */
  startedAt: number;
  endedAt: number;
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    function done(): void {
      signal?.removeEventListener('abort', done);
      clearTimeout(timer);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

// Runs the loop to its end; requests in flight when the duration passes are waited for and counted.
export const runLoad = async (options: LoadOptions): Promise<LoadRun> => {
  const { prompts, stop, signal } = options;
  const results: RequestResult[] = [];
  const startedAt = performance.now();
  const deadline = 'durationMs' in stop ? startedAt + stop.durationMs : Infinity;
  const limit = 'requests' in stop ? stop.requests : Infinity;
  let issued = 0;
  const next = (): Prompt | null => {
    if (issued >= limit || performance.now() >= deadline || signal?.aborted === true) return null;
    const prompt = prompts[((options.firstPrompt ?? 0) + issued) % prompts.length];
    issued++;
    return prompt ?? null;
  };
  // One request spec per prompt, made on first use: prompts repeat, and a load loop should not allocate per request.
  const specs = new Map<Prompt, RequestSpec>();
  const send = async (prompt: Prompt): Promise<void> => {
    let spec = specs.get(prompt);
    if (spec === undefined) specs.set(prompt, (spec = { ...options.request, prompt }));
    const result = await sendCompletion(options.transport, spec);
    results.push(result);
    options.onResult?.(result);
  };

  if (options.mode.kind === 'closed') {
    const worker = async (): Promise<void> => {
      for (let prompt = next(); prompt !== null; prompt = next()) await send(prompt);
    };
    await Promise.all(Array.from({ length: options.mode.concurrency }, worker));
  } else {
    const random = seededRandom(options.mode.seed);
    const inFlight = new Set<Promise<void>>();
    // Arrival times are absolute, so a late wake-up does not push every later arrival back.
    let due = startedAt;
    for (;;) {
      due += exponentialGapMs(random, options.mode.rate);
      if (due >= deadline) break;
      await sleep(due - performance.now(), signal);
      const prompt = next();
      if (prompt === null) break;
      const pending = send(prompt).finally(() => inFlight.delete(pending));
      inFlight.add(pending);
    }
    await Promise.all(inFlight);
  }
  return { results, startedAt, endedAt: performance.now() };
};
