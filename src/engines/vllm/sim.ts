// The simulated vLLM (`vigil sim vllm`): its command line, start phases, failures, processes, serving log and
// HTTP surface, for src/sim (which names no engine) through src/engines/sim.ts.
import { sendText } from '../../sim/api/http.ts';
import { json } from '../../sim/api/routes.ts';
import type { SimEngineModule } from '../../sim/engine.ts';
import { formatNonDefaultArgs } from '../../sim/log/server-args.ts';
import { SHUTDOWN_LINES } from '../../sim/scripts/shutdown.ts';
import { vllmStartLines } from './sim-lines.ts';
import { readVllm } from './sim/config.ts';
import { runVllmFailure } from './sim/failures.ts';
import { createVllmLog } from './sim/log.ts';
import { vllmMetrics } from './sim/metrics.ts';
import { vllmPhases } from './sim/phases.ts';
import { VLLM_VERSION } from './sim/procs.ts';
import { vllmServingLog } from './sim/serving-log.ts';

// vLLM's top-level parser reports unrecognized arguments (vllm-unknown-flag-01.log; the subcommand list is
// that of vLLM 0.15-0.19 as printed in vllm-project/vllm-omni#1364); `vllm serve`'s own parser reports the rest.
const TOP_USAGE = 'usage: vllm [-h] [-v] {chat,complete,serve,bench,collect-env,run-batch} ...\n';
const SERVE_USAGE = 'usage: vllm serve [model_tag] [options]\n';

export const vllmSim: SimEngineModule = {
  id: 'vllm',
  label: 'vLLM',
  checkRelease: (version) => {
    vllmStartLines(version);
  },
  ownArgs: (argv) => (argv[0] === 'serve' ? argv.slice(1) : argv),
  formatRejection: (_schema, message, unrecognized) =>
    unrecognized ? `${TOP_USAGE}vllm: error: ${message}\n` : `${SERVE_USAGE}vllm serve: error: ${message}\n`,
  usage: () => SERVE_USAGE,
  readConfig: (reader, result) => readVllm(reader, result),
  phases: (config) => vllmPhases({ config }),
  argsLine: (schema, result) => formatNonDefaultArgs(schema, result),
  failurePhases: {
    'cuda-oom': ['weight-load', 'kv-cache', 'graph-capture'],
    nccl: ['dist-init'],
    hang: [
      'process-up',
      'dist-init',
      'weight-load',
      'compile',
      'kv-cache',
      'graph-capture',
      'warmup',
      'http-up',
    ],
    'port-in-use': ['http-up'],
    'model-not-found-or-auth': ['process-up'],
    'weight-mismatch': ['weight-load'],
    dependency: ['process-up'],
    'invalid-value': ['process-up'],
    killed: ['weight-load', 'compile', 'kv-cache', 'graph-capture'],
    flap: ['ready'],
  },
  noGraphOption: '--enforce-eager',
  draftOptions: '--speculative-config',
  draftWeightsPhase: null,
  runFailure: (failure, ctx) => runVllmFailure(failure, ctx),
  workerRoles: (tpSize) => [
    'EngineCore_DP0',
    ...(tpSize > 1 ? Array.from({ length: tpSize }, (_, i) => `Worker_TP${i}`) : []),
  ],
  workerTitle: (role) => `VLLM::${role}`,
  servingLog: (sink, pid) => vllmServingLog(sink, pid),
  printShutdown: (ctx) => {
    const log = createVllmLog(ctx.sink);
    const api = { name: 'APIServer', pid: ctx.pid };
    for (const line of SHUTDOWN_LINES(ctx.pid)) log.uvicorn(api, 'INFO', line);
  },
  addRoutes: (routes, _config, health) => {
    routes.set('GET /metrics', (_req, res, api) => {
      sendText(res, 200, vllmMetrics(api));
    });
    routes.set(
      'GET /version',
      json(() => ({ version: VLLM_VERSION })),
    );
    routes.set(
      'GET /load',
      json((api) => ({ server_load: api.stats.running })),
    );
    routes.set('GET /ping', health);
    routes.set('POST /ping', health);
  },
  // vLLM guards only the /v1 paths with its API key.
  guards: (path) => path.startsWith('/v1'),
  errorBody: (info) => ({ error: info }),
  checksModelName: true,
};
