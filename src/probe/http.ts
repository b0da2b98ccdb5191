// One HTTP health probe: status or error, how long it took, and whether a connection was made at all.
// node:http rather than undici: a probe is one GET whose status is all that matters, and node:http is part of
// Node's snapshot, so a watch does not pay undici's ~200 ms of module loading or its WebAssembly parser.
import { request as httpRequest, type Agent, type IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

// One probe's answer, as the watch loop and the probe event need it.
export interface ProbeResult {
  /** The URL as configured (with `localhost` kept), for display. */
  url: string;
  status: number | null;
  /** An error code such as ECONNREFUSED, ECONNRESET or timeout; null when HTTP answered. */
  error: string | null;
  ms: number;
  /** Whether a TCP connection was made (false for refused or unreachable). */
  connected: boolean;
}

// Limits and extras for one probe.
export interface ProbeOnceOptions {
  timeoutMs: number;
  /** Aborts this probe (a superseded probe, or the watch ending). */
  signal?: AbortSignal;
  headers?: Readonly<Record<string, string>>;
  /** The node:http agent to use; by default each probe opens a connection of its own and closes it. */
  agent?: Agent;
}

// Errors that mean nothing accepted the connection.
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Body bytes read before the connection is dropped: a health answer is small, a page is not worth reading. */
const BODY_LIMIT = 65_536;

const LOOPBACK_FAMILIES = ['127.0.0.1', '[::1]'];
/** How soon a refused loopback family is asked again while the other one hangs. */
const REFUSED_RETRY_MS = 100;

// Probes url once. `localhost` is tried on IPv4 and IPv6 at once (happy eyeballs): a server may bind only one of
// them, and a listener squatting the other must not hold every probe for its whole timeout.
export const probeOnce = async (url: string, options: ProbeOnceOptions): Promise<ProbeResult> => {
  const started = performance.now();
  const parsed = new URL(url);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  if (parsed.hostname !== 'localhost') {
    return requestOnce(url, parsed, parsed.hostname, signal, options, started);
  }
  return new Promise<ProbeResult>((resolve) => {
    const racers = LOOPBACK_FAMILIES.map(() => new AbortController());
    const latest: (ProbeResult | null)[] = LOOPBACK_FAMILIES.map(() => null);
    // Each family is in a request, waiting to ask again, or done.
    const state: ('request' | 'retry' | 'done')[] = LOOPBACK_FAMILIES.map(() => 'request');
    const timers: (NodeJS.Timeout | null)[] = LOOPBACK_FAMILIES.map(() => null);
    let settled = false;
    const inRequestBesides = (i: number): boolean => state.some((s, j) => j !== i && s === 'request');
    const settleIfDone = (): void => {
      if (settled || state.some((s) => s !== 'done')) return;
      settled = true;
      // Without an HTTP answer, the answer that got furthest.
      resolve(
        latest.find((r) => r?.connected === true && r.error !== 'aborted') ?? (latest[0] as ProbeResult),
      );
    };
    const attempt = (i: number): void => {
      state[i] = 'request';
      const own = AbortSignal.any([signal, (racers[i] as AbortController).signal]);
      void requestOnce(url, parsed, LOOPBACK_FAMILIES[i] ?? '', own, options, started).then((result) => {
        latest[i] = result;
        state[i] = 'done';
        if (settled) return;
        // The first HTTP answer wins.
        if (result.status !== null) {
          settled = true;
          timers.forEach((timer) => {
            if (timer !== null) clearTimeout(timer);
          });
          racers.forEach((racer, j) => {
            if (j !== i) racer.abort();
          });
          resolve(result);
          return;
        }
        // Refused here while the other family holds a connection that does not answer (a squatter): the server
        // may bind this family any moment, so ask again rather than wait out the other one's whole timeout.
        if (!result.connected && inRequestBesides(i) && !signal.aborted) {
          state[i] = 'retry';
          timers[i] = setTimeout(() => {
            timers[i] = null;
            if (!settled && !signal.aborted && inRequestBesides(i)) {
              attempt(i);
            } else {
              state[i] = 'done';
              settleIfDone();
            }
          }, REFUSED_RETRY_MS);
          return;
        }
        // This family is done: a refused one waiting to ask again has nothing left to wait for.
        state.forEach((s, j) => {
          const timer = timers[j];
          if (s === 'retry' && timer !== null && timer !== undefined) {
            clearTimeout(timer);
            timers[j] = null;
            state[j] = 'done';
          }
        });
        settleIfDone();
      });
    };
    LOOPBACK_FAMILIES.forEach((_, i) => {
      attempt(i);
    });
  });
};

const requestOnce = async (
  url: string,
  parsed: URL,
  hostname: string,
  signal: AbortSignal,
  options: ProbeOnceOptions,
  started: number,
): Promise<ProbeResult> => {
  try {
    const status = await getStatus(parsed, hostname, signal, options);
    return { url, status, error: null, ms: elapsed(started), connected: true };
  } catch (error) {
    const code = errorCode(error, signal);
    return { url, status: null, error: code, ms: elapsed(started), connected: !NOT_CONNECTED.has(code) };
  }
};

// One GET on a fresh connection (a kept-alive socket from before a restart would fail one probe for nothing);
// resolves with the status once the (bounded) body has been read, so the server sees an orderly close.
const getStatus = async (
  parsed: URL,
  hostname: string,
  signal: AbortSignal,
  options: ProbeOnceOptions,
): Promise<number> => {
  const send = parsed.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  return new Promise<number>((resolve, reject) => {
    const req = send(
      {
        protocol: parsed.protocol,
        host: hostname.replace(/^\[(.*)\]$/, '$1'),
        port: parsed.port === '' ? undefined : Number(parsed.port),
        path: `${parsed.pathname}${parsed.search}`,
        method: 'GET',
        headers: { host: parsed.host, ...options.headers },
        agent: options.agent ?? false,
        signal,
        // TLS names the server the URL names (never an address: SNI carries host names only).
        ...(parsed.protocol === 'https:' && isIP(parsed.hostname) === 0
          ? { servername: parsed.hostname }
          : {}),
      },
      (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        const done = (): void => {
          resolve(status);
        };
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > BODY_LIMIT) {
            response.destroy();
            done();
          }
        });
        response.once('end', done);
        // An answer cut short after its status line still answered: the status stands.
        response.once('error', done);
        response.once('close', done);
      },
    );
    req.once('error', reject);
    req.end();
  });
};

const elapsed = (started: number): number => Math.round((performance.now() - started) * 10) / 10;

// A short stable code for a probe failure.
const errorCode = (error: unknown, signal: AbortSignal): string => {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    return reason instanceof DOMException && reason.name === 'TimeoutError' ? 'timeout' : 'aborted';
  }
  const withCode = error as { code?: unknown; cause?: { code?: unknown } };
  if (typeof withCode.code === 'string') return withCode.code;
  if (typeof withCode.cause?.code === 'string') return withCode.cause.code;
  return error instanceof Error ? error.message : String(error);
};
