// The log side of the watch loop: each followed line goes to the start tracker and the diagnoser, becomes
// `phase` and `log` events, feeds the tail and the last line, and signals progress, the ready line and probes.
import { stripVTControlCharacters } from 'node:util';
import type { Evidence, PhaseId } from '../events.ts';
import type { Diagnoser, StartTracker } from '../diagnose/types.ts';
import type { FollowedLine } from '../logs/follow.ts';
import type { Emittable } from './loop.ts';

// What the line handler tells the loop.
export interface LineSignals {
  /** Progress for the stall timer: a phase, a bar advance, or a line that is not an engine heartbeat. */
  onProgress: () => void;
  onReadyLine: () => void;
  onProbeTrigger: () => void;
}

// The parts of the loop's input the handler uses.
export interface LineHandlerInput {
  tracker: StartTracker;
  diagnoser: Diagnoser;
  redact: (text: string) => string;
  emit: (event: Emittable) => void;
  eta?: (phase: PhaseId | null, inPhaseMs: number) => { ms: number; basis: string } | null;
}

// The handler's state, read by heartbeats and the final event.
export interface LineHandler {
  handle(lines: readonly FollowedLine[]): void;
  readonly lastLine: string | null;
  /** The last lines (ANSI removed, redraws collapsed, redacted). */
  tail(): Evidence[];
  /** The ETA field for an event: absent without history. */
  etaField(phase: PhaseId | null, now: number): { eta?: { ms: number; basis: string } | null };
}

const TAIL_LINES = 20;

// Creates the handler for one start; `startedAt` is when the start began (performance.now()).
export const createLineHandler = (
  input: LineHandlerInput,
  signals: LineSignals,
  startedAt: number,
): LineHandler => {
  let lastLine: string | null = null;
  let phaseStartedAt = startedAt;
  const tail: Evidence[] = [];

  const etaField = (phase: PhaseId | null, now: number): { eta?: { ms: number; basis: string } | null } =>
    input.eta === undefined ? {} : { eta: input.eta(phase, Math.round(now - phaseStartedAt)) };

  const handleLine = (line: FollowedLine): void => {
    const at = performance.now();
    const result = input.tracker.push(line, at);
    const shown = input.redact(result.normalized);
    if (shown !== '') lastLine = shown;
    // A partial line (unfinished `\r` redraws) comes again once finished: only its progress counts now.
    const partial = line.partial === true;
    if (!partial) {
      input.diagnoser.push(line);
      tail.push({ line: line.line, text: input.redact(collapse(line.text)) });
      if (tail.length > TAIL_LINES) tail.shift();
      if (result.progress) signals.onProgress();
    }
    for (const update of result.updates) {
      switch (update.kind) {
        case 'phase':
          signals.onProgress();
          phaseStartedAt = at;
          input.emit({
            type: 'phase',
            name: update.phase,
            progress: update.progress,
            previous:
              update.previous === null
                ? null
                : { name: update.previous.name, ms: Math.round(update.previous.ms) },
            ...etaField(update.phase, at),
          });
          break;
        case 'progress':
          signals.onProgress();
          input.emit({ type: 'phase', name: update.phase, progress: update.progress });
          break;
        case 'ready-line':
          if (!partial) signals.onReadyLine();
          break;
        case 'probe-trigger':
          if (!partial) signals.onProbeTrigger();
          break;
        case 'notable':
          if (!partial) {
            input.emit({
              type: 'log',
              line: line.line,
              text: input.redact(update.text),
              level: update.level,
            });
          }
          break;
      }
    }
  };

  return {
    handle(lines) {
      for (const line of lines) handleLine(line);
    },
    get lastLine() {
      return lastLine;
    },
    tail: () => [...tail],
    etaField,
  };
};

// The final state of a line with `\r` redraws, without ANSI codes.
const collapse = (text: string): string => {
  const plain = stripVTControlCharacters(text);
  return plain.slice(plain.lastIndexOf('\r') + 1).trimEnd();
};
