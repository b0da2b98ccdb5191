// The EngineCore side of vLLM's start (V1 engine; docs/engines/log-patterns.md; vllm-ready-01.log, vllm-ready-02.log): rank
// assignment, weights with the shard bar, torch.compile, KV cache sizing, CUDA graph capture and warmup.
import { createVllmLog, type VllmLog } from './log.ts';
import type { SimContext } from '../../../sim/types.ts';
import { VLLM_SECONDS, VLLM_SHARDS, vllmProcs } from './procs.ts';

// `Starting to load model` and the shard bar up to `upTo` shards (all by default).
export const loadVllmShards = async (ctx: SimContext, log: VllmLog, upTo = VLLM_SHARDS): Promise<void> => {
  const procs = vllmProcs(ctx);
  log.log(
    procs.rank(0),
    'INFO',
    'gpu_model_runner.py:2602',
    `Starting to load model ${ctx.config.modelPath}...`,
  );
  const bar = log.bar('shards', 'Loading safetensors checkpoint shards', VLLM_SHARDS);
  for (let shard = 1; shard <= upTo; shard++) {
    await ctx.clock.sleep(VLLM_SECONDS.weights / VLLM_SHARDS);
    bar.update(shard);
  }
  if (upTo === VLLM_SHARDS) bar.close();
};

export const distInit = async (ctx: SimContext): Promise<null> => {
  const log = createVllmLog(ctx.sink);
  const procs = vllmProcs(ctx);
  const { tpSize } = ctx.config;
  for (let rank = 0; rank < tpSize; rank++) {
    log.log(
      procs.rank(rank),
      'INFO',
      'parallel_state.py:1208',
      `rank ${rank} in world size ${tpSize} is assigned as DP rank 0, PP rank 0, TP rank ${rank}, EP rank ${rank}`,
    );
  }
  if (tpSize > 1) log.log(procs.rank(0), 'INFO', 'pynccl.py:70', 'vLLM is using nccl==2.27.3');
  await ctx.clock.sleep(VLLM_SECONDS.distInit);
  return null;
};

export const weightLoad = async (ctx: SimContext): Promise<null> => {
  const log = createVllmLog(ctx.sink);
  const rank0 = vllmProcs(ctx).rank(0);
  const started = Date.now();
  await loadVllmShards(ctx, log);
  const seconds = ctx.clock.secondsSince(started);
  log.log(rank0, 'INFO', 'default_loader.py:267', `Loading weights took ${seconds.toFixed(2)} seconds`);
  if (ctx.config.speculative !== null)
    log.log(rank0, 'INFO', 'gpu_model_runner.py:2611', 'Loading drafter model...');
  log.log(
    rank0,
    'INFO',
    'gpu_model_runner.py:2653',
    `Model loading took 36.7300 GiB memory and ${ctx.clock.secondsSince(started).toFixed(6)} seconds`,
  );
  return null;
};

export const compile = async (ctx: SimContext): Promise<null> => {
  const log = createVllmLog(ctx.sink);
  const rank0 = vllmProcs(ctx).rank(0);
  const started = Date.now();
  log.log(
    rank0,
    'INFO',
    'backends.py:648',
    "Using cache directory: /root/.cache/vllm/torch_compile_cache/fd1e589ad6/rank_0_0/backbone for vLLM's torch.compile",
  );
  await ctx.clock.sleep(VLLM_SECONDS.compile * 0.3);
  log.log(
    rank0,
    'INFO',
    'backends.py:708',
    `Dynamo bytecode transform time: ${ctx.clock.secondsSince(started).toFixed(2)} s`,
  );
  log.log(rank0, 'INFO', 'backends.py:255', 'Cache the graph for dynamic shape for later use');
  const compiling = Date.now();
  await ctx.clock.sleep(VLLM_SECONDS.compile * 0.7);
  const took = ctx.clock.secondsSince(compiling).toFixed(2);
  log.log(rank0, 'INFO', 'backends.py:286', `Compiling a graph for dynamic shape takes ${took} s`);
  log.log(
    rank0,
    'INFO',
    'monitor.py:34',
    `torch.compile takes ${ctx.clock.secondsSince(started).toFixed(2)} s in total`,
  );
  return null;
};

export const kvCache = async (ctx: SimContext): Promise<null> => {
  const log = createVllmLog(ctx.sink);
  const procs = vllmProcs(ctx);
  await ctx.clock.sleep(VLLM_SECONDS.kvCache);
  for (let rank = 0; rank < ctx.config.tpSize; rank++) {
    log.log(procs.rank(rank), 'INFO', 'gpu_worker.py:348', 'Available KV cache memory: 33.31 GiB');
  }
  log.log(procs.engine, 'INFO', 'kv_cache_utils.py:1234', 'GPU KV cache size: 1,587,648 tokens');
  const concurrency = (1_587_648 / ctx.config.contextLength).toFixed(2);
  const perRequest = ctx.config.contextLength.toLocaleString('en-US');
  log.log(
    procs.engine,
    'INFO',
    'kv_cache_utils.py:1239',
    `Maximum concurrency for ${perRequest} tokens per request: ${concurrency}x`,
  );
  return null;
};

export const graphCapture = async (ctx: SimContext): Promise<null> => {
  const log = createVllmLog(ctx.sink);
  const started = Date.now();
  for (const [desc, total] of [
    ['Capturing CUDA graphs (mixed prefill-decode, PIECEWISE)', 51],
    ['Capturing CUDA graphs (decode, FULL)', 35],
  ] as const) {
    const bar = log.bar('default', desc, total);
    const steps = 5;
    for (let step = 1; step <= steps; step++) {
      await ctx.clock.sleep(VLLM_SECONDS.capture / 2 / steps);
      bar.update(Math.round((total * step) / steps));
    }
    bar.close();
  }
  const secs = Math.round(ctx.clock.secondsSince(started));
  log.log(
    vllmProcs(ctx).rank(0),
    'INFO',
    'gpu_model_runner.py:4244',
    `Graph capturing finished in ${secs} secs, took 1.64 GiB`,
  );
  return null;
};

export const warmup = async (ctx: SimContext, startedMs: number): Promise<null> => {
  await ctx.clock.sleep(VLLM_SECONDS.warmup);
  const took = ctx.clock.secondsSince(startedMs).toFixed(2);
  createVllmLog(ctx.sink).log(
    vllmProcs(ctx).engine,
    'INFO',
    'core.py:210',
    `init engine (profile, create kv cache, warmup model) took ${took} seconds`,
  );
  return null;
};
