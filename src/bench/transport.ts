// How smoke tests and the load generator reach a server: one small interface, so a remote host can later
// supply its own (a port forward or a request made from the host's side) without touching the callers.
import http from 'node:http';
import https from 'node:https';

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers?: Record<string, string>;
  body?: string;
  /** Aborting ends the request at once; the promise then rejects with kind `aborted`. */
  signal?: AbortSignal;
  /**
   * A limit for the whole request, body included; past it the request ends with kind `timeout`. A number rather
   * than an AbortSignal: a load generator would otherwise make a controller and listeners for every request.
   */
  timeoutMs?: number;
}

/** Sees the response as it arrives: the head once, then each body chunk. */
export interface ResponseSink {
  head(status: number, contentType: string): void;
  data(chunk: Buffer): void;
}

export type TransportErrorKind = 'connection' | 'stream_cut' | 'aborted' | 'timeout';

// A request that did not complete: no connection, a body cut short, an abort, or its time limit.
export class TransportError extends Error {
  constructor(
    readonly kind: TransportErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

export interface Transport {
  /** Sends one request; resolves once the whole body was handed to `sink`, rejects with a TransportError. */
  send(request: HttpRequest, sink: ResponseSink): Promise<void>;
  /** Closes idle pooled connections. */
  close(): void;
}

// The parts of a URL node:http needs, worked out once per URL object.
const targets = new WeakMap<URL, { hostname: string; port: string; path: string; protocol: string }>();
const target = (url: URL): { hostname: string; port: string; path: string; protocol: string } => {
  let found = targets.get(url);
  if (found === undefined) {
    found = {
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port,
      path: `${url.pathname}${url.search}`,
    };
    targets.set(url, found);
  }
  return found;
};

// node:http over a keep-alive pool: the transport for https:// URLs (http:// goes over src/bench/socket-transport.ts,
// which bench/client.ts measured several times cheaper per request).
export const createHttpTransport = (options: { maxSockets?: number } = {}): Transport => {
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 256,
    scheduling: 'fifo' as const,
  };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  return {
    send: (request, sink) =>
      new Promise<void>((resolve, reject) => {
        const secure = request.url.protocol === 'https:';
        const headers: Record<string, string | number> = { ...request.headers };
        if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body);
        const req = (secure ? https : http).request({
          ...target(request.url),
          method: request.method,
          headers,
          agent: secure ? agents.https : agents.http,
        });
        let settled = false;
        const timer =
          request.timeoutMs === undefined
            ? null
            : setTimeout(() => {
                fail(
                  new TransportError('timeout', `no complete answer within ${String(request.timeoutMs)} ms`),
                );
              }, request.timeoutMs);
        const fail = (error: TransportError): void => {
          if (settled) return;
          settled = true;
          if (timer !== null) clearTimeout(timer);
          request.signal?.removeEventListener('abort', onAbort);
          req.destroy();
          reject(error);
        };
        const onAbort = (): void => {
          fail(new TransportError('aborted', 'the request was aborted'));
        };
        if (request.signal?.aborted === true) {
          onAbort();
          return;
        }
        request.signal?.addEventListener('abort', onAbort, { once: true });
        req.on('error', (error: NodeJS.ErrnoException) => {
          fail(new TransportError('connection', error.code ?? error.message));
        });
        req.on('response', (res) => {
          sink.head(res.statusCode ?? 0, res.headers['content-type'] ?? '');
          res.on('data', (chunk: Buffer) => {
            if (!settled) sink.data(chunk);
          });
          res.on('end', () => {
            if (settled) return;
            settled = true;
            if (timer !== null) clearTimeout(timer);
            request.signal?.removeEventListener('abort', onAbort);
            resolve();
          });
          // The socket closed before the body's end: the server died or cut the stream.
          res.on('error', () => {
            fail(new TransportError('stream_cut', 'the connection closed before the response ended'));
          });
          res.on('close', () => {
            if (!res.complete)
              fail(new TransportError('stream_cut', 'the connection closed before the response ended'));
          });
        });
        req.end(request.body);
      }),
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
};
