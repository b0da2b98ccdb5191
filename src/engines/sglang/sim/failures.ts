// What SGLang prints and does for each failure class at the phase it strikes (docs/engines/log-patterns.md and the fixture logs).
// A scheduler that raises logs `Scheduler hit an exception:` and sends SIGQUIT to the main process, which logs
// `Received sigquit from a child process...` and kills its whole tree, itself included, with SIGKILL.
import { loadBundledSchema } from '../../../flags/schema/bundled.ts';
import { formatArgparseError } from '../../../flags/argparse/usage.ts';
import { createSglangLog, type SglangLog } from './log.ts';
import { announceUvicorn, failBind } from './phases.ts';
import { CAPTURE_BS, captureBatches, loadShards, SGLANG_SECONDS, SGLANG_SHARDS } from './steps.ts';
import { sglangStartLines } from '../sim-lines.ts';
import type { SimContext, SimOutcome } from '../../../sim/types.ts';
import type { SimFailure } from '../../../sim/failures/catalog.ts';
import * as tracebacks from './tracebacks.ts';

const schedulerDied = (log: SglangLog, rank: number, traceback: string): SimOutcome => {
  log.rank(rank, `Scheduler hit an exception: ${traceback}`);
  log.main('Received sigquit from a child process. It usually means the child failed.');
  return { kind: 'killed', orphanWorkers: false };
};

// Starts a capture (target or draft) and stops partway, the bar left without its newline.
const startCapture = async (
  ctx: SimContext,
  log: SglangLog,
  draft: boolean,
  batches: number,
): Promise<void> => {
  const lines = sglangStartLines(ctx.settings.engineVersion ?? undefined);
  if (draft) {
    await loadShards(ctx, log, { shards: 1, seconds: SGLANG_SECONDS.draftLoad, availMem: '10.26' });
    log.rank(0, lines.weightEnd('LlamaForCausalLMEagle3'));
    log.rank(0, 'Memory pool end. avail mem=9.55 GB');
    log.rank(0, lines.draftCaptureBegin('draft', '9.55'));
  } else {
    log.rank(0, lines.captureBegin(CAPTURE_BS));
  }
  await captureBatches(ctx, log, SGLANG_SECONDS.capture, batches);
};

const hang = async (failure: SimFailure, ctx: SimContext, log: SglangLog): Promise<SimOutcome> => {
  switch (failure.trigger) {
    case 'process-up':
      log.main(`server_args=${ctx.argsLine}`);
      break;
    case 'dist-init':
      // sglang-hang-01.log: rank 0 starts, the other ranks never join.
      log.rank(0, 'Init torch distributed begin.');
      if (ctx.config.tpSize > 1) log.rank(0, 'sglang is using nccl==2.27.3');
      break;
    case 'weight-load':
      await loadShards(ctx, log, {
        shards: SGLANG_SHARDS,
        seconds: SGLANG_SECONDS.weights,
        upTo: 5,
        availMem: '77.43',
      });
      break;
    case 'graph-capture':
    case 'draft-graph-capture':
      // sglang-hang-02.log: the capture bar stays at 0.
      await startCapture(ctx, log, failure.trigger === 'draft-graph-capture', 0);
      break;
    case 'http-up':
      log.rank(
        0,
        'max_total_num_tokens=903439, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=3529',
      );
      break;
    case 'warmup': {
      log.access('GET', sglangStartLines(ctx.settings.engineVersion ?? undefined).modelInfoPath, 200);
      log.rank(
        0,
        'Prefill batch. #new-seq: 1, #new-token: 6, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0,',
      );
      // The scheduler's soft watchdog keeps reporting the stuck forward pass.
      const write = (): void => {
        log.rank(0, 'Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=True)');
      };
      return { kind: 'hang', heartbeat: { everySeconds: 300, write } };
    }
    default:
      break;
  }
  return { kind: 'hang', heartbeat: null };
};

const cudaOom = async (failure: SimFailure, ctx: SimContext, log: SglangLog): Promise<SimOutcome> => {
  if (failure.trigger === 'weight-load') {
    await loadShards(ctx, log, {
      shards: SGLANG_SHARDS,
      seconds: SGLANG_SECONDS.weights,
      upTo: 7,
      availMem: '77.43',
    });
    return schedulerDied(log, 0, tracebacks.weightLoadOom());
  }
  if (failure.trigger === 'kv-cache') {
    await ctx.clock.sleep(SGLANG_SECONDS.kvCache / 2);
    return schedulerDied(log, 0, tracebacks.kvCacheOom());
  }
  await startCapture(ctx, log, failure.trigger === 'draft-graph-capture', 3);
  return schedulerDied(log, 0, tracebacks.captureFailed(tracebacks.torchOom('448.00 MiB', 0)));
};

const killed = async (failure: SimFailure, ctx: SimContext, log: SglangLog): Promise<SimOutcome> => {
  if (failure.trigger === 'weight-load') {
    await loadShards(ctx, log, {
      shards: SGLANG_SHARDS,
      seconds: SGLANG_SECONDS.weights,
      upTo: 9,
      availMem: '77.43',
    });
  } else if (failure.trigger === 'kv-cache') {
    await ctx.clock.sleep(SGLANG_SECONDS.kvCache / 2);
  } else {
    await startCapture(ctx, log, failure.trigger === 'draft-graph-capture', 4);
  }
  // The host OOM killer: no last words, and the workers are left behind.
  return { kind: 'killed', orphanWorkers: true };
};

// argparse rejecting a choice before anything else runs (sglang-invalid-value-01.log), exit 2.
const invalidValue = (ctx: SimContext): SimOutcome => {
  const schema = loadBundledSchema('sglang');
  const option = schema.options.find((o) => o.dest === 'mm_attention_backend');
  const choices = (option?.choices ?? ['sdpa', 'fa3', 'triton_attn']).map((c) => `'${c}'`).join(', ');
  const message = `argument --mm-attention-backend: invalid choice: 'triton' (choose from ${choices})`;
  ctx.sink.stderr(formatArgparseError(schema, message, { prog: 'launch_server.py', width: ctx.usageWidth }));
  return { kind: 'exit', code: 2 };
};

// Plays one injected failure at its phase; returns how the process ends.
export const runSglangFailure = async (failure: SimFailure, ctx: SimContext): Promise<SimOutcome> => {
  const log = createSglangLog(ctx.sink);
  switch (failure.class) {
    case 'hang':
      return hang(failure, ctx, log);
    case 'cuda-oom':
      return cudaOom(failure, ctx, log);
    case 'killed':
      return killed(failure, ctx, log);
    case 'graph-capture-failed':
      await startCapture(ctx, log, failure.trigger === 'draft-graph-capture', 2);
      return schedulerDied(
        log,
        0,
        tracebacks.captureFailed('CUDA error: operation not permitted when stream is capturing'),
      );
    case 'nccl':
      log.rank(0, 'Init torch distributed begin.');
      if (ctx.config.tpSize > 1) log.rank(0, 'sglang is using nccl==2.27.3');
      await ctx.clock.sleep(SGLANG_SECONDS.distInit / 2);
      return schedulerDied(log, 0, tracebacks.ncclError());
    case 'weight-mismatch':
      await loadShards(ctx, log, {
        shards: 1,
        seconds: SGLANG_SECONDS.draftLoad,
        upTo: 0,
        availMem: '10.26',
      });
      return schedulerDied(log, 0, tracebacks.draftKeyError());
    case 'peer-rank-failed': {
      await loadShards(ctx, log, {
        shards: SGLANG_SHARDS,
        seconds: SGLANG_SECONDS.weights,
        availMem: '77.43',
      });
      const lost = ctx.config.tpSize - 1;
      ctx.killWorker(`scheduler_TP${lost}`);
      for (let rank = 1; rank < lost; rank++)
        log.rank(rank, `Scheduler hit an exception: ${tracebacks.peerRankFailed(rank)}`);
      return schedulerDied(log, 0, tracebacks.peerRankFailed(0));
    }
    case 'dependency':
      log.main(`server_args=${ctx.argsLine}`);
      log.raw(tracebacks.dependencyError());
      return { kind: 'exit', code: 1 };
    case 'model-not-found-or-auth':
      log.main(`server_args=${ctx.argsLine}`);
      log.raw(tracebacks.gatedRepoError(ctx.config.modelPath));
      return { kind: 'exit', code: 1 };
    case 'invalid-value':
      return invalidValue(ctx);
    case 'port-in-use':
      await announceUvicorn(ctx);
      return failBind(ctx);
    case 'warmup-failed':
      await ctx.clock.sleep(SGLANG_SECONDS.warmup / 4);
      log.access('GET', sglangStartLines(ctx.settings.engineVersion ?? undefined).modelInfoPath, 200);
      await ctx.clock.sleep(SGLANG_SECONDS.warmup / 2);
      log.main(tracebacks.warmupError());
      return { kind: 'killed', orphanWorkers: false };
    case 'flap':
      return { kind: 'serving' };
  }
};
