// A run's results as the figures vigil reports: rates over the run's wall time, latency percentiles, TPOT from
// usage, errors by kind, and output tokens/s over time for the plot.
import type { SpecFigures } from '../engines/types.ts';
import type { RequestResult } from './request.ts';
import { percentiles, round3, type Percentiles } from './stats.ts';

export interface SideSummary {
  url: string;
  model: string;
  engine: string | null;
  requests: number;
  requests_ok: number;
  duration_s: number;
  requests_per_s: number;
  output_tokens_per_s: number;
  input_tokens_per_s: number;
  ttft_ms: Percentiles;
  itl_ms: Percentiles;
  /** (e2e - TTFT) / (completion_tokens - 1), per request. */
  tpot_ms: Percentiles;
  e2e_ms: Percentiles;
  errors: { total: number; by_kind: Record<string, number> };
  spec: (SpecFigures & { per_request_accept_length?: number | null }) | null;
}

export interface TimedResults {
  results: RequestResult[];
  /** Wall time the requests ran, summed over blocks, in ms. */
  wallMs: number;
}

// TPOT of one successful request; null with fewer than two tokens.
export const tpotOf = (r: RequestResult): number | null =>
  r.error === null && r.ttftMs !== null && r.completionTokens !== null && r.completionTokens > 1
    ? (r.e2eMs - r.ttftMs) / (r.completionTokens - 1)
    : null;

const roundAll = (p: Percentiles): Percentiles => ({
  p50: round3(p.p50),
  p90: round3(p.p90),
  p99: round3(p.p99),
  max: round3(p.max),
});

export const summarize = (
  run: TimedResults,
  meta: { url: string; model: string; engine: string | null; spec: SideSummary['spec'] },
): SideSummary => {
  const ok = run.results.filter((r) => r.error === null);
  const byKind: Record<string, number> = {};
  for (const r of run.results) if (r.error !== null) byKind[r.error.kind] = (byKind[r.error.kind] ?? 0) + 1;
  const seconds = Math.max(run.wallMs, 1e-6) / 1000;
  const sum = (pick: (r: RequestResult) => number | null): number =>
    ok.reduce((total, r) => total + (pick(r) ?? 0), 0);
  const numbers = (values: (number | null)[]): number[] => values.filter((v): v is number => v !== null);
  return {
    url: meta.url,
    model: meta.model,
    engine: meta.engine,
    requests: run.results.length,
    requests_ok: ok.length,
    duration_s: round3(seconds) ?? 0,
    requests_per_s: round3(ok.length / seconds) ?? 0,
    output_tokens_per_s: round3(sum((r) => r.completionTokens) / seconds) ?? 0,
    input_tokens_per_s: round3(sum((r) => r.promptTokens) / seconds) ?? 0,
    ttft_ms: roundAll(percentiles(numbers(ok.map((r) => r.ttftMs)))),
    itl_ms: roundAll(percentiles(ok.flatMap((r) => r.gaps))),
    tpot_ms: roundAll(percentiles(numbers(ok.map(tpotOf)))),
    e2e_ms: roundAll(percentiles(ok.map((r) => r.e2eMs))),
    errors: { total: run.results.length - ok.length, by_kind: byKind },
    spec: meta.spec,
  };
};

/** Output tokens/s in consecutive windows since the run began, for the plot. */
export interface RatePoint {
  t_s: number;
  tokens_per_s: number;
}

// Each request's completion tokens (from usage) spread evenly from its first token to its end: the server
// reports no per-chunk counts, and this keeps the total exact while showing when the tokens flowed.
export const tokensOverTime = (
  results: readonly RequestResult[],
  origin: number,
  windows = 40,
): RatePoint[] => {
  const ok = results.filter((r) => r.error === null && r.ttftMs !== null && r.completionTokens !== null);
  if (ok.length === 0) return [];
  const end = Math.max(...ok.map((r) => r.sentAt + r.e2eMs)) - origin;
  const width = Math.max(end / windows, 50);
  const count = Math.max(1, Math.ceil(end / width));
  const tokens = new Float64Array(count);
  for (const r of ok) {
    const from = r.sentAt + (r.ttftMs ?? 0) - origin;
    const to = r.sentAt + r.e2eMs - origin;
    const total = r.completionTokens ?? 0;
    const span = Math.max(to - from, 1e-6);
    for (let i = Math.max(0, Math.floor(from / width)); i < count && i * width < to; i++) {
      const overlap = Math.min(to, (i + 1) * width) - Math.max(from, i * width);
      if (overlap > 0) tokens[i] = (tokens[i] ?? 0) + (total * overlap) / span;
    }
  }
  return Array.from(tokens, (n, i) => ({
    t_s: round3(((i + 0.5) * width) / 1000) ?? 0,
    tokens_per_s: round3(n / (width / 1000)) ?? 0,
  }));
};
