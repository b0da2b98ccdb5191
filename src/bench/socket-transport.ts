// The load generator's transport for http:// URLs: HTTP/1.1 over node:net sockets kept alive in a pool, one
// request in flight per socket (no pipelining). Written by hand because the client is what vigil bench measures
// with: node:http's client spent most of a core on its own bookkeeping (vigil bench reached 28.5% of autocannon's
// requests/s on one core, bench/client.ts), and the library that would do this well, undici, is at 8 on npm and
// undici 8 does not run on Node 20 (undici 7 is measured beside this transport by `npm run bench:client`).
import { connect, type Socket } from 'node:net';
import { ProtocolError, ResponseParser } from './http1-response.ts';
import { TransportError, type HttpRequest, type ResponseSink, type Transport } from './transport.ts';

interface Pooled {
  socket: Socket;
  /** The request this socket carries now; null while idle. */
  current: InFlight | null;
}

interface InFlight {
  parser: ResponseParser;
  /** Ends the request: undefined on success, else the error. */
  settle(error?: TransportError): void;
}

interface Waiting {
  request: HttpRequest;
  sink: ResponseSink;
  resolve(): void;
  reject(error: TransportError): void;
}

// One origin's sockets: idle ones to reuse, and requests queued while all `maxSockets` are busy.
interface Origin {
  host: string;
  port: number;
  open: number;
  idle: Pooled[];
  queue: Waiting[];
}

// The bytes of a request, encoded once per (URL object, headers object, method and body) and kept: a load generator
// sends the same few hundred requests over and over, and encoding them was a tenth of its time.
const NO_HEADERS: Record<string, string> = {};
const MAX_KEPT = 4096;
const encoded = new WeakMap<URL, WeakMap<Record<string, string>, Map<string, Buffer>>>();
const requestBytes = (request: HttpRequest): Buffer => {
  const headers = request.headers ?? NO_HEADERS;
  let byHeaders = encoded.get(request.url);
  if (byHeaders === undefined)
    encoded.set(request.url, (byHeaders = new WeakMap<Record<string, string>, Map<string, Buffer>>()));
  let byBody = byHeaders.get(headers);
  if (byBody === undefined) byHeaders.set(headers, (byBody = new Map<string, Buffer>()));
  const key = `${request.method} ${request.body ?? ''}`;
  let bytes = byBody.get(key);
  if (bytes === undefined) {
    let text = `${request.method} ${request.url.pathname}${request.url.search} HTTP/1.1\r\nhost: ${request.url.host}\r\n`;
    for (const name in headers) text += `${name}: ${headers[name] ?? ''}\r\n`;
    if (request.body !== undefined) text += `content-length: ${String(Buffer.byteLength(request.body))}\r\n`;
    bytes = Buffer.from(`${text}\r\n${request.body ?? ''}`, 'utf8');
    if (byBody.size >= MAX_KEPT) byBody.clear();
    byBody.set(key, bytes);
  }
  return bytes;
};

// The requests in flight under each caller's signal: one 'abort' listener per signal, not one per request.
const cancels = new WeakMap<AbortSignal, Set<() => void>>();
const onAbortOf = (signal: AbortSignal, cancel: () => void): (() => void) => {
  let set = cancels.get(signal);
  if (set === undefined) {
    const all = (set = new Set());
    cancels.set(signal, all);
    signal.addEventListener(
      'abort',
      () => {
        for (const one of [...all]) one();
      },
      { once: true },
    );
  }
  set.add(cancel);
  const own = set;
  return () => own.delete(cancel);
};

const CUT = 'the connection closed before the response ended';

// A pool of keep-alive sockets per origin; `maxSockets` per origin.
export const createSocketTransport = (options: { maxSockets?: number } = {}): Transport => {
  const maxSockets = options.maxSockets ?? 256;
  const origins = new Map<string, Origin>();
  let closed = false;

  const originOf = (url: URL): Origin => {
    let origin = origins.get(url.host);
    if (origin === undefined) {
      const host = url.hostname.replace(/^\[|\]$/g, '');
      origin = { host, port: Number(url.port || 80), open: 0, idle: [], queue: [] };
      origins.set(url.host, origin);
    }
    return origin;
  };

  const open = (origin: Origin): Pooled => {
    const socket = connect({ host: origin.host, port: origin.port, noDelay: true });
    const pooled: Pooled = { socket, current: null };
    origin.open++;
    let gone = false;
    const drop = (error: TransportError): void => {
      if (gone) return;
      gone = true;
      origin.open--;
      const at = origin.idle.indexOf(pooled);
      if (at >= 0) origin.idle.splice(at, 1);
      socket.destroy();
      const current = pooled.current;
      pooled.current = null;
      current?.settle(error);
      next(origin);
    };
    socket.on('data', (chunk: Buffer) => {
      const current = pooled.current;
      if (current === null) {
        // Bytes nobody asked for: the socket cannot be trusted with another request.
        drop(new TransportError('connection', 'unexpected bytes on an idle connection'));
        return;
      }
      try {
        current.parser.feed(chunk);
      } catch (error) {
        drop(
          new TransportError(
            current.parser.started ? 'stream_cut' : 'connection',
            error instanceof ProtocolError ? error.message : String(error),
          ),
        );
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const started = pooled.current?.parser.started === true;
      drop(
        new TransportError(
          started ? 'stream_cut' : 'connection',
          started ? CUT : (error.code ?? error.message),
        ),
      );
    });
    socket.on('close', () => {
      // A body that runs to the close ends here (its request is settled by then, so drop only counts the socket).
      const current = pooled.current;
      if (current !== null) current.parser.close();
      drop(
        new TransportError(
          current?.parser.started === true ? 'stream_cut' : 'connection',
          current?.parser.started === true ? CUT : 'the server closed the connection without an answer',
        ),
      );
    });
    // An idle socket the server closes (its keep-alive timeout) leaves the pool at once.
    socket.on('end', () => {
      if (pooled.current === null) drop(new TransportError('connection', 'closed while idle'));
    });
    return pooled;
  };

  // Gives a free socket (idle, or a new one under the limit) to the oldest waiting request.
  const next = (origin: Origin): void => {
    while (origin.queue.length > 0 && !closed) {
      let pooled = origin.idle.pop();
      if (pooled === undefined) {
        if (origin.open >= maxSockets) return;
        pooled = open(origin);
      }
      const waiting = origin.queue.shift();
      if (waiting !== undefined) start(origin, pooled, waiting);
    }
  };

  const start = (origin: Origin, pooled: Pooled, job: Waiting): void => {
    const { request, sink } = job;
    let settled = false;
    let unwatch: (() => void) | null = null;
    let timer: NodeJS.Timeout | null = null;
    const settle = (error?: TransportError): void => {
      if (settled) return;
      settled = true;
      unwatch?.();
      if (timer !== null) clearTimeout(timer);
      if (error === undefined) job.resolve();
      else job.reject(error);
    };
    // Ends the request early; the socket is mid-response, so it cannot be reused and goes.
    const cut = (error: TransportError): void => {
      if (settled) return;
      pooled.current = null;
      settle(error);
      pooled.socket.destroy();
    };
    if (request.signal?.aborted === true) {
      origin.idle.push(pooled);
      settle(new TransportError('aborted', 'the request was aborted'));
      next(origin);
      return;
    }
    if (request.signal !== undefined)
      unwatch = onAbortOf(request.signal, () => {
        cut(new TransportError('aborted', 'the request was aborted'));
      });
    if (request.timeoutMs !== undefined)
      timer = setTimeout(() => {
        cut(new TransportError('timeout', `no complete answer within ${String(request.timeoutMs)} ms`));
      }, request.timeoutMs);
    const parser = new ResponseParser({
      head: (status, contentType) => {
        if (!settled) sink.head(status, contentType);
      },
      data: (chunk) => {
        if (!settled) sink.data(chunk);
      },
      end: (reusable) => {
        pooled.current = null;
        settle();
        if (reusable && !closed && !pooled.socket.destroyed) {
          origin.idle.push(pooled);
          next(origin);
        } else pooled.socket.destroy();
      },
    });
    pooled.current = { parser, settle };
    pooled.socket.write(requestBytes(request));
  };

  return {
    send: (request, sink) =>
      new Promise<void>((resolve, reject) => {
        if (closed) {
          reject(new TransportError('connection', 'the transport is closed'));
          return;
        }
        const origin = originOf(request.url);
        origin.queue.push({ request, sink, resolve, reject });
        next(origin);
      }),
    close: () => {
      closed = true;
      for (const origin of origins.values()) {
        for (const pooled of origin.idle.splice(0)) pooled.socket.destroy();
        for (const waiting of origin.queue.splice(0))
          waiting.reject(new TransportError('aborted', 'the transport was closed'));
      }
    },
  };
};
