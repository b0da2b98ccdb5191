// Small HTTP helpers for the simulated API: JSON bodies in and out, errors in each engine's shape, SSE.
import { simEngineOf } from '../../engines/sim.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimEngine } from '../types.ts';

const MAX_BODY = 16 * 1024 * 1024;

/** A request body that is not the JSON object the endpoint needs. */
export class BadRequest extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

// Reads a request body as a JSON object (an empty body is an empty object).
export const readJson = async (req: IncomingMessage): Promise<Record<string, unknown>> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new BadRequest('request body too large', 413);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadRequest('the request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BadRequest('the request body must be a JSON object');
  }
  return value as Record<string, unknown>;
};

// Sends a JSON response.
export const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

// Sends a response with no body (SGLang's and vLLM's /health).
export const sendEmpty = (res: ServerResponse, status: number): void => {
  res.writeHead(status, { 'content-length': 0 });
  res.end();
};

// Sends plain text (Prometheus metrics).
export const sendText = (
  res: ServerResponse,
  status: number,
  text: string,
  type = 'text/plain; charset=utf-8',
): void => {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

// An OpenAI-style error, in the body shape of the engine.
export const sendError = (res: ServerResponse, engine: SimEngine, status: number, message: string): void => {
  const type = status === 404 ? 'NotFoundError' : status === 401 ? 'AuthenticationError' : 'BadRequestError';
  const info = { message, type, param: null, code: status };
  sendJson(res, status, simEngineOf(engine).errorBody(info));
};

// Starts a server-sent-events response; each `send` writes one `data:` event.
export const startEvents = (res: ServerResponse): { send(data: unknown): void; done(): void } => {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  return {
    send: (data) => {
      res.write(`data: ${JSON.stringify(data)}\n\n`);
    },
    done: () => {
      res.end('data: [DONE]\n\n');
    },
  };
};

// Reads an optional positive integer field; null when absent.
export const readCount = (body: Record<string, unknown>, ...names: string[]): number | null => {
  for (const name of names) {
    const value = body[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw new BadRequest(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
    }
    return value;
  }
  return null;
};
