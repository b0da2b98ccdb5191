// The simulated SGLang (`vigil sim sglang`): its command line, start phases, failures, processes, serving log
// and HTTP surface, for src/sim (which names no engine) through src/engines/sim.ts.
import { formatArgparseError, formatUsage } from '../../flags/argparse/usage.ts';
import { sendEmpty, sendText } from '../../sim/api/http.ts';
import { json } from '../../sim/api/routes.ts';
import type { SimEngineModule } from '../../sim/engine.ts';
import { formatServerArgs } from '../../sim/log/server-args.ts';
import { SHUTDOWN_LINES } from '../../sim/scripts/shutdown.ts';
import { sglangStartLines } from './sim-lines.ts';
import { readSglang } from './sim/config.ts';
import { runSglangFailure } from './sim/failures.ts';
import { createSglangLog } from './sim/log.ts';
import { sglangMetrics } from './sim/metrics.ts';
import { handleGenerate, modelInfo, serverInfo } from './sim/native.ts';
import { sglangPhases } from './sim/phases.ts';
import { sglangServingLog } from './sim/serving-log.ts';

// What `python -m sglang.launch_server` names itself (argparse takes the basename of sys.argv[0]).
export const SGLANG_PROG = 'launch_server.py';

export const sglangSim: SimEngineModule = {
  id: 'sglang',
  label: 'SGLang',
  checkRelease: (version) => {
    sglangStartLines(version);
  },
  ownArgs: (argv) => argv,
  formatRejection: (schema, message, _unrecognized, width) =>
    formatArgparseError(schema, message, { prog: SGLANG_PROG, width }),
  usage: (schema, width) => formatUsage(schema, { prog: SGLANG_PROG, width }),
  readConfig: (reader) => readSglang(reader),
  phases: (config) => sglangPhases({ config }),
  argsLine: (schema, result) => formatServerArgs(schema, result),
  failurePhases: {
    'cuda-oom': ['weight-load', 'kv-cache', 'graph-capture', 'draft-graph-capture'],
    nccl: ['dist-init'],
    hang: [
      'process-up',
      'dist-init',
      'weight-load',
      'kv-cache',
      'graph-capture',
      'draft-graph-capture',
      'http-up',
      'warmup',
    ],
    'port-in-use': ['http-up'],
    'model-not-found-or-auth': ['process-up'],
    'weight-mismatch': ['weight-load'],
    dependency: ['process-up'],
    'invalid-value': ['process-up'],
    killed: ['weight-load', 'kv-cache', 'graph-capture', 'draft-graph-capture'],
    'warmup-failed': ['warmup'],
    'graph-capture-failed': ['graph-capture', 'draft-graph-capture'],
    'peer-rank-failed': ['weight-load'],
    flap: ['ready'],
  },
  noGraphOption: '--disable-cuda-graph',
  draftOptions: '--speculative-algorithm EAGLE3 --speculative-draft-model-path <path>',
  // SGLang loads the EAGLE draft after the target's graphs, in the draft phase.
  draftWeightsPhase: 'draft-graph-capture',
  runFailure: (failure, ctx) => runSglangFailure(failure, ctx),
  workerRoles: (tpSize) => [...Array.from({ length: tpSize }, (_, i) => `scheduler_TP${i}`), 'detokenizer'],
  workerTitle: (role) => `sglang::${role}`,
  servingLog: (sink) => sglangServingLog(sink),
  printShutdown: (ctx) => {
    const log = createSglangLog(ctx.sink);
    for (const line of SHUTDOWN_LINES(ctx.pid)) log.uvicorn('INFO', line);
  },
  addRoutes: (routes, config, health) => {
    routes.set('GET /health_generate', health);
    // SageMaker's liveness route answers as soon as the HTTP server is up (docs/readiness.md).
    routes.set('GET /ping', (_req, res) => {
      sendEmpty(res, 200);
    });
    routes.set('POST /generate', handleGenerate);
    for (const path of ['/model_info', '/get_model_info']) routes.set(`GET ${path}`, json(modelInfo));
    for (const path of ['/server_info', '/get_server_info']) routes.set(`GET ${path}`, json(serverInfo));
    if (config.enableMetrics) {
      routes.set('GET /metrics', (_req, res, api) => {
        sendText(res, 200, sglangMetrics(api));
      });
    }
  },
  // SGLang lets /health* and /metrics through its API-key middleware.
  guards: (path) => !path.startsWith('/health') && !path.startsWith('/metrics'),
  errorBody: (info) => ({ object: 'error', ...info }),
  checksModelName: false,
};
