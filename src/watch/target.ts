// Where and how to probe a server, and what counts as ready (docs/readiness.md).
import { UsageError } from '../errors.ts';
import type { ServerCommand } from '../engines/command.ts';
import type { EngineSpec } from '../engines/types.ts';

// What the loop probes and what readiness needs.
export interface ProbeTarget {
  /** The health URL probed, or null when the server serves no API (SGLang node rank ≥ 1). */
  healthUrl: string | null;
  /** The server's origin, e.g. http://127.0.0.1:30000, for the ready event. */
  origin: string | null;
  headers: Record<string, string>;
  /** The engine's decisive ready line must appear (a log is followed and the engine has one). */
  needReadyLine: boolean;
  /** Only the process and the log are watched (SGLang node rank ≥ 1). */
  noApi: boolean;
  /** Where to test-bind before spawning, when vigil knows. */
  bind: { host: string; port: number } | null;
  /** The health URL is cheap to probe quickly (it runs no generation). */
  fastProbe: boolean;
}

// What the target is resolved from.
export interface TargetInput {
  spec: EngineSpec;
  /** What the command told vigil (launch only). */
  command: ServerCommand | null;
  url: URL | null;
  port: number | null;
  /** Whether a log is followed: decides the SGLang health path and the ready-line rule. */
  followsLog: boolean;
  apiKey: string | null;
}

// Resolves the probe target; throws UsageError when vigil cannot tell where the server listens.
export const resolveTarget = (input: TargetInput): ProbeTarget => {
  const { spec, command } = input;
  const healthPath = input.followsLog ? spec.healthPath : spec.healthPathWithoutLog;
  const headers: Record<string, string> =
    input.apiKey === null ? {} : { authorization: `Bearer ${input.apiKey}` };
  const needReadyLine = input.followsLog && spec.readyLine !== null;
  const port = input.port ?? command?.port ?? null;
  const bindHost = command?.bindHost ?? null;
  const bind = bindTarget(bindHost, port, input.url);
  if (spec.servesNoApi?.({ nodeRank: command?.nodeRank ?? 0 }) === true) {
    return {
      healthUrl: null,
      origin: null,
      headers,
      needReadyLine: false,
      noApi: true,
      bind: null,
      fastProbe: false,
    };
  }
  if (input.url !== null) {
    const url = new URL(input.url.href);
    if (url.pathname === '/' && url.search === '') url.pathname = healthPath;
    return {
      healthUrl: url.href,
      origin: url.origin,
      headers,
      needReadyLine,
      noApi: false,
      bind,
      fastProbe: isCheap(spec, url.pathname),
    };
  }
  if (port === null) {
    throw new UsageError('cannot tell which port the server listens on', {
      option: '--url',
      hint: 'vigil does not recognise this command (engine generic): pass --url URL or --port N',
    });
  }
  const origin = `http://${probeHost(bindHost)}:${port}`;
  return {
    healthUrl: `${origin}${healthPath}`,
    origin,
    headers,
    needReadyLine,
    noApi: false,
    bind,
    fastProbe: isCheap(spec, healthPath),
  };
};

// Whether a health path answers without generating (the engine lists the ones that generate).
export const isCheap = (spec: EngineSpec, path: string): boolean =>
  !(spec.generatingHealthPaths ?? []).includes(path.replace(/\/+$/, '') || '/');

// The loopback address to probe for a bind address: 0.0.0.0 → 127.0.0.1, :: → [::1].
export const probeHost = (bindHost: string | null): string => {
  if (bindHost === null || bindHost === '' || bindHost === '0.0.0.0') return '127.0.0.1';
  const bare = bindHost.replace(/^\[(.*)\]$/, '$1');
  if (bare === '::') return '[::1]';
  return bare.includes(':') ? `[${bare}]` : bare;
};

// The address the server will bind, for the test-bind; none for a URL that points elsewhere.
const bindTarget = (bindHost: string | null, port: number | null, url: URL | null): ProbeTarget['bind'] => {
  if (port === null) {
    if (url === null || !isLocalHost(url.hostname)) return null;
    const urlPort = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    return { host: bindAll(url.hostname), port: urlPort };
  }
  if (bindHost !== null) return { host: bindHost.replace(/^\[(.*)\]$/, '$1'), port };
  return { host: '0.0.0.0', port };
};

const LOCAL = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0', '[::]']);
const isLocalHost = (hostname: string): boolean => LOCAL.has(hostname) || hostname.startsWith('127.');

// A server probed through a loopback URL may bind anything; binding every IPv4 address catches each conflict.
const bindAll = (hostname: string): string => (hostname.startsWith('[') ? '::' : '0.0.0.0');
