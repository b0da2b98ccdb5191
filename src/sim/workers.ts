// The simulated engine's worker processes (per rank, plus the engine's helpers; each engine names its own in
// src/engines/<engine>/sim.ts). Like the real ones they outlive a SIGKILLed parent, which
// is what vigil's process-group kill is for, and they exit on SIGTERM or SIGINT.
import { spawn, type ChildProcess } from 'node:child_process';
import type { SimEngine, SimWorker } from './types.ts';
import { simEngineOf } from '../engines/sim.ts';

export interface WorkerPool {
  readonly workers: readonly SimWorker[];
  /** Resolves once every worker has taken its title (or exited), at most after a few seconds. */
  readonly started: Promise<void>;
  /** Sends one worker a signal (SIGKILL for a peer rank that dies). */
  signal(role: string, signal: NodeJS.Signals): void;
  /** SIGTERM to every worker, then SIGKILL to any still alive after `graceMs`; resolves when all are gone. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL to every worker at once (as an engine's kill-the-process-tree does). */
  killAll(): void;
}

// The worker roles of a run, named as the engines name their processes.
export const workerRoles = (engine: SimEngine, tpSize: number): string[] =>
  simEngineOf(engine).workerRoles(tpSize);

// The process title a worker gives itself (what `ps` shows).
export const workerTitle = (engine: SimEngine, role: string): string => simEngineOf(engine).workerTitle(role);

/** The longest a run waits for its workers to report in. */
const WORKER_START_MS = 5000;

const isAlive = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null;

const waitForExit = (child: ChildProcess, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    if (!isAlive(child)) {
      resolve(true);
      return;
    }
    const onExit = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, ms);
    child.once('exit', onExit);
  });

// The body of a worker process: take the engine's process title (its one argument) and live until signalled. A
// bare `node -e` script, not `vigil sim --worker`, because loading vigil's CLI tripled each worker's start-up CPU,
// and a run starts one worker per rank. SIGTERM and SIGINT keep Node's default action (exit).
const WORKER_SOURCE =
  "process.title = process.argv[1]; process.stdout.write('up\\n'); setInterval(() => {}, 2 ** 30);";

// Starts the workers in the caller's process group.
export const spawnWorkers = (engine: SimEngine, tpSize: number): WorkerPool => {
  const children = new Map<string, ChildProcess>();
  for (const role of workerRoles(engine, tpSize)) {
    const args = ['-e', WORKER_SOURCE, workerTitle(engine, role)];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    child.on('error', () => undefined);
    children.set(role, child);
  }
  // A real engine goes on only once its workers report in: each one says so on stdout after taking its title.
  const started = Promise.all(
    [...children.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          const done = (): void => {
            clearTimeout(timer);
            child.stdout?.destroy();
            resolve();
          };
          const timer = setTimeout(done, WORKER_START_MS);
          child.stdout?.once('data', done);
          child.once('exit', done);
        }),
    ),
  ).then(() => undefined);
  const send = (child: ChildProcess, signal: NodeJS.Signals): void => {
    if (isAlive(child)) child.kill(signal);
  };
  return {
    workers: [...children].map(([role, child]) => ({ role, pid: child.pid ?? 0 })),
    started,
    signal: (role, signal) => {
      const child = children.get(role);
      if (child !== undefined) send(child, signal);
    },
    stop: async (graceMs = 3000) => {
      const all = [...children.values()];
      for (const child of all) send(child, 'SIGTERM');
      const exited = await Promise.all(all.map((child) => waitForExit(child, graceMs)));
      const stuck = all.filter((_, i) => exited[i] !== true);
      for (const child of stuck) send(child, 'SIGKILL');
      await Promise.all(stuck.map((child) => waitForExit(child, graceMs)));
    },
    killAll: () => {
      for (const child of children.values()) send(child, 'SIGKILL');
    },
  };
};
