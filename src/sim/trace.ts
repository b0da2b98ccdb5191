// VIGIL_SIM_TRACE: one JSON line per lifecycle event with wall-clock ms, for benchmarks that measure how soon
// vigil notices what the server did (`listening`, `healthy`, `ready-line`, `exit`).
import { appendFileSync, closeSync, openSync } from 'node:fs';
import { invalidOption } from '../errors.ts';

export type TraceEvent = 'listening' | 'healthy' | 'ready-line';

export interface SimTrace {
  event(name: TraceEvent): void;
  /** Written synchronously just before the process ends by itself. */
  exit(end: { code: number } | { signal: NodeJS.Signals }): void;
}

const append = (path: string, record: Record<string, unknown>): void => {
  try {
    appendFileSync(path, `${JSON.stringify(record)}\n`);
  } catch {
    // The trace is a measurement aid; losing it must not change how the simulated server behaves.
  }
};

// Opens the trace file (checking it can be written) or returns a no-op trace when none was asked for.
export const openSimTrace = (path: string | null): SimTrace => {
  if (path === null) return { event: () => undefined, exit: () => undefined };
  try {
    closeSync(openSync(path, 'a'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalidOption('VIGIL_SIM_TRACE', 'a file the simulator can append to', path, reason);
  }
  const once = new Set<TraceEvent>();
  return {
    event: (name) => {
      if (once.has(name)) return;
      once.add(name);
      append(path, { event: name, t: Date.now() });
    },
    exit: (end) => {
      append(path, { event: 'exit', t: Date.now(), ...end });
    },
  };
};
