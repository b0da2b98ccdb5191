// The endpoints a simulated engine serves: the OpenAI ones every engine has, plus its own (from its simulator,
// src/engines/<engine>/sim.ts), and its API-key rule.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimConfig } from '../config.ts';
import { sendJson } from './http.ts';
import { handleOpenAi, type ApiContext } from './openai.ts';
import { simEngineOf } from '../../engines/sim.ts';

export type Handler = (req: IncomingMessage, res: ServerResponse, api: ApiContext) => Promise<void> | void;

export const json =
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
  simEngineOf(config.engine).addRoutes(routes, config, health);
  return routes;
};

// Whether a request may pass the engine's key check.
export const isAuthorized = (config: SimConfig, path: string, header: string | undefined): boolean => {
  if (config.apiKeys.length === 0) return true;
  const guarded = simEngineOf(config.engine).guards(path);
  return !guarded || config.apiKeys.some((key) => header === `Bearer ${key}`);
};
