// vLLM's start (V1 engine), phase by phase, in its real order and line shapes (PATTERNS.md §3; vllm-ready-01..03):
// the API server, then the EngineCore process (and one worker per rank when TP > 1) loads weights, compiles,
// sizes the KV cache, captures graphs and warms up; only then does the API server bind its port.
// Durations are simulated seconds at VIGIL_SIM_TIME_SCALE=1 (about 2-3 minutes in all).
import type { PhaseId } from '../../events.ts';
import type { BindError } from '../api/server.ts';
import { ADDRESS_IN_USE } from './sglang.ts';
import { createVllmLog, type VllmLog, type VllmProc } from '../log/vllm-log.ts';
import { guessModelInfo } from '../model-info.ts';
import type { PhaseScript, SimContext, SimOutcome } from '../types.ts';

export const VLLM_SECONDS = {
  processUp: 8,
  distInit: 4,
  weights: 60,
  compile: 35,
  kvCache: 3,
  capture: 25,
  warmup: 3,
  httpUp: 2,
};

export const VLLM_SHARDS = 14;
export const VLLM_VERSION = '0.19.1';

const ROUTES: [string, string][] = [
  ['/openapi.json', 'HEAD, GET'],
  ['/docs', 'HEAD, GET'],
  ['/docs/oauth2-redirect', 'HEAD, GET'],
  ['/redoc', 'HEAD, GET'],
  ['/tokenize', 'POST'],
  ['/detokenize', 'POST'],
  ['/load', 'GET'],
  ['/version', 'GET'],
  ['/health', 'GET'],
  ['/metrics', 'GET'],
  ['/ping', 'GET, POST'],
  ['/v1/models', 'GET'],
  ['/v1/chat/completions', 'POST'],
  ['/v1/completions', 'POST'],
];

/** The processes that name vLLM's log lines: the API server, the EngineCore and (TP > 1) one worker per rank. */
export interface VllmProcs {
  api: VllmProc;
  engine: VllmProc;
  /** Rank n's process: `Worker_TPn` when TP > 1, else the EngineCore itself. */
  rank(n: number): VllmProc;
}

// The process names and pids of this run (the workers are real child processes).
export const vllmProcs = (ctx: SimContext): VllmProcs => {
  const pidOf = (role: string): number => ctx.workers.find((w) => w.role === role)?.pid ?? ctx.pid;
  const engine = { name: 'EngineCore_DP0', pid: pidOf('EngineCore_DP0') };
  return {
    api: { name: 'APIServer', pid: ctx.pid },
    engine,
    rank: (n) => (ctx.config.tpSize > 1 ? { name: `Worker_TP${n}`, pid: pidOf(`Worker_TP${n}`) } : engine),
  };
};

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

const processUp = async (ctx: SimContext): Promise<null> => {
  const log = createVllmLog(ctx.sink);
  const { api, engine } = vllmProcs(ctx);
  log.log(null, 'INFO', '__init__.py:216', 'Automatically detected platform cuda.');
  log.log(api, 'INFO', 'api_server.py:1839', `vLLM API server version ${VLLM_VERSION}`);
  log.log(api, 'INFO', 'utils.py:233', `non-default args: ${ctx.argsLine}`);
  await ctx.clock.sleep(VLLM_SECONDS.processUp / 2);
  log.log(
    api,
    'INFO',
    'model.py:547',
    `Resolved architecture: ${guessModelInfo(ctx.config.modelPath).architecture}`,
  );
  log.log(api, 'INFO', 'model.py:1510', `Using max model len ${ctx.config.contextLength}`);
  log.log(api, 'INFO', 'scheduler.py:205', 'Chunked prefill is enabled with max_num_batched_tokens=8192.');
  await ctx.clock.sleep(VLLM_SECONDS.processUp / 2);
  log.log(null, 'INFO', '__init__.py:216', 'Automatically detected platform cuda.');
  log.log(engine, 'INFO', 'core.py:644', 'Waiting for init message from front-end.');
  const { modelPath, tpSize, eager, servedModelName } = ctx.config;
  log.log(
    engine,
    'INFO',
    'core.py:77',
    `Initializing a V1 LLM engine (v${VLLM_VERSION}) with config: model='${modelPath}', speculative_config=${ctx.config.speculative === null ? 'None' : 'SpeculativeConfig(...)'}, tokenizer='${modelPath}', skip_tokenizer_init=False, tokenizer_mode=auto, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=${ctx.config.contextLength}, load_format=auto, tensor_parallel_size=${tpSize}, pipeline_parallel_size=1, data_parallel_size=1, quantization=None, enforce_eager=${eager ? 'True' : 'False'}, kv_cache_dtype=auto, device_config=cuda, seed=0, served_model_name=${servedModelName}, enable_prefix_caching=True, enable_chunked_prefill=True`,
  );
  return null;
};

const distInit = async (ctx: SimContext): Promise<null> => {
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

const weightLoad = async (ctx: SimContext): Promise<null> => {
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

const compile = async (ctx: SimContext): Promise<null> => {
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

const kvCache = async (ctx: SimContext): Promise<null> => {
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

const graphCapture = async (ctx: SimContext): Promise<null> => {
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

const warmup = async (ctx: SimContext, startedMs: number): Promise<null> => {
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

// uvicorn failing to bind after its lifespan startup (vllm-port-in-use-01.log): exit 1.
export const failVllmBind = (ctx: SimContext, error: BindError = ADDRESS_IN_USE): SimOutcome => {
  const log = createVllmLog(ctx.sink);
  const { api } = vllmProcs(ctx);
  log.uvicorn(
    api,
    'ERROR',
    `[Errno ${error.errno}] error while attempting to bind on address ('${ctx.config.host}', ${ctx.config.port}): ${error.reason}`,
  );
  log.uvicorn(api, 'INFO', 'Waiting for application shutdown.');
  log.uvicorn(api, 'INFO', 'Application shutdown complete.');
  return { kind: 'exit', code: 1 };
};

// The API server comes up once the engine is: routes, then uvicorn's lifespan startup (before the bind).
export const announceVllmServer = async (ctx: SimContext): Promise<void> => {
  const log = createVllmLog(ctx.sink);
  const { api } = vllmProcs(ctx);
  log.log(
    api,
    'INFO',
    'loggers.py:147',
    'Engine 000: vllm cache_config_info with initialization after num_gpu_blocks is: 99228',
  );
  log.log(api, 'INFO', 'api_server.py:598', "Supported tasks: ['generate']");
  await ctx.clock.sleep(VLLM_SECONDS.httpUp);
  log.log(
    api,
    'INFO',
    'api_server.py:602',
    `Starting vLLM server on http://${ctx.config.host}:${ctx.config.port}`,
  );
  log.log(api, 'INFO', 'launcher.py:37', 'Available routes are:');
  for (const [path, methods] of ROUTES)
    log.log(api, 'INFO', 'launcher.py:46', `Route: ${path}, Methods: ${methods}`);
  log.uvicorn(api, 'INFO', `Started server process [${ctx.pid}]`);
  log.uvicorn(api, 'INFO', 'Waiting for application startup.');
  log.uvicorn(api, 'INFO', 'Application startup complete.');
};

const startVllmServer = async (ctx: SimContext): Promise<SimOutcome | null> => {
  await announceVllmServer(ctx);
  ctx.traceReadyLine();
  // vLLM's /health answers 200 as soon as the socket accepts: the engine is already up.
  ctx.setHealthy();
  const bindError = await ctx.listen();
  return bindError === null ? null : failVllmBind(ctx, bindError);
};

// The phases this command goes through, in vLLM's order (no compile or capture with --enforce-eager).
export const vllmPhases = (ctx: Pick<SimContext, 'config'>): PhaseScript[] => {
  const { eager } = ctx.config;
  let engineStarted = Date.now();
  const phases: [PhaseId, PhaseScript['run'], boolean][] = [
    ['process-up', processUp, true],
    [
      'dist-init',
      (c) => {
        engineStarted = Date.now();
        return distInit(c);
      },
      true,
    ],
    ['weight-load', weightLoad, true],
    ['compile', compile, !eager],
    ['kv-cache', kvCache, true],
    ['graph-capture', graphCapture, !eager],
    ['warmup', (c) => warmup(c, engineStarted), true],
    ['http-up', startVllmServer, true],
    ['ready', () => Promise.resolve(null), true],
  ];
  return phases.filter(([, , on]) => on).map(([id, run]) => ({ id, run }));
};
