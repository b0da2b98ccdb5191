// The log side of the watch loop: each followed line goes to the start tracker and the diagnoser, becomes
// `phase` and `log` events, feeds the tail and the last line, and signals progress, the ready line and probes.
import { stripVTControlCharacters } from 'node:util';
import { visibleText } from '../logs/normalize.ts';
import type { Evidence, PhaseId } from '../events.ts';
import type { Diagnoser, StartTracker, TrackLineResult } from '../diagnose/types.ts';
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
// Per line it does only what a line can change; what is shown or stored (the last line, the tail) is redacted
// when read, not for every line that scrolls past.
export const createLineHandler = (
  input: LineHandlerInput,
  signals: LineSignals,
  startedAt: number,
): LineHandler => {
  let lastNormalized: string | null = null;
  let lastShown: string | null = null;
  let phaseStartedAt = startedAt;
  let tail: FollowedLine[] = [];

  const etaField = (phase: PhaseId | null, now: number): { eta?: { ms: number; basis: string } | null } =>
    input.eta === undefined ? {} : { eta: input.eta(phase, Math.round(now - phaseStartedAt)) };

  // Returns whether the line made progress for the stall timer (phase and bar updates signal at once).
  const handleLine = (line: FollowedLine, result: TrackLineResult, at: number): boolean => {
    // A partial line (unfinished `\r` redraws) comes again once finished: only its progress counts now.
    const partial = line.partial === true;
    if (!partial) input.diagnoser.push(line);
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
              text: input.redact(visibleText(update.text)),
              level: update.level,
            });
          }
          break;
      }
    }
    return !partial && result.progress;
  };

  // The last TAIL_LINES finished lines, the batch's own last ones first.
  const keepTail = (lines: readonly FollowedLine[]): void => {
    const kept: FollowedLine[] = [];
    for (let i = lines.length - 1; i >= 0 && kept.length < TAIL_LINES; i--) {
      const line = lines[i];
      if (line !== undefined && line.partial !== true) kept.push(line);
    }
    kept.reverse();
    tail = kept.length >= TAIL_LINES ? kept : [...tail.slice(kept.length - TAIL_LINES), ...kept];
  };

  return {
    handle(lines) {
      if (lines.length === 0) return;
      // One clock reading per batch: its lines arrived together.
      const at = performance.now();
      const results: TrackLineResult[] = [];
      let progressed = false;
      for (const line of lines) {
        const result = input.tracker.push(line, at);
        results.push(result);
        if (handleLine(line, result, at)) progressed = true;
      }
      if (progressed) signals.onProgress();
      // The last line with a message, normalised now that the batch is read (usually the batch's very last line).
      for (let i = results.length - 1; i >= 0; i--) {
        const text = results[i]?.normalized ?? '';
        if (text !== '') {
          if (text !== lastNormalized) lastShown = null;
          lastNormalized = text;
          break;
        }
      }
      keepTail(lines);
    },
    get lastLine() {
      if (lastNormalized === null) return null;
      lastShown ??= input.redact(lastNormalized);
      return lastShown;
    },
    tail: () => tail.map((line) => ({ line: line.line, text: input.redact(collapse(line.text)) })),
    etaField,
  };
};

// The final state of a line with `\r` redraws, without ANSI codes.
const collapse = (text: string): string => {
  const plain = stripVTControlCharacters(text);
  return visibleText(plain.slice(plain.lastIndexOf('\r') + 1)).trimEnd();
};
