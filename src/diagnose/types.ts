// The contracts between the log, the watcher and the diagnosis: the watcher feeds lines in as they arrive,
// `vigil diagnose` feeds a whole file through the same code.
import type { Diagnosis, FailReason, PhaseId } from '../events.ts';
import type { EngineId } from '../engines/types.ts';
import type { RawLine } from '../logs/types.ts';

/** What one log line meant for the start. A line can yield several updates. */
export type TrackerUpdate =
  /** A new phase began (rank 0's lines only). `previous` is the phase that ended and its duration. */
  | {
      kind: 'phase';
      phase: PhaseId;
      progress: { done: number; total: number } | null;
      previous: { name: PhaseId; ms: number } | null;
    }
  /** A progress bar inside the current phase advanced. */
  | { kind: 'progress'; phase: PhaseId; progress: { done: number; total: number } }
  /** The engine's decisive ready line. */
  | { kind: 'ready-line' }
  /** A line that should trigger a probe at once (vLLM `Application startup complete.`). */
  | { kind: 'probe-trigger' }
  /** A line worth showing the user: phase lines, warnings, errors (text is the normalised line). */
  | { kind: 'notable'; level: 'info' | 'warning' | 'error'; text: string };

export interface TrackLineResult {
  updates: TrackerUpdate[];
  /** False for the engine's known heartbeat lines (and blank lines): they must not reset the stall timer. */
  progress: boolean;
  /** The normalised text (wrappers, ANSI and `\r` redraws removed), for "last line" displays. */
  normalized: string;
}

/** Follows one start's log: phases, progress, ready line. Keyed off rank 0. */
export interface StartTracker {
  /** Feed one raw line; `now` is the time it arrived (ms, any monotonic origin). */
  push(line: RawLine, now: number): TrackLineResult;
  readonly phase: PhaseId | null;
  readonly progress: { done: number; total: number } | null;
  /** Durations of finished phases so far, in order (for the ETA history). */
  phaseDurations(now: number): { name: PhaseId; ms: number }[];
}

export interface DiagnoseEnd {
  /** The server's exit code; negative numbers are signals (−9), as are 128+N and "signal N" in logs. */
  exitCode?: number | null;
  /** The signal name that ended the server, e.g. "SIGKILL". */
  signal?: string | null;
  /** Why the start ended, when a watcher ended it. */
  reason?: FailReason | null;
  /** The phase the watcher last saw, for hang summaries. */
  phase?: PhaseId | null;
}

/** Consumes a log incrementally with bounded memory and explains the start when asked. */
export interface Diagnoser {
  push(line: RawLine): void;
  /** The diagnosis of what has been seen so far, plus how it ended. Can be called more than once. */
  finish(end?: DiagnoseEnd): Diagnosis;
}

export interface DiagnoserOptions {
  /** `auto` guesses from the log's shapes. */
  engine: EngineId | 'auto';
  /** The engine release whose rules apply (`--engine-version`); read from the log's banner when absent. */
  engineVersion?: string | null;
  /** Redacts evidence text. Identity when absent. */
  redact?: (text: string) => string;
}
