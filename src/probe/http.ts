// One HTTP health probe: status or error, how long it took, and whether a connection was made at all.
import { Agent, request } from 'undici';

// One probe's answer, as the watch loop and the probe event need it.
export interface ProbeResult {
  /** The URL as configured (with `localhost` kept), for display. */
  url: string;
  status: number | null;
  /** An error code such as ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET or timeout; null when HTTP answered. */
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
  /** The agent to use; vigil's watcher passes its own so no socket outlives the watch. */
  dispatcher?: Agent;
}

// Errors that mean nothing accepted the connection.
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const LOOPBACK_FAMILIES = ['127.0.0.1', '[::1]'];

// Remembers which loopback family answered last, so `localhost` probes go there first.
let preferredLoopback = 0;

// Probes url once; `localhost` is tried on IPv4 and then IPv6, since a server may bind only one of them.
export const probeOnce = async (url: string, options: ProbeOnceOptions): Promise<ProbeResult> => {
  const started = performance.now();
  const parsed = new URL(url);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  const targets = parsed.hostname === 'localhost' ? loopbackTargets(parsed) : [parsed];
  let last: ProbeResult | null = null;
  for (const target of targets) {
    last = await requestOnce(url, target, parsed.host, signal, options, started);
    if (last.connected && targets.length > 1) preferredLoopback = LOOPBACK_FAMILIES.indexOf(target.hostname);
    if (last.connected || signal.aborted) return last;
  }
  return last ?? { url, status: null, error: 'no address', ms: 0, connected: false };
};

const loopbackTargets = (parsed: URL): URL[] => {
  const order = preferredLoopback === 0 ? LOOPBACK_FAMILIES : [...LOOPBACK_FAMILIES].reverse();
  return order.map((host) => {
    const target = new URL(parsed.href);
    target.hostname = host;
    return target;
  });
};

const requestOnce = async (
  url: string,
  target: URL,
  hostHeader: string,
  signal: AbortSignal,
  options: ProbeOnceOptions,
  started: number,
): Promise<ProbeResult> => {
  try {
    const response = await request(target, {
      method: 'GET',
      signal,
      // A fresh connection each time: a kept-alive socket from before a restart would fail one probe for nothing.
      reset: true,
      headers: { host: hostHeader, ...options.headers },
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    });
    await response.body.dump({ signal, limit: 65_536 }).catch(() => undefined);
    return { url, status: response.statusCode, error: null, ms: elapsed(started), connected: true };
  } catch (error) {
    const code = errorCode(error, signal);
    return { url, status: null, error: code, ms: elapsed(started), connected: !NOT_CONNECTED.has(code) };
  }
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
