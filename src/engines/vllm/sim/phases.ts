// vLLM's start (V1 engine), phase by phase, in its real order and line shapes (docs/engines/log-patterns.md; vllm-ready-01..03):
// the API server, then the EngineCore process (and one worker per rank when TP > 1) loads weights, compiles,
// sizes the KV cache, captures graphs and warms up; only then does the API server bind its port.
import type { PhaseId } from '../../../events.ts';
import { ADDRESS_IN_USE, type BindError } from '../../../sim/api/server.ts';
import { createVllmLog } from './log.ts';
import { guessModelInfo } from '../../../sim/model-info.ts';
import type { PhaseScript, SimContext, SimOutcome } from '../../../sim/types.ts';
import { compile, distInit, graphCapture, kvCache, warmup, weightLoad } from './engine.ts';
import { VLLM_SECONDS, vllmProcs } from './procs.ts';
import { vllmStartLines, type VllmStartLines } from '../sim-lines.ts';

// The chosen release's line shapes (from the catalogue).
const linesOf = (ctx: SimContext): VllmStartLines => vllmStartLines(ctx.settings.engineVersion ?? undefined);

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

const processUp = async (ctx: SimContext): Promise<null> => {
  const log = createVllmLog(ctx.sink);
  const { api, engine } = vllmProcs(ctx);
  log.log(null, 'INFO', '__init__.py:216', 'Automatically detected platform cuda.');
  log.log(api, 'INFO', 'api_server.py:1839', linesOf(ctx).banner(ctx.config.modelPath));
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
    `Initializing a V1 LLM engine (v${linesOf(ctx).version}) with config: model='${modelPath}', speculative_config=${ctx.config.speculative === null ? 'None' : 'SpeculativeConfig(...)'}, tokenizer='${modelPath}', skip_tokenizer_init=False, tokenizer_mode=auto, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=${ctx.config.contextLength}, load_format=auto, tensor_parallel_size=${tpSize}, pipeline_parallel_size=1, data_parallel_size=1, quantization=None, enforce_eager=${eager ? 'True' : 'False'}, kv_cache_dtype=auto, device_config=cuda, seed=0, served_model_name=${servedModelName}, enable_prefix_caching=True, enable_chunked_prefill=True`,
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
  if (bindError !== null) return failVllmBind(ctx, bindError);
  // vLLM main's first line after the bind.
  const started = linesOf(ctx).httpStarted;
  if (started !== null) createVllmLog(ctx.sink).log(vllmProcs(ctx).api, 'INFO', 'launcher.py:97', started);
  return null;
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
