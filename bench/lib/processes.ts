// Starting and ending the processes of one benchmark trial; each gets its own session and process group.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { launchedPgid } from './vigil-output.ts';

export interface Started {
  child: ChildProcess;
  /** Wall-clock ms just before spawn. */
  startedAt: number;
  /** Resolves when the process exits: wall-clock ms of the exit event, code and signal. */
  exited: Promise<Exit>;
  /** What it wrote to stdout and stderr, when they are captured. */
  stdout: () => string;
  /** Wall-clock ms when captured output first contained `text`, or null. */
  firstSeen: (text: string) => number | null;
}

export interface Exit {
  t: number;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  /** Send stdout and stderr to this file (opened for append) instead of capturing stdout. */
  logFile?: string;
  cwd?: string;
}

// Everything started, so that a harness stopped by a signal stops it too: its trials' `finally` blocks do not run
// then, and a trial's server (or the server a vigil under test launched) would be left running.
const running = new Set<Started>();
const stopAllOnSignal = (signal: NodeJS.Signals): void => {
  process.once(signal, () => {
    for (const started of running) {
      killGroup(started.child.pid);
      killGroup(launchedPgid(started.stdout()));
    }
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  });
};
stopAllOnSignal('SIGINT');
stopAllOnSignal('SIGTERM');

// Spawns argv in a new session (so a whole group can be killed) and times its exit.
export const start = (argv: readonly string[], options: StartOptions = {}): Started => {
  const [command, ...args] = argv;
  if (command === undefined) throw new Error('empty command');
  const fd = options.logFile === undefined ? null : openSync(options.logFile, 'a');
  const startedAt = Date.now();
  const child = spawn(command, args, {
    detached: true,
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: fd === null ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
  });
  if (fd !== null) closeSync(fd);
  const out: string[] = [];
  const arrivals: number[] = [];
  const capture = (chunk: string): void => {
    out.push(chunk);
    arrivals.push(Date.now());
  };
  child.stdout?.setEncoding('utf8').on('data', capture);
  child.stderr?.setEncoding('utf8').on('data', capture);
  const firstSeen = (text: string): number | null => {
    const index = out.findIndex((chunk) => chunk.includes(text));
    return index === -1 ? null : (arrivals[index] ?? null);
  };
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve({ t: Date.now(), code, signal });
    });
    child.once('error', () => {
      resolve({ t: Date.now(), code: null, signal: null });
    });
  });
  const started = { child, startedAt, exited, stdout: () => out.join(''), firstSeen };
  // Its group may outlive the leader (a server's children, a vigil's launch): it stays listed until killGroup ends it.
  running.add(started);
  return started;
};

// Waits for the exit, at most capMs; null means the cap was hit.
export const exitWithin = async (started: Started, capMs: number): Promise<Exit | null> => {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<null>((resolve) => {
    timer = setTimeout(resolve, capMs, null);
  });
  try {
    return await Promise.race([started.exited, cap]);
  } finally {
    clearTimeout(timer);
  }
};

// SIGKILLs a process group; a group that is already gone is fine.
export const killGroup = (pgid: number | undefined): void => {
  if (pgid === undefined || pgid <= 0) return;
  // Ended groups leave the list, so a signal later never reaches a group id the system has since reused.
  for (const started of running) if (started.child.pid === pgid) running.delete(started);
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Already gone.
  }
};
