// Runs the built CLI (bin/vigil.js) as a real process and collects its exit, output and jsonl events.
import { spawn, type ChildProcess } from 'node:child_process';
import type { VigilEvent } from '../../src/events.ts';
import { ensureBuilt, VIGIL_BIN } from './build.ts';

export interface VigilRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The stdout lines that parse as JSON events (with --output jsonl). */
  events: VigilEvent[];
  args: readonly string[];
  /** Date.now() when the process was started, and when it closed. */
  startedAt: number;
  endedAt: number;
}

export interface RunningVigil {
  child: ChildProcess;
  events: VigilEvent[];
  /** Resolves with the first event that matches (already seen or still to come); rejects after withinMs. */
  waitFor(match: (event: VigilEvent) => boolean, withinMs?: number): Promise<VigilEvent>;
  done: Promise<VigilRun>;
}

// Starts `node bin/vigil.js ...args` with the given environment.
export const startVigil = (args: readonly string[], env: NodeJS.ProcessEnv = process.env): RunningVigil => {
  ensureBuilt();
  const startedAt = Date.now();
  const child = spawn(process.execPath, [VIGIL_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const events: VigilEvent[] = [];
  const listeners = new Set<() => void>();
  let stdout = '';
  let stderr = '';
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        events.push(JSON.parse(line) as VigilEvent);
      } catch {
        // not an event line
      }
    }
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<VigilRun>((resolve) => {
    child.once('close', (code, signal) => {
      for (const listener of listeners) listener();
      resolve({ code, signal, stdout, stderr, events, args, startedAt, endedAt: Date.now() });
    });
  });
  const waitFor = (match: (event: VigilEvent) => boolean, withinMs = 30_000): Promise<VigilEvent> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = events.find(match);
        if (found !== undefined) {
          cleanup();
          resolve(found);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          cleanup();
          reject(new Error(`vigil ended without the awaited event; stdout:\n${stdout}\nstderr:\n${stderr}`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `no matching event within ${String(withinMs)} ms; stdout:\n${stdout}\nstderr:\n${stderr}`,
          ),
        );
      }, withinMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });
  return { child, events, waitFor, done };
};

// Runs vigil to its end (killing it after timeoutMs) and collects everything.
export const runVigil = async (
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 60_000,
): Promise<VigilRun> => {
  const running = startVigil(args, env);
  const timer = setTimeout(() => running.child.kill('SIGKILL'), timeoutMs);
  try {
    return await running.done;
  } finally {
    clearTimeout(timer);
  }
};
