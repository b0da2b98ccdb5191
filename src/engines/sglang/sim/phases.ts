// SGLang's start, phase by phase, in its real order and line shapes (docs/engines/log-patterns.md; sglang-ready-01.log,
// sglang-ready-02.log). Rank 0 prints the phase lines; every rank prints KV cache and graph-address lines.
import type { PhaseId } from '../../../events.ts';
import { ADDRESS_IN_USE, type BindError } from '../../../sim/api/server.ts';
import { createSglangLog } from './log.ts';
import { EAGLE3_DRAFT_ARCHITECTURE, guessModelInfo } from '../../../sim/model-info.ts';
import type { PhaseScript, SimContext, SimOutcome } from '../../../sim/types.ts';
import { sglangStartLines, type SglangStartLines } from '../sim-lines.ts';
import { CAPTURE_BS, captureBatches, loadShards, ranks, SGLANG_SECONDS, SGLANG_SHARDS } from './steps.ts';

// The chosen release's line shapes (from the catalogue).
const linesOf = (ctx: SimContext): SglangStartLines =>
  sglangStartLines(ctx.settings.engineVersion ?? undefined);

const processUp = async (ctx: SimContext): Promise<null> => {
  createSglangLog(ctx.sink).main(`server_args=${ctx.argsLine}`);
  await ctx.clock.sleep(SGLANG_SECONDS.processUp);
  return null;
};

const distInit = async (ctx: SimContext): Promise<null> => {
  const log = createSglangLog(ctx.sink);
  log.rank(0, 'Init torch distributed begin.');
  if (ctx.config.tpSize > 1) {
    log.rank(0, 'sglang is using nccl==2.27.3');
    const peers = ctx.config.tpSize - 1;
    for (const rank of ranks(ctx)) {
      log.raw(
        `[Gloo] Rank ${rank} is connected to ${peers} peer ranks. Expected number of connected peer ranks is : ${peers}\n`,
      );
    }
  }
  await ctx.clock.sleep(SGLANG_SECONDS.distInit);
  log.rank(0, linesOf(ctx).distEnd);
  return null;
};

const weightLoad = async (ctx: SimContext): Promise<null> => {
  const log = createSglangLog(ctx.sink);
  await loadShards(ctx, log, { shards: SGLANG_SHARDS, seconds: SGLANG_SECONDS.weights, availMem: '77.43' });
  const { architecture } = guessModelInfo(ctx.config.modelPath);
  log.rank(0, linesOf(ctx).weightEnd(architecture));
  return null;
};

const kvCache = async (ctx: SimContext): Promise<null> => {
  const log = createSglangLog(ctx.sink);
  await ctx.clock.sleep(SGLANG_SECONDS.kvCache);
  for (const rank of ranks(ctx)) log.rank(rank, linesOf(ctx).kvAllocated);
  log.rank(0, 'Memory pool end. avail mem=11.22 GB');
  return null;
};

const graphCapture = async (ctx: SimContext): Promise<null> => {
  const log = createSglangLog(ctx.sink);
  const started = Date.now();
  const lines = linesOf(ctx);
  log.rank(0, lines.captureBegin(CAPTURE_BS));
  // Releases before the batch sizes moved into the begin line list them on a line of their own.
  if (lines.captureBegin(CAPTURE_BS).startsWith('Capture cuda graph begin.'))
    log.rank(0, `Capture cuda graph bs [${CAPTURE_BS.join(', ')}]`);
  await captureBatches(ctx, log, SGLANG_SECONDS.capture);
  if (ctx.config.tpSize > 1)
    for (const rank of ranks(ctx)) log.rank(rank, 'Registering 2967 cuda graph addresses');
  const elapsed = ctx.clock.secondsSince(started).toFixed(2);
  log.rank(0, lines.captureEnd(elapsed));
  return null;
};

// The EAGLE draft worker starts after the target's capture: its own weights, KV pool, then its graphs.
const draftGraphCapture = async (ctx: SimContext): Promise<null> => {
  const log = createSglangLog(ctx.sink);
  await loadShards(ctx, log, { shards: 1, seconds: SGLANG_SECONDS.draftLoad, availMem: '10.26' });
  log.rank(0, linesOf(ctx).weightEnd(EAGLE3_DRAFT_ARCHITECTURE));
  for (const rank of ranks(ctx))
    log.rank(rank, 'KV Cache is allocated. #tokens: 903439, K size: 0.10 GB, V size: 0.10 GB');
  log.rank(0, 'Memory pool end. avail mem=9.55 GB');
  if (ctx.config.eager) return null;
  for (const [kind, before, usage, after] of [
    ['draft', '9.55', '0.21', '9.34'],
    ['draft extend', '9.34', '0.10', '9.24'],
  ] as const) {
    const started = Date.now();
    log.rank(0, linesOf(ctx).draftCaptureBegin(kind, before));
    await captureBatches(ctx, log, SGLANG_SECONDS.draftCapture / 2);
    const elapsed = ctx.clock.secondsSince(started).toFixed(2);
    log.rank(0, linesOf(ctx).draftCaptureEnd(kind, elapsed, usage, after));
  }
  return null;
};

// uvicorn failing to bind after its lifespan startup (vllm-port-in-use-01.log, with SGLang's prefix): exit 1.
export const failBind = (ctx: SimContext, error: BindError = ADDRESS_IN_USE): SimOutcome => {
  const log = createSglangLog(ctx.sink);
  log.uvicorn(
    'ERROR',
    `[Errno ${error.errno}] error while attempting to bind on address ('${ctx.config.host}', ${ctx.config.port}): ${error.reason}`,
  );
  log.uvicorn('INFO', 'Waiting for application shutdown.');
  log.uvicorn('INFO', 'Application shutdown complete.');
  return { kind: 'exit', code: 1 };
};

// The scheduler's summary, then uvicorn's lifespan startup, which comes before the bind (sglang-ready-01.log).
export const announceUvicorn = async (ctx: SimContext): Promise<void> => {
  const log = createSglangLog(ctx.sink);
  log.rank(
    0,
    `max_total_num_tokens=903439, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=3529, context_len=${ctx.config.contextLength}, available_gpu_mem=10.26 GB`,
  );
  await ctx.clock.sleep(SGLANG_SECONDS.httpUp);
  log.uvicorn('INFO', `Started server process [${ctx.pid}]`);
  log.uvicorn('INFO', 'Waiting for application startup.');
  log.uvicorn('INFO', 'Application startup complete.');
};

const startUvicorn = async (ctx: SimContext): Promise<SimOutcome | null> => {
  await announceUvicorn(ctx);
  const log = createSglangLog(ctx.sink);
  const bindError = await ctx.listen();
  if (bindError !== null) return failBind(ctx, bindError);
  const host = ctx.config.host.includes(':') ? `[${ctx.config.host}]` : ctx.config.host;
  log.uvicorn('INFO', `Uvicorn running on http://${host}:${ctx.config.port} (Press CTRL+C to quit)`);
  return null;
};

// SGLang sends itself a model-info request and one generation before it calls itself ready.
const warmup = async (ctx: SimContext): Promise<null> => {
  const log = createSglangLog(ctx.sink);
  await ctx.clock.sleep(SGLANG_SECONDS.warmup / 4);
  log.access('GET', linesOf(ctx).modelInfoPath, 200);
  log.rank(
    0,
    'Prefill batch. #new-seq: 1, #new-token: 6, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0,',
  );
  await ctx.clock.sleep((SGLANG_SECONDS.warmup * 3) / 4);
  log.access('POST', '/generate', 200);
  return null;
};

const ready = (ctx: SimContext): Promise<null> => {
  ctx.setHealthy();
  createSglangLog(ctx.sink).main('The server is fired up and ready to roll!');
  ctx.traceReadyLine();
  return Promise.resolve(null);
};

// The phases this command goes through, in order (no capture with --disable-cuda-graph, no draft without one).
export const sglangPhases = (ctx: Pick<SimContext, 'config'>): PhaseScript[] => {
  const { config } = ctx;
  const phases: [PhaseId, PhaseScript['run'], boolean][] = [
    ['process-up', processUp, true],
    ['dist-init', distInit, true],
    ['weight-load', weightLoad, true],
    ['kv-cache', kvCache, true],
    ['graph-capture', graphCapture, !config.eager],
    ['draft-graph-capture', draftGraphCapture, config.speculative !== null],
    ['http-up', startUvicorn, true],
    ['warmup', warmup, !config.skipWarmup],
    ['ready', ready, true],
  ];
  return phases.filter(([, , on]) => on).map(([id, run]) => ({ id, run }));
};
