// The simulated durations of SGLang's start (seconds at VIGIL_SIM_TIME_SCALE=1: a TP8 start of a large model,
// about 2-3 minutes) and its two progress bars: the shard loader's and the CUDA graph capture's.
import type { SglangLog } from './log.ts';
import type { SimContext } from '../../../sim/types.ts';

export const SGLANG_SECONDS = {
  processUp: 6,
  distInit: 3,
  weights: 90,
  kvCache: 8,
  capture: 20,
  draftLoad: 6,
  draftCapture: 30,
  httpUp: 1,
  warmup: 4,
};

export const SGLANG_SHARDS = 18;
// The batch sizes SGLang captures by default on a large GPU (sglang-ready-01.log).
export const CAPTURE_BS = [
  1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128, 136, 144, 152, 160,
];

// Every TP rank of the run.
export const ranks = (ctx: SimContext): number[] => Array.from({ length: ctx.config.tpSize }, (_, i) => i);

// `Load weight begin` and the shard bar up to `upTo` shards (all of them by default); returns the bar's writer.
export const loadShards = async (
  ctx: SimContext,
  log: SglangLog,
  options: { shards: number; seconds: number; upTo?: number; availMem: string },
): Promise<void> => {
  log.rank(0, `Load weight begin. avail mem=${options.availMem} GB`);
  const bar = log.bar('shards', 'Loading safetensors checkpoint shards', options.shards);
  const upTo = options.upTo ?? options.shards;
  // The first shard is the slowest (cold page cache), as in sglang-ready-01.log.
  const unit = options.seconds / (options.shards + 2);
  for (let shard = 1; shard <= upTo; shard++) {
    await ctx.clock.sleep(shard === 1 ? unit * 3 : unit);
    bar.update(shard);
  }
  if (upTo === options.shards) bar.close();
};

// The capture bar, counting batch sizes down from the largest (`upTo` of them), as SGLang draws it.
export const captureBatches = async (
  ctx: SimContext,
  log: SglangLog,
  seconds: number,
  upTo?: number,
): Promise<void> => {
  const sizes = [...CAPTURE_BS].reverse();
  const desc = (i: number): string =>
    `Capturing batches (bs=${sizes[Math.min(i, sizes.length - 1)] ?? 1} avail_mem=${(10.92 - i * 0.028).toFixed(2)} GB)`;
  const bar = log.bar('default', desc(0), sizes.length);
  const count = upTo ?? sizes.length;
  for (let i = 1; i <= count; i++) {
    await ctx.clock.sleep(seconds / sizes.length);
    bar.update(i, desc(i));
  }
  if (count === sizes.length) bar.close();
};
