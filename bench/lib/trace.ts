// The trace a benchmarked server writes: one JSON line per event with a wall-clock `t` (Date.now()),
// the same shape as `vigil sim`'s VIGIL_SIM_TRACE.
import { appendFileSync, readFileSync } from 'node:fs';

export interface TraceEvent {
  event: string;
  t: number;
  code?: number;
}

// Appends one event synchronously (the exit event must be on disk before the process exits).
export const appendTrace = (file: string, event: TraceEvent): void => {
  appendFileSync(file, `${JSON.stringify(event)}\n`);
};

// Reads a trace; a missing file is an empty trace, and half-written lines are skipped.
export const readTrace = (file: string): TraceEvent[] => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const events: TraceEvent[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = JSON.parse(line) as Partial<TraceEvent>;
      if (typeof parsed.event === 'string' && typeof parsed.t === 'number') events.push(parsed as TraceEvent);
    } catch {
      // A line cut short by a kill is not an event.
    }
  }
  return events;
};

// The first event of a kind, or null.
export const firstEvent = (events: TraceEvent[], kind: string): TraceEvent | null =>
  events.find((event) => event.event === kind) ?? null;
