// The speed-up of one server over another from alternating blocks of the same workload, with a 95% interval.
//
// The interval is a paired percentile bootstrap over block pairs: blocks (not requests) are the independent
// units, since requests of one block share batches; pairing each block with its neighbour on the other server
// cancels slow drift of the machine; the ratio of summed figures weights blocks by their size; and percentiles of
// resampled ratios need no normal approximation, which a handful of blocks would not justify.
import { seededRandom } from './random.ts';
import type { RequestResult } from './request.ts';
import { quantile, round3, sortedCopy } from './stats.ts';
import { tpotOf } from './summary.ts';

/** One block on each server, run back to back on the same prompts. */
export interface BlockPair {
  a: { results: RequestResult[]; wallMs: number };
  b: { results: RequestResult[]; wallMs: number };
}

export interface Speedup {
  speedup: number;
  ci95: [number, number];
}

export interface CompareFigures extends Speedup {
  /** What the speed-up measures. */
  metric: 'output_tokens_per_s';
  blocks: number;
  /** Speed-up in time per output token (b's TPOT over a's), the per-request view of the same gain. */
  tpot: Speedup;
}

interface BlockSums {
  tokens: number;
  wallMs: number;
  tpotSum: number;
  tpotCount: number;
}

const sums = (side: BlockPair['a']): BlockSums => {
  let tokens = 0;
  let tpotSum = 0;
  let tpotCount = 0;
  for (const r of side.results) {
    if (r.error !== null) continue;
    tokens += r.completionTokens ?? 0;
    const tpot = tpotOf(r);
    if (tpot !== null) {
      tpotSum += tpot;
      tpotCount++;
    }
  }
  return { tokens, wallMs: side.wallMs, tpotSum, tpotCount };
};

const throughputRatio = (pairs: readonly [BlockSums, BlockSums][]): number => {
  let aTokens = 0;
  let aMs = 0;
  let bTokens = 0;
  let bMs = 0;
  for (const [a, b] of pairs) {
    aTokens += a.tokens;
    aMs += a.wallMs;
    bTokens += b.tokens;
    bMs += b.wallMs;
  }
  return aTokens / aMs / (bTokens / bMs);
};

const tpotRatio = (pairs: readonly [BlockSums, BlockSums][]): number => {
  let aSum = 0;
  let aCount = 0;
  let bSum = 0;
  let bCount = 0;
  for (const [a, b] of pairs) {
    aSum += a.tpotSum;
    aCount += a.tpotCount;
    bSum += b.tpotSum;
    bCount += b.tpotCount;
  }
  return bSum / bCount / (aSum / aCount);
};

const bootstrap = (
  pairs: readonly [BlockSums, BlockSums][],
  statistic: (pairs: readonly [BlockSums, BlockSums][]) => number,
  resamples: number,
  seed: number,
): Speedup => {
  const random = seededRandom(seed);
  const values: number[] = [];
  for (let i = 0; i < resamples; i++) {
    const sample = pairs.map((pair) => pairs[Math.floor(random() * pairs.length)] ?? pair);
    const value = statistic(sample);
    if (Number.isFinite(value)) values.push(value);
  }
  const sorted = sortedCopy(values);
  const point = statistic(pairs);
  return {
    speedup: round3(point) ?? 0,
    ci95: [round3(quantile(sorted, 0.025) ?? point) ?? 0, round3(quantile(sorted, 0.975) ?? point) ?? 0],
  };
};

// The speed-up of side a over side b (above 1: a is faster).
export const compareBlocks = (pairs: readonly BlockPair[], seed = 1, resamples = 4000): CompareFigures => {
  const summed = pairs.map((p): [BlockSums, BlockSums] => [sums(p.a), sums(p.b)]);
  return {
    metric: 'output_tokens_per_s',
    blocks: pairs.length,
    ...bootstrap(summed, throughputRatio, resamples, seed),
    tpot: bootstrap(summed, tpotRatio, resamples, seed + 1),
  };
};
