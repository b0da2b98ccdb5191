// vigil bench as a library call: find the model, warm up, run the workload (or alternating blocks against two
// servers), read speculative acceptance before and after, and summarise.
import { setMaxListeners } from 'node:events';
import { UsageError } from '../errors.ts';
import type { EngineId } from '../engines/types.ts';
import { compareBlocks, type BlockPair, type CompareFigures } from './compare.ts';
import { getText, underBase } from './get.ts';
import { runLoad, type LoadMode, type LoadStop } from './load.ts';
import type { Prompt, RequestResult } from './request.ts';
import { closeSpecProbe, openSpecProbe, perRequestAcceptance } from './spec.ts';
import { summarize, tokensOverTime, type RatePoint, type SideSummary, type TimedResults } from './summary.ts';
import { createDefaultTransport } from './default-transport.ts';
import type { Transport } from './transport.ts';

export interface BenchOptions {
  url: URL;
  /** A second server: the same workload runs against both in alternating blocks. */
  compareUrl?: URL;
  model?: string;
  engine?: EngineId | 'auto';
  prompts: readonly Prompt[];
  mode: LoadMode;
  stop: LoadStop;
  warmup: number;
  stream: boolean;
  timeoutMs: number;
  /** Requests per block in compare mode. */
  blockRequests: number;
  seed: number;
  apiKey?: string;
  transport?: Transport;
  signal?: AbortSignal;
  onProgress?: (progress: BenchProgress) => void;
}

export interface BenchProgress {
  done: number;
  total: number | null;
  errors: number;
  elapsedMs: number;
}

/** Everything a renderer or plot needs. */
export interface BenchResult {
  sides: SideSummary[];
  compare: CompareFigures | null;
  /** Per side: latencies and token flow, for the plot. */
  series: { ttft: number[]; itl: number[]; rate: RatePoint[] }[];
}

const MODELS_TIMEOUT_MS = 10_000;

// The first model of /v1/models.
export const firstModel = async (
  transport: Transport,
  base: URL,
  headers: Record<string, string>,
): Promise<string> => {
  const url = underBase(base, 'v1/models');
  let answer;
  try {
    answer = await getText(transport, url, MODELS_TIMEOUT_MS, headers);
  } catch (error) {
    throw new UsageError(
      `cannot reach ${url.href}: ${error instanceof Error ? error.message : String(error)}`,
      {
        hint: 'check the URL and that the server is up (vigil wait URL), or give --model',
      },
    );
  }
  let id: unknown;
  try {
    id = (JSON.parse(answer.body) as { data?: { id?: unknown }[] }).data?.[0]?.id;
  } catch {
    id = undefined;
  }
  if (answer.status !== 200 || typeof id !== 'string')
    throw new UsageError(`${url.href} answered HTTP ${String(answer.status)} without a model list`, {
      option: '--model',
      hint: 'give the model name with --model',
    });
  return id;
};

const authHeaders = (apiKey: string | undefined): Record<string, string> =>
  apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` };

interface Side {
  url: URL;
  model: string;
  probe: Awaited<ReturnType<typeof openSpecProbe>>;
}

// Runs the benchmark; throws UsageError when a server cannot be reached or named.
export const runBench = async (options: BenchOptions): Promise<BenchResult> => {
  const ownTransport = options.transport === undefined;
  const concurrency = options.mode.kind === 'closed' ? options.mode.concurrency : 64;
  const transport = options.transport ?? createDefaultTransport({ maxSockets: Math.max(concurrency, 64) });
  const headers = authHeaders(options.apiKey);
  // Every request in flight listens to the caller's signal: that many listeners are expected, not a leak.
  if (options.signal !== undefined) setMaxListeners(0, options.signal);
  try {
    const urls = options.compareUrl === undefined ? [options.url] : [options.url, options.compareUrl];
    const sides: Side[] = [];
    for (const url of urls) {
      const model = options.model ?? (await firstModel(transport, url, headers));
      sides.push({ url, model, probe: null });
    }
    const requestFor = (side: Side) => ({
      baseUrl: side.url,
      model: side.model,
      stream: options.stream,
      timeoutMs: options.timeoutMs,
      headers,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (options.warmup > 0) {
      for (const side of sides)
        await runLoad({
          transport,
          request: requestFor(side),
          prompts: options.prompts,
          mode: options.mode.kind === 'closed' ? options.mode : { kind: 'closed', concurrency: 1 },
          stop: { requests: options.warmup },
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
    }
    for (const side of sides)
      side.probe = await openSpecProbe(transport, side.url, options.engine ?? 'auto', headers);

    const started = performance.now();
    const total = 'requests' in options.stop ? options.stop.requests * sides.length : null;
    let done = 0;
    let errors = 0;
    const onResult = (result: RequestResult): void => {
      done++;
      if (result.error !== null) errors++;
      options.onProgress?.({ done, total, errors, elapsedMs: performance.now() - started });
    };
    const runBlock = async (side: Side, firstPrompt: number, stop: LoadStop): Promise<TimedResults> => {
      const run = await runLoad({
        transport,
        request: requestFor(side),
        prompts: options.prompts,
        firstPrompt,
        mode: options.mode,
        stop,
        onResult,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      return { results: run.results, wallMs: run.endedAt - run.startedAt };
    };
    const collected: TimedResults[] = [];
    const pairs: BlockPair[] = [];
    const [primary, secondary] = sides;
    if (primary === undefined) throw new UsageError('no server to benchmark');
    if (secondary === undefined) {
      collected.push(await runBlock(primary, 0, options.stop));
    } else {
      // Alternate blocks A, B, A, B... on the same prompts until each side has its share.
      const deadline = 'durationMs' in options.stop ? started + options.stop.durationMs : Infinity;
      const perSide = 'requests' in options.stop ? options.stop.requests : Infinity;
      const a: TimedResults = { results: [], wallMs: 0 };
      const b: TimedResults = { results: [], wallMs: 0 };
      for (let first = 0; first < perSide && performance.now() < deadline; first += options.blockRequests) {
        if (options.signal?.aborted === true) break;
        const stop = { requests: Math.min(options.blockRequests, perSide - first) };
        const pair = { a: await runBlock(primary, first, stop), b: await runBlock(secondary, first, stop) };
        pairs.push(pair);
        for (const [into, block] of [
          [a, pair.a],
          [b, pair.b],
        ] as const) {
          into.results.push(...block.results);
          into.wallMs += block.wallMs;
        }
      }
      collected.push(a, b);
    }

    const summaries: SideSummary[] = [];
    for (const [i, side] of sides.entries()) {
      const spec = await closeSpecProbe(transport, side.url, side.probe, headers);
      const perRequest =
        spec !== null && side.probe !== null && side.probe.reader.perRequest !== undefined
          ? await perRequestAcceptance(
              transport,
              side.url,
              side.probe.reader,
              ['The capital city of France is', 'Count from one to twenty:'],
              options.prompts[0]?.maxTokens ?? 64,
              headers,
            )
          : undefined;
      summaries.push(
        summarize(collected[i] ?? { results: [], wallMs: 0 }, {
          url: side.url.href,
          model: side.model,
          engine: side.probe?.engine ?? null,
          spec:
            spec === null
              ? null
              : { ...spec, ...(perRequest === undefined ? {} : { per_request_accept_length: perRequest }) },
        }),
      );
    }
    return {
      sides: summaries,
      compare: pairs.length === 0 ? null : compareBlocks(pairs, options.seed),
      series: collected.map((c) => {
        const ok = c.results.filter((r) => r.error === null);
        return {
          ttft: ok.flatMap((r) => (r.ttftMs === null ? [] : [r.ttftMs])),
          itl: ok.flatMap((r) => r.gaps),
          rate: tokensOverTime(c.results, started),
        };
      }),
    };
  } finally {
    if (ownTransport) transport.close();
  }
};
