// The options of launch() and watch(): each one's default, range and error message, defined once (docs/cli.md
// "Common options"). The library validates with these definitions; the CLI builds its options from them
// (src/cli/watch-options.ts), so both accept the same values and say the same thing about a bad one.
import { invalidOption } from '../errors.ts';
import { parseDuration } from '../config/duration.ts';
import type { EngineChoice } from '../engines/command.ts';
import { ENGINE_IDS } from '../engines/ids.ts';

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
  /** Put a local server in its own cgroup v2 where the system allows (default true unless VIGIL_NO_CGROUP=1);
   * false stops it through its session, process group and VIGIL_LAUNCH_ID marker only (docs/faults.md). */
  cgroup?: boolean;
  /** Emit notices that only matter when looking into vigil itself (how the launch's processes are tracked). */
  debug?: boolean;
  /** Check the flags before launching (default true). */
  preflight?: boolean;
  offline?: boolean;
  helpFile?: string;
  strict?: boolean;
  /** Check the flags and read the log with this engine release's rules instead of detecting the release. */
  engineVersion?: string;
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

/** One option: its CLI flag and help, its default, and its check for a library value and for typed text. */
export interface OptionSpec<T> {
  flag: string;
  /** Commander's value placeholder, e.g. `<duration>`. */
  placeholder: string;
  description: string;
  default: T;
  /** The default as the help shows it (and as it would be typed). */
  defaultText: string;
  /** Checks a library value; throws UsageError naming `name`. */
  check(value: unknown, name: string): T;
  /** Parses and checks what was typed after the flag; throws UsageError naming `name`. */
  parse(text: string, name: string): T;
}

// A timer holds at most 2^31-1 ms (about 24.8 days): Node fires a longer one after 1 ms, with a warning.
export const MAX_DURATION_MS = 2 ** 31 - 1;
const MAX_DURATION_TEXT = '596h';

// Defines a duration option; `typed` is the text the value was parsed from (the CLI), absent for a library value.
const duration = (
  flag: string,
  description: string,
  defaultText: string,
  { allowZero = false }: { allowZero?: boolean } = {},
): OptionSpec<number> => {
  const min = allowZero ? 0 : 1;
  const check = (value: unknown, name: string, typed?: string): number => {
    if (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= MAX_DURATION_MS)
      return value;
    const tooLong = typeof value === 'number' && value > MAX_DURATION_MS;
    throw invalidOption(
      name,
      typed === undefined
        ? `milliseconds from ${min} to ${MAX_DURATION_MS} (${MAX_DURATION_TEXT})`
        : `a duration from ${allowZero ? '0s' : '1ms'} to ${MAX_DURATION_TEXT}, such as 500ms, 10s, 15m or 1h`,
      typed ?? value,
      tooLong ? `a timer holds at most ${MAX_DURATION_TEXT} (about 24 days)` : undefined,
    );
  };
  return spec({
    flag,
    placeholder: '<duration>',
    description,
    default: parseDuration(defaultText),
    defaultText,
    check: (value, name) => check(value, name),
    parse: (text, name) => check(parseDuration(text, name), name, text),
  });
};

const spec = <T>(definition: OptionSpec<T>): OptionSpec<T> => definition;

/** A duration typed after an option of another concern (e.g. --connect-timeout): same range, same message. */
export const parseDurationOption = (text: string, name: string, allowZero = false): number =>
  duration(name, '', '1s', { allowZero }).parse(text, name);

const PORT_EXPECTED = 'a port number from 1 to 65535';

/** A TCP port: a whole number from 1 to 65535. */
export const checkPort = (value: unknown, name: string, got: unknown = value): number => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535)
    throw invalidOption(name, PORT_EXPECTED, got);
  return value;
};

const wholeText = (text: string): number | null => (/^\d+$/.test(text.trim()) ? Number(text) : null);

const STATUSES_EXPECTED = 'a comma list of HTTP statuses from 100 to 599, e.g. 200 or 200,204';
const checkStatuses = (value: unknown, name: string, typed?: string): number[] => {
  const list = Array.isArray(value) ? (value as unknown[]) : [];
  if (
    list.length === 0 ||
    !list.every((s) => typeof s === 'number' && Number.isInteger(s) && s >= 100 && s <= 599)
  )
    throw invalidOption(name, STATUSES_EXPECTED, typed ?? (Array.isArray(value) ? value.join(',') : value));
  return list as number[];
};

const ENGINE_CHOICES: readonly EngineChoice[] = ['auto', ...ENGINE_IDS];
/** The engines of the registry, for help texts: `sglang, vllm, tgi, generic`. */
export const ENGINE_NAMES = ENGINE_IDS.join(', ');
const ENGINE_EXPECTED = `one of ${ENGINE_CHOICES.join(', ')}`;
const checkEngine = (value: unknown, name: string): EngineChoice => {
  if (typeof value !== 'string' || !(ENGINE_CHOICES as readonly string[]).includes(value))
    throw invalidOption(name, ENGINE_EXPECTED, value);
  return value as EngineChoice;
};

const COUNT_EXPECTED = 'a whole number of 1 or more';
const checkCount = (value: unknown, name: string, got: unknown = value): number => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw invalidOption(name, COUNT_EXPECTED, got);
  return value;
};

// Every option launch() and watch() share (plus launch()'s grace), keyed by its library name.
export const OPTION_SPECS = {
  engine: spec<EngineChoice>({
    flag: '--engine',
    placeholder: '<engine>',
    description: `${ENGINE_NAMES} or auto (reads the command)`,
    default: 'auto',
    defaultText: 'auto',
    check: checkEngine,
    parse: (text, name) => checkEngine(text, name),
  }),
  port: spec<number | null>({
    flag: '--port',
    placeholder: '<n>',
    description: "the server's port, when the command does not say it",
    default: null,
    defaultText: '',
    check: (value, name) => checkPort(value, name),
    parse: (text, name) => checkPort(wholeText(text), name, text),
  }),
  timeoutMs: duration('--timeout', 'the whole start, counted from spawn', '60m'),
  stallTimeoutMs: duration('--stall-timeout', 'time without progress in the log', '10m'),
  intervalMs: duration('--interval', 'time between probes', '1s'),
  probeTimeoutMs: duration('--probe-timeout', 'limit for one probe', '5s'),
  successThreshold: spec<number>({
    flag: '--success-threshold',
    placeholder: '<n>',
    description: 'healthy answers in a row needed for ready',
    default: 1,
    defaultText: '1',
    check: (value, name) => checkCount(value, name),
    parse: (text, name) => checkCount(wholeText(text), name, text),
  }),
  expectStatus: spec<number[]>({
    flag: '--expect-status',
    placeholder: '<list>',
    description: 'statuses that count as healthy, a comma list',
    default: [200],
    defaultText: '200',
    check: checkStatuses,
    parse: (text, name) =>
      checkStatuses(
        text.split(',').map((part) => (/^\s*\d{3}\s*$/.test(part) ? Number(part) : Number.NaN)),
        name,
        text,
      ),
  }),
  heartbeatMs: duration('--heartbeat', 'time between heartbeats', '60s'),
  graceMs: duration('--grace', 'time between SIGTERM and SIGKILL when stopping', '10s', { allowZero: true }),
} as const;

// A library value checked against its definition, or the default when it is not given.
export const resolveOption = <K extends keyof typeof OPTION_SPECS>(
  key: K,
  value: unknown,
): (typeof OPTION_SPECS)[K]['default'] =>
  value === undefined ? OPTION_SPECS[key].default : OPTION_SPECS[key].check(value, key);

// Validates and fills in the shared options; throws UsageError naming the option.
export const resolveCommon = (options: WatchCommonOptions): ResolvedCommon => ({
  engine: resolveOption('engine', options.engine),
  url: options.url === undefined ? null : validateUrl(options.url),
  port: resolveOption('port', options.port),
  timeoutMs: resolveOption('timeoutMs', options.timeoutMs),
  stallTimeoutMs: resolveOption('stallTimeoutMs', options.stallTimeoutMs),
  intervalMs: resolveOption('intervalMs', options.intervalMs),
  probeTimeoutMs: resolveOption('probeTimeoutMs', options.probeTimeoutMs),
  successThreshold: resolveOption('successThreshold', options.successThreshold),
  expectStatus: new Set(resolveOption('expectStatus', options.expectStatus)),
  heartbeatMs: resolveOption('heartbeatMs', options.heartbeatMs),
});

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
