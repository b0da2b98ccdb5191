// Shared by the fault suite: what every failed start must look like, and read-only folders made with a real mount.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { VigilRun } from '../helpers/cli.ts';
import { ensureBuilt } from '../helpers/build.ts';

// Builds dist/ before the first case, so no case's own time limit pays for the build.
// It also starts the load sampler that the time bounds read; stopSampling() stops it after the file's cases (a Node
// start a second would otherwise go on loading the machine for the rest of the suite).
export const buildOnce = (): void => {
  ensureBuilt();
  loadSampler ??= setInterval(sampleNodeStart, SAMPLE_EVERY_MS).unref();
};

export const stopSampling = (): void => {
  clearInterval(loadSampler);
  loadSampler = undefined;
};

const mounts: string[] = [];

// A folder whose filesystem refuses writes: a tmpfs remounted read-only when vigil runs as root (chmod does not
// stop root), a folder without write permission otherwise. unmountAll() removes the mounts.
export const readOnlyDir = (parent: string): string => {
  const dir = join(parent, 'ro');
  mkdirSync(dir);
  if (process.getuid?.() === 0) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
    mounts.push(dir);
    execFileSync('mount', ['-o', 'remount,ro', dir]);
  } else {
    chmodSync(dir, 0o500);
  }
  return dir;
};

// A small tmpfs of `size` (e.g. 256k), for disk-full cases; unmountAll() removes it.
export const smallTmpfs = (dir: string, size: string): void => {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
  mounts.push(dir);
};

export const unmountAll = (): void => {
  for (const dir of mounts.splice(0).reverse()) {
    try {
      execFileSync('umount', ['-l', dir]);
    } catch {
      // already gone
    }
  }
};

/** The fault suite's bound: from the fault (or the command's start, when the fault is there from the start) to
 * vigil's exit. docs/faults.md promises an end within 5 s of a fault. */
export const FAULT_BOUND_MS = 5000;

// The promise holds on a machine that keeps up. On a loaded one (the suite's own processes on 2 cores) every process
// starts slower, and a fault path starts a few (vigil, the server, a --help probe, the stop's checks): the bound grows
// by what starting Node cost while the case ran, for each of them. Idle, that is about a quarter of a second. The load
// comes and goes, so it is sampled through the run (a Node start a second) and the slowest start in the
// run's span counts; a sample taken after the run alone could miss the load the run met.
const PROCESSES_ON_A_FAULT_PATH = 6;
const SAMPLE_EVERY_MS = 1000;
const samples: { endedAt: number; ms: number }[] = [];
let loadSampler: NodeJS.Timeout | undefined;
function sampleNodeStart(): void {
  const started = performance.now();
  execFile(process.execPath, ['-e', '0'], () => {
    samples.push({ endedAt: Date.now(), ms: performance.now() - started });
    if (samples.length > 1000) samples.splice(0, 500);
  });
}
const nodeStartMs = (): number => {
  const started = performance.now();
  execFileSync(process.execPath, ['-e', '0']);
  return performance.now() - started;
};
const faultBoundMs = (took: number, from: number, to: number): number => {
  // Within the idle bound, the load cannot matter.
  if (took < FAULT_BOUND_MS) return FAULT_BOUND_MS;
  // A sample ends up to one Node start after the span it measured.
  const during = samples.filter((sample) => sample.endedAt >= from && sample.endedAt - sample.ms <= to);
  const slowest = Math.max(nodeStartMs(), ...during.map((sample) => sample.ms));
  return FAULT_BOUND_MS + PROCESSES_ON_A_FAULT_PATH * slowest;
};

// How a fault-suite case must end.
export interface Ending {
  /** The documented exit code. */
  code: number;
  /** The one clear message: in jsonl, the final event's summary or message; otherwise a line of the output. */
  message: RegExp;
  /** The final jsonl event: `failed` (the default), `ready` where vigil rides the fault out, or null for a command
   * that reports rather than starts or watches (check, diagnose). */
  final?: 'failed' | 'ready' | null;
  /** When the fault happened (Date.now()); by default, when the command started. */
  faultAt?: number;
  /** The run's end, for a command run in-process (runMain): by default the run's own endedAt. */
  endedAt?: number;
}

const isJsonl = (args: readonly string[]): boolean =>
  args.some((arg, i) => arg === '--output' && args[i + 1] === 'jsonl');

// Every fault-suite case ends this way: the exit code, one clear message without a stack trace, vigil gone within
// FAULT_BOUND_MS of the fault, and in jsonl nothing after the final `failed` (or `ready`) event.
export const expectEnding = (run: VigilRun, ending: Ending): void => {
  const text = `${run.stdout}${run.stderr}`;
  expect(run.code, text).toBe(ending.code);
  // vigil's own stack would go to stderr; a server's traceback quoted as evidence on stdout is fine.
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(text).not.toMatch(/internal error/);
  // One clear message: an error is said once, not repeated or followed by a second one.
  expect(run.stderr.match(/^vigil: /gm)?.length ?? 0, run.stderr).toBeLessThanOrEqual(1);
  const from = ending.faultAt ?? run.startedAt;
  const to = ending.endedAt ?? run.endedAt;
  const took = to - from;
  const bound = faultBoundMs(took, from, to);
  expect(took, `ended ${String(took)} ms after the fault (bound ${bound.toFixed(0)} ms)`).toBeLessThan(bound);
  if (!isJsonl(run.args)) {
    expect(text).toMatch(ending.message);
    return;
  }
  const last = run.events.at(-1);
  if (ending.final !== null) expect(last?.type, text).toBe(ending.final ?? 'failed');
  if (last?.type === 'failed') {
    expect(last.exit_code).toBe(ending.code);
    expect(`${last.diagnosis.summary} ${last.message ?? ''}`).toMatch(ending.message);
  } else {
    expect(text).toMatch(ending.message);
  }
};

// Runs the same command in each output mode at once (they share nothing), in the order given.
export const inEveryMode = async <T = VigilRun>(
  modes: readonly string[],
  run: (mode: string) => Promise<T>,
): Promise<T[]> => await Promise.all(modes.map(run));
