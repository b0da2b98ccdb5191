// What vLLM prints and does for each failure class at the phase it strikes (docs/engines/log-patterns.md and the fixture logs).
// An EngineCore that fails logs `EngineCore failed to start.` with the cause; the API server then raises
// `Engine core initialization failed` and exits 1. A hang before the engine is up keeps printing the API
// server's `Waiting for ... core engine proc(s) to start.` heartbeat every 10 s (vllm-hang-01.log).
import { createVllmLog, type VllmLog } from './log.ts';
import { guessModelInfo } from '../../../sim/model-info.ts';
import { announceVllmServer, failVllmBind } from './phases.ts';
import { loadVllmShards } from './engine.ts';
import { VLLM_SECONDS, VLLM_SHARDS, vllmProcs } from './procs.ts';
import type { SimContext, SimOutcome } from '../../../sim/types.ts';
import type { SimFailure } from '../../../sim/failures/catalog.ts';
import * as tracebacks from './tracebacks.ts';

const engineDied = (ctx: SimContext, log: VllmLog, cause: string): SimOutcome => {
  const { api, engine } = vllmProcs(ctx);
  log.log(engine, 'ERROR', 'core.py:708', `EngineCore failed to start.\n${cause}`);
  log.stderr(api, tracebacks.apiEngineFailed());
  return { kind: 'exit', code: 1 };
};

const apiDied = (ctx: SimContext, log: VllmLog, traceback: string): SimOutcome => {
  log.stderr(vllmProcs(ctx).api, traceback);
  return { kind: 'exit', code: 1 };
};

const captureBars = async (ctx: SimContext, log: VllmLog, upTo: number): Promise<void> => {
  const bar = log.bar('default', 'Capturing CUDA graphs (mixed prefill-decode, PIECEWISE)', 51);
  for (let n = 1; n <= upTo; n++) {
    await ctx.clock.sleep(VLLM_SECONDS.capture / 51);
    bar.update(n);
  }
};

// Where each phase stops when the run hangs or dies partway through it.
const partialPhase = async (ctx: SimContext, log: VllmLog, phase: SimFailure['trigger']): Promise<void> => {
  const rank0 = vllmProcs(ctx).rank(0);
  if (phase === 'dist-init' && ctx.config.tpSize > 1) {
    log.log(rank0, 'INFO', 'pynccl.py:70', 'vLLM is using nccl==2.27.3');
  } else if (phase === 'weight-load') {
    await loadVllmShards(ctx, log, Math.floor(VLLM_SHARDS / 2));
  } else if (phase === 'compile') {
    log.log(
      rank0,
      'INFO',
      'backends.py:648',
      "Using cache directory: /root/.cache/vllm/torch_compile_cache/fd1e589ad6/rank_0_0/backbone for vLLM's torch.compile",
    );
  } else if (phase === 'graph-capture') {
    await captureBars(ctx, log, 0);
  }
};

const hang = async (failure: SimFailure, ctx: SimContext, log: VllmLog): Promise<SimOutcome> => {
  if (failure.trigger === 'process-up') {
    log.log(null, 'INFO', '__init__.py:216', 'Automatically detected platform cuda.');
    return { kind: 'hang', heartbeat: null };
  }
  await partialPhase(ctx, log, failure.trigger);
  if (failure.trigger === 'http-up') return { kind: 'hang', heartbeat: null };
  const { api } = vllmProcs(ctx);
  const write = (): void => {
    log.log(api, 'DEBUG', 'utils.py:777', 'Waiting for 1 local, 0 remote core engine proc(s) to start.');
  };
  return { kind: 'hang', heartbeat: { everySeconds: 10, write } };
};

const cudaOom = async (failure: SimFailure, ctx: SimContext, log: VllmLog): Promise<SimOutcome> => {
  if (failure.trigger === 'weight-load') {
    await loadVllmShards(ctx, log, Math.floor(VLLM_SHARDS / 2));
    return engineDied(ctx, log, tracebacks.engineFailure.weightOom());
  }
  if (failure.trigger === 'kv-cache') {
    await ctx.clock.sleep(VLLM_SECONDS.kvCache / 2);
    return engineDied(ctx, log, tracebacks.engineFailure.kvCacheOom());
  }
  await captureBars(ctx, log, 7);
  return engineDied(ctx, log, tracebacks.engineFailure.captureOom());
};

// Plays one injected failure at its phase; returns how the process ends.
export const runVllmFailure = async (failure: SimFailure, ctx: SimContext): Promise<SimOutcome> => {
  const log = createVllmLog(ctx.sink);
  const { api } = vllmProcs(ctx);
  switch (failure.class) {
    case 'hang':
      return hang(failure, ctx, log);
    case 'cuda-oom':
      return cudaOom(failure, ctx, log);
    case 'killed':
      await partialPhase(ctx, log, failure.trigger);
      return { kind: 'killed', orphanWorkers: true };
    case 'nccl': {
      await ctx.clock.sleep(VLLM_SECONDS.distInit / 2);
      if (ctx.config.tpSize === 1) {
        return engineDied(
          ctx,
          log,
          tracebacks.workerNcclError().replace(/^WorkerProc failed to start.\n/, ''),
        );
      }
      const procs = vllmProcs(ctx);
      for (let rank = 0; rank < ctx.config.tpSize; rank++) {
        log.log(procs.rank(rank), 'ERROR', 'multiproc_executor.py:487', tracebacks.workerNcclError());
      }
      return engineDied(ctx, log, tracebacks.engineFailure.workerFailed());
    }
    case 'weight-mismatch':
      await loadVllmShards(ctx, log);
      log.log(vllmProcs(ctx).rank(0), 'INFO', 'gpu_model_runner.py:2611', 'Loading drafter model...');
      return engineDied(ctx, log, tracebacks.engineFailure.draftKeyError());
    case 'model-not-found-or-auth':
      log.log(api, 'INFO', 'api_server.py:1839', 'vLLM API server version 0.19.1');
      log.log(api, 'INFO', 'utils.py:233', `non-default args: ${ctx.argsLine}`);
      return apiDied(ctx, log, tracebacks.invalidRepository(ctx.config.modelPath));
    case 'invalid-value':
      log.log(api, 'INFO', 'api_server.py:1839', 'vLLM API server version 0.19.1');
      log.log(api, 'INFO', 'utils.py:233', `non-default args: ${ctx.argsLine}`);
      return apiDied(ctx, log, tracebacks.invalidTensorParallel());
    case 'dependency': {
      const { architecture } = guessModelInfo(ctx.config.modelPath);
      log.log(api, 'INFO', 'api_server.py:1839', 'vLLM API server version 0.19.1');
      log.log(api, 'INFO', 'utils.py:233', `non-default args: ${ctx.argsLine}`);
      await ctx.clock.sleep(VLLM_SECONDS.processUp / 2);
      log.log(api, 'ERROR', 'registry.py:548', tracebacks.inspectFailed(architecture));
      return apiDied(ctx, log, tracebacks.inspectFailedFatal(architecture));
    }
    case 'port-in-use':
      await announceVllmServer(ctx);
      return failVllmBind(ctx);
    case 'warmup-failed':
    case 'graph-capture-failed':
    case 'peer-rank-failed':
    case 'flap':
      // Not offered for vLLM (see FAILURE_PHASES), or handled by the API (flap).
      return { kind: 'serving' };
  }
};
