// The options of launch() and watch(), their defaults (DESIGN.md "Common options"), and their validation.
import { invalidOption } from '../errors.ts';
import type { EngineChoice } from '../engines/command.ts';

/** Options shared by launch() and watch(). Durations are milliseconds. */
export interface WatchCommonOptions {
  /** `auto` (default) reads the engine from the command; watch() treats `auto` as `generic`. */
  engine?: EngineChoice;
  /** The health URL; one without a path gets the engine's health path appended. */
  url?: string;
  /** The server's port, when the command does not say it. */
  port?: number;
  /** The whole start, counted from spawn (default 60 min). */
  timeoutMs?: number;
  /** Time without progress (default 10 min); needs a followed log. */
  stallTimeoutMs?: number;
  /** Time between probes (default 1 s). */
  intervalMs?: number;
  /** Limit for one probe (default 5 s). */
  probeTimeoutMs?: number;
  /** Healthy answers in a row needed for ready (default 1). */
  successThreshold?: number;
  /** Statuses that count as healthy (default [200]). */
  expectStatus?: readonly number[];
  /** Time between heartbeat events (default 60 s). */
  heartbeatMs?: number;
  /** Ends the watch as interrupted (exit 130). */
  signal?: AbortSignal;
}

// Options of launch(): the shared ones plus what spawning and stopping need.
export interface LaunchOptions extends WatchCommonOptions {
  /** The server command; a leading `vigil sim` runs vigil's own simulator. */
  command: readonly string[];
  /** Where the server's stdout and stderr go (appended); default a new file under the state directory. */
  log?: string;
  /** Variables added to the server's environment. */
  env?: Readonly<Record<string, string>>;
  /** Whether the server inherits vigil's own environment first (default true). */
  inheritEnv?: boolean;
  cwd?: string;
  /** Time between SIGTERM and SIGKILL when stopping (default 10 s). */
  graceMs?: number;
  /** Leave the server running when the start fails. */
  keepOnFailure?: boolean;
  /** Leave the server running when interrupted. */
  detachOnInterrupt?: boolean;
  /** Stop a vigil launch that holds the port first. */
  replace?: boolean;
  /** Check the flags before launching (default true). */
  preflight?: boolean;
  offline?: boolean;
  helpFile?: string;
  strict?: boolean;
  /** Where launch records and logs go (default $XDG_STATE_HOME/vigil). */
  stateDir?: string;
  /** Ends the grace period of a stop at once (a second Ctrl-C). */
  skipGraceSignal?: AbortSignal;
  /** After ready, prove the server generates (src/smoke); a failure ends the start with reason `smoke`. */
  smoke?: { timeoutMs: number };
  /** `[user@]host[:port]`: launch there over SSH (default this machine). */
  host?: string;
  /** How to reach a remote host, and how to prepare its shell. */
  remote?: RemoteOptions;
}

// The remote-host options of launch() (and attach, status, logs, stop through the CLI).
export interface RemoteOptions {
  /** Passed to ssh as -F. */
  sshConfig?: string;
  /** `Key=Value` pairs passed to ssh as -o. */
  sshOptions?: readonly string[];
  connectTimeoutMs?: number;
  /** A shell command run before the server (and before preflight's --help), e.g. `source /opt/venv/bin/activate`. */
  activate?: string;
  /** The shell that runs the launch, e.g. `bash -lc` (default `sh -c`). */
  remoteShell?: string;
}

// Options of watch(): the shared ones plus what vigil can watch of a server it did not start.
export interface WatchOptions extends WatchCommonOptions {
  url: string;
  /** A process to watch: its death fails the start. */
  pid?: number;
  /** The server's log. */
  log?: string;
  /** Read the log from its start (default) or only what is written from now on. */
  logFrom?: 'start' | 'end';
  /** Sent as `Authorization: Bearer` with each probe. */
  apiKey?: string;
  /** `[user@]host[:port]`: the server runs there; the pid, the log and the URL are the host's. */
  host?: string;
  remote?: RemoteOptions;
  /** Where vigil's state (the ssh control socket) lives, for a remote host. */
  stateDir?: string;
}

// The shared options after validation, defaults filled in.
export interface ResolvedCommon {
  engine: EngineChoice;
  url: URL | null;
  port: number | null;
  timeoutMs: number;
  stallTimeoutMs: number;
  intervalMs: number;
  probeTimeoutMs: number;
  successThreshold: number;
  expectStatus: ReadonlySet<number>;
  heartbeatMs: number;
}

// DESIGN.md's defaults, in milliseconds.
export const DEFAULTS = {
  timeoutMs: 60 * 60_000,
  stallTimeoutMs: 10 * 60_000,
  intervalMs: 1000,
  probeTimeoutMs: 5000,
  successThreshold: 1,
  expectStatus: [200],
  heartbeatMs: 60_000,
  graceMs: 10_000,
} as const;

const ENGINES = new Set(['auto', 'sglang', 'vllm', 'tgi', 'generic']);

// Validates and fills in the shared options; throws UsageError naming the option.
export const resolveCommon = (options: WatchCommonOptions): ResolvedCommon => {
  const engine = options.engine ?? 'auto';
  if (!ENGINES.has(engine)) throw invalidOption('engine', 'one of auto, sglang, vllm, generic', engine);
  const expect = options.expectStatus ?? DEFAULTS.expectStatus;
  if (expect.length === 0 || !expect.every((s) => Number.isInteger(s) && s >= 100 && s <= 599)) {
    throw invalidOption('expectStatus', 'HTTP statuses between 100 and 599, e.g. 200,204', expect.join(','));
  }
  return {
    engine,
    url: options.url === undefined ? null : validateUrl(options.url),
    port: options.port === undefined ? null : validatePort(options.port, 'port'),
    timeoutMs: positive(options.timeoutMs, DEFAULTS.timeoutMs, 'timeoutMs'),
    stallTimeoutMs: positive(options.stallTimeoutMs, DEFAULTS.stallTimeoutMs, 'stallTimeoutMs'),
    intervalMs: positive(options.intervalMs, DEFAULTS.intervalMs, 'intervalMs'),
    probeTimeoutMs: positive(options.probeTimeoutMs, DEFAULTS.probeTimeoutMs, 'probeTimeoutMs'),
    successThreshold: atLeastOne(options.successThreshold, DEFAULTS.successThreshold, 'successThreshold'),
    expectStatus: new Set(expect),
    heartbeatMs: positive(options.heartbeatMs, DEFAULTS.heartbeatMs, 'heartbeatMs'),
  };
};

// A URL vigil can probe: http or https, with a host.
export const validateUrl = (text: string, option = 'url'): URL => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidOption(option, 'an http:// or https:// URL such as http://127.0.0.1:30000', text);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw invalidOption(option, 'an http:// or https:// URL such as http://127.0.0.1:30000', text);
  }
  return url;
};

// A TCP port: an integer from 1 to 65535.
export const validatePort = (port: number, option: string): number => {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw invalidOption(option, 'a port from 1 to 65535', port);
  }
  return port;
};

// A positive duration in milliseconds (or zero when `allowZero`).
export const positive = (
  value: number | undefined,
  fallback: number,
  option: string,
  allowZero = false,
): number => {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !allowZero)) {
    throw invalidOption(option, allowZero ? 'a duration of zero or more' : 'a duration above zero', value);
  }
  return value;
};

const atLeastOne = (value: number | undefined, fallback: number, option: string): number => {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw invalidOption(option, 'a whole number of 1 or more', value);
  return value;
};
