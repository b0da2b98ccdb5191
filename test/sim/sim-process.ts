// Test support: run the built `vigil sim` as a real process (own process group, output to one log file the
// way `vigil up` captures it), probe it over loopback, and clean everything up after each test.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = join(ROOT, 'bin', 'vigil.js');

// dist/ is built by the global setup when src/ is newer; the helpers' own check is kept for callers outside vitest's
// setup, and it is the one in test/helpers/build.ts.
export { ensureBuilt } from '../helpers/build.ts';

export { freePort } from '../helpers/ports.ts';

export interface SimProcess {
  child: ChildProcess;
  pid: number;
  dir: string;
  logPath: string;
  tracePath: string;
  /** Everything the process wrote so far (stdout and stderr interleaved, as in a log file). */
  log(): string;
  /** Resolves with how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: SimProcess[] = [];

// Starts `vigil sim <engine> -- <args>` at time scale 0.01 unless the env says otherwise.
export const startSim = (
  engine: 'sglang' | 'vllm',
  args: string[],
  env: Record<string, string> = {},
): SimProcess => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-sim-test-'));
  const logPath = join(dir, 'server.log');
  const tracePath = join(dir, 'trace.jsonl');
  const fd = openSync(logPath, 'a');
  const child = spawn(process.execPath, [ENTRY, 'sim', engine, '--', ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      VIGIL_SIM_TIME_SCALE: '0.002',
      VIGIL_SIM_TRACE: tracePath,
      COLUMNS: '100',
      ...env,
    },
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  closeSync(fd);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
    });
  });
  const sim: SimProcess = {
    child,
    pid: child.pid ?? 0,
    dir,
    logPath,
    tracePath,
    log: () => readFileSync(logPath, 'utf8'),
    exited,
  };
  started.push(sim);
  return sim;
};

// Runs `vigil sim` to completion with piped output (for commands that end at once).
export const runSimSync = (
  args: string[],
  env: Record<string, string> = {},
): { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } => {
  const result = spawnSync(process.execPath, [ENTRY, 'sim', ...args], {
    cwd: ROOT,
    env: { ...process.env, VIGIL_SIM_TIME_SCALE: '0.002', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
};

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// Kills one simulated server's whole process group (workers included) and removes its directory.
export const stopSim = async (sim: SimProcess): Promise<void> => {
  const index = started.indexOf(sim);
  if (index !== -1) started.splice(index, 1);
  try {
    process.kill(-sim.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
  await Promise.race([sim.exited, sleep(5000)]);
  rmSync(sim.dir, { recursive: true, force: true });
};

// Kills every process group started by startSim and removes its directory (call from afterEach).
export const cleanUpSims = async (): Promise<void> => {
  await Promise.all([...started].map((sim) => stopSim(sim)));
};

// Polls until `check` returns a value other than undefined/false, or fails after `timeoutMs`.
export const waitFor = async <T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
};

// Waits for a log line matching `pattern`; returns the whole log at that moment.
export const waitForLog = (sim: SimProcess, pattern: RegExp, timeoutMs?: number): Promise<string> =>
  waitFor(
    `a log line matching ${String(pattern)}`,
    () => {
      const log = sim.log();
      return pattern.test(log) ? log : undefined;
    },
    timeoutMs,
  );

/** One HTTP answer, or null status when nothing answered (refused, reset). */
export interface Probe {
  status: number | null;
  body: string;
}

// One GET/POST over loopback with a short timeout; never throws.
export const request = async (
  port: number,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Probe> => {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { 'content-type': 'application/json', ...init.headers },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, body: await response.text() };
  } catch {
    return { status: null, body: '' };
  }
};

// Live (non-zombie) pids whose /proc stat field matches: index 1 is the parent pid, 2 the process group.
const pidsWhere = (field: 1 | 2, value: number): number[] => {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z' && Number(fields[field]) === value) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
};

// Pids whose parent is `pid` (Linux /proc), e.g. the simulated engine's workers.
export const childPids = (pid: number): number[] => pidsWhere(1, pid);

// Pids still in process group `pgid` (workers outlive a SIGKILLed leader there).
export const groupPids = (pgid: number): number[] => pidsWhere(2, pgid);

// The command line a process shows (its title, for the simulated workers).
export const commandLine = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
};

export { isAlive };

// The trace events written so far.
export const readTrace = (
  sim: SimProcess,
): { event: string; t: number; code?: number; signal?: string }[] => {
  if (!existsSync(sim.tracePath)) return [];
  return readFileSync(sim.tracePath, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { event: string; t: number; code?: number; signal?: string });
};

// Whether the patterns appear in this order in `text`; returns the first one missing, or null.
export const missingInOrder = (text: string, patterns: readonly RegExp[]): RegExp | null => {
  let from = 0;
  for (const pattern of patterns) {
    const match = pattern.exec(text.slice(from));
    if (match === null) return pattern;
    from += match.index + match[0].length;
  }
  return null;
};
