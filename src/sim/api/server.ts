// The simulated engine's HTTP server: routes per engine, the engine's API-key rule, uvicorn's access log,
// and the health state (503 while warming up or shutting down, 200 when ready, the flap pattern after ready).
import { createServer } from 'node:http';
import type { SimConfig } from '../config.ts';
import type { SimSettings } from '../settings.ts';
import type { TraceEvent } from '../trace.ts';
import type { SimSink } from '../types.ts';
import { BadRequest, sendEmpty, sendError, sendJson } from './http.ts';
import type { ApiContext } from './openai.ts';
import { isAuthorized, routesFor, type Handler } from './routes.ts';
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

// What uvicorn reports when another process holds the port.
export const ADDRESS_IN_USE: BindError = { errno: 98, reason: 'address already in use' };

const BIND_ERRORS: Record<string, BindError> = {
  EADDRINUSE: { errno: 98, reason: 'address already in use' },
  EADDRNOTAVAIL: { errno: 99, reason: 'cannot assign requested address' },
  EACCES: { errno: 13, reason: 'permission denied' },
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
    // The trace's `healthy` is the switch itself: from this instant every /health request gets 200.
    setHealthy: () => {
      state = 'healthy';
      options.trace('healthy');
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
