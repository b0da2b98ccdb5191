// Which endpoints each simulated engine serves, and its API-key rule (SGLang lets /health* and /metrics through;
// vLLM guards only /v1 paths, as their authentication middlewares do).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimConfig } from '../config.ts';
import { sendEmpty, sendJson, sendText } from './http.ts';
import { sglangMetrics, vllmMetrics } from './metrics.ts';
import { handleGenerate, modelInfo, serverInfo, vllmLoad, vllmVersion } from './native.ts';
import { handleOpenAi, type ApiContext } from './openai.ts';

export type Handler = (req: IncomingMessage, res: ServerResponse, api: ApiContext) => Promise<void> | void;

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

// The route table of one engine, keyed `METHOD /path`; `health` answers /health (and its aliases).
export const routesFor = (config: SimConfig, health: Handler): Map<string, Handler> => {
  const routes = new Map<string, Handler>([
    ['GET /health', health],
    ['GET /v1/models', json(modelList)],
    ['POST /v1/chat/completions', (req, res, api) => handleOpenAi('chat', req, res, api)],
    ['POST /v1/completions', (req, res, api) => handleOpenAi('completion', req, res, api)],
  ]);
  if (config.engine === 'sglang') {
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

// Whether a request may pass the engine's key check.
export const isAuthorized = (config: SimConfig, path: string, header: string | undefined): boolean => {
  if (config.apiKeys.length === 0) return true;
  const guarded =
    config.engine === 'sglang'
      ? !path.startsWith('/health') && !path.startsWith('/metrics')
      : path.startsWith('/v1');
  return !guarded || config.apiKeys.some((key) => header === `Bearer ${key}`);
};
