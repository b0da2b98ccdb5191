// The simulated engine's HTTP server: routes per engine, the engine's API-key rule, uvicorn's access log,
// and the health state (503 while warming up or shutting down, 200 when ready, the flap pattern after ready).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { SimConfig } from '../config.ts';
import type { SimSettings } from '../settings.ts';
import type { TraceEvent } from '../trace.ts';
import type { SimSink } from '../types.ts';
import { BadRequest, sendEmpty, sendError, sendJson, sendText } from './http.ts';
import { sglangMetrics, vllmMetrics } from './metrics.ts';
import { handleGenerate, modelInfo, serverInfo, vllmLoad, vllmVersion } from './native.ts';
import { handleOpenAi, type ApiContext } from './openai.ts';
import { createServingLog } from './serving-log.ts';
import { ServingStats } from './stats.ts';

/** Why the port could not be bound, as Python reports it (`[Errno 98] ...: address already in use`). */
export interface BindError {
  errno: number;
  reason: string;
}

export interface SimServer {
  /** Binds the port; resolves null once listening, or the bind error. */
  listen(): Promise<BindError | null>;
  readonly listening: boolean;
  /** /health answers 200 from now on. */
  setHealthy(): void;
  /** /health cycles through these statuses, one per request (the flap failure). */
  startFlap(statuses: readonly number[]): void;
  /** /health answers 503 while the server shuts down. */
  setStopping(): void;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, api: ApiContext) => Promise<void> | void;

const BIND_ERRORS: Record<string, BindError> = {
  EADDRINUSE: { errno: 98, reason: 'address already in use' },
  EADDRNOTAVAIL: { errno: 99, reason: 'cannot assign requested address' },
  EACCES: { errno: 13, reason: 'permission denied' },
};

const json =
  (body: (api: ApiContext) => unknown): Handler =>
  (_req, res, api) => {
    sendJson(res, 200, body(api));
  };

const modelList = (api: ApiContext): unknown => ({
  object: 'list',
  data: [
    {
      id: api.config.servedModelName,
      object: 'model',
      created: api.created,
      owned_by: api.config.engine,
      root: api.config.modelPath,
      parent: null,
      max_model_len: api.config.contextLength,
    },
  ],
});

const routesFor = (config: SimConfig, health: Handler): Map<string, Handler> => {
  const routes = new Map<string, Handler>([
    ['GET /health', health],
    ['GET /v1/models', json(modelList)],
    ['POST /v1/chat/completions', (req, res, api) => handleOpenAi('chat', req, res, api)],
    ['POST /v1/completions', (req, res, api) => handleOpenAi('completion', req, res, api)],
  ]);
  if (config.engine === 'sglang') {
    routes.set('GET /health_generate', health);
    // SageMaker's liveness route answers as soon as the HTTP server is up (DESIGN.md "Early 200s").
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
  } else {
    routes.set('GET /metrics', (_req, res, api) => {
      sendText(res, 200, vllmMetrics(api));
    });
    routes.set('GET /version', json(vllmVersion));
    routes.set('GET /load', json(vllmLoad));
    routes.set('GET /ping', health);
    routes.set('POST /ping', health);
  }
  return routes;
};

// SGLang lets /health* and /metrics through without the key; vLLM only guards /v1 paths.
const isAuthorized = (config: SimConfig, path: string, header: string | undefined): boolean => {
  if (config.apiKeys.length === 0) return true;
  const guarded =
    config.engine === 'sglang'
      ? !path.startsWith('/health') && !path.startsWith('/metrics')
      : path.startsWith('/v1');
  return !guarded || config.apiKeys.some((key) => header === `Bearer ${key}`);
};

// Creates the server (not yet listening) for one simulated run.
export const createSimServer = (options: {
  config: SimConfig;
  settings: SimSettings;
  sink: SimSink;
  pid: number;
  serverArgs: Record<string, unknown>;
  trace: (event: TraceEvent) => void;
}): SimServer => {
  const { config } = options;
  const log = createServingLog(config.engine, options.sink, options.pid);
  const stats = new ServingStats({
    decodeLogInterval: config.decodeLogInterval,
    draftTokens: config.speculative?.numDraftTokens ?? null,
    onDecodeReport: (report) => {
      log.decode(report);
    },
  });
  const api: ApiContext = {
    config,
    settings: options.settings,
    stats,
    log,
    serverArgs: options.serverArgs,
    created: Math.floor(Date.now() / 1000),
  };
  let state: 'starting' | 'healthy' | 'stopping' = 'starting';
  let flap: readonly number[] | null = null;
  let flapIndex = 0;

  const health: Handler = (_req, res) => {
    let status = state === 'healthy' ? 200 : 503;
    if (state === 'healthy' && flap !== null) {
      status = flap[flapIndex++ % flap.length] ?? 200;
      if (status !== 200) log.healthFailed();
    }
    if (status === 200) options.trace('healthy');
    sendEmpty(res, status);
  };
  const routes = routesFor(config, health);

  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const client = `${(req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '')}:${req.socket.remotePort ?? 0}`;
    res.once('finish', () => {
      log.access(client, req.method ?? 'GET', url, res.statusCode);
    });
    if (!isAuthorized(config, path, req.headers.authorization)) {
      sendJson(res, 401, { error: 'Unauthorized' });
      return;
    }
    const handler = routes.get(`${req.method ?? 'GET'} ${path}`);
    if (handler === undefined) {
      const known = [...routes.keys()].some((key) => key.endsWith(` ${path}`));
      sendJson(res, known ? 405 : 404, { detail: known ? 'Method Not Allowed' : 'Not Found' });
      return;
    }
    Promise.resolve(handler(req, res, api)).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof BadRequest) sendError(res, config.engine, error.status, error.message);
      else sendError(res, config.engine, 500, error instanceof Error ? error.message : String(error));
    });
  });

  return {
    listen: () =>
      new Promise((resolve) => {
        const onError = (error: NodeJS.ErrnoException): void => {
          server.off('listening', onListening);
          resolve(
            BIND_ERRORS[error.code ?? ''] ?? { errno: Math.abs(error.errno ?? 1), reason: error.message },
          );
        };
        const onListening = (): void => {
          server.off('error', onError);
          options.trace('listening');
          resolve(null);
        };
        server.once('error', onError);
        server.once('listening', onListening);
        server.listen({ host: config.host, port: config.port });
      }),
    get listening() {
      return server.listening;
    },
    setHealthy: () => {
      state = 'healthy';
    },
    startFlap: (statuses) => {
      flap = statuses;
    },
    setStopping: () => {
      state = 'stopping';
    },
    close: () =>
      new Promise((resolve) => {
        if (!server.listening) {
          resolve();
          return;
        }
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
};
