// The final line of a start (tty and plain): how it ended and how long it took, e.g. `ready after 2m11s — URL`.
import { formatDuration } from '../config/duration.ts';
import type { FailedEvent, ReadyEvent } from '../events.ts';
import type { WatchState } from './watch-state.ts';

/** How recent progress must be for a timeout to read "still in phase X" when the stall timeout is unknown. */
const MIN_PROGRESS_WINDOW_MS = 60_000;

// The ready verdict.
export const formatReadyVerdict = (event: ReadyEvent): string =>
  `ready after ${formatDuration(event.elapsed_ms)} — ${event.url}${event.rung === 'generating' ? ' (generating)' : ''}`;

const inPhase = (phase: string | null): string => (phase === null ? '' : ` in phase ${phase}`);

const describeExit = (event: FailedEvent): string => {
  const after = formatDuration(event.elapsed_ms);
  if (event.server_signal !== null) return `crashed after ${after} (signal ${event.server_signal})`;
  if (event.server_exit_code === 0) return `exited after ${after} (exit code 0) before it was ready`;
  if (event.server_exit_code !== null) return `crashed after ${after} (exit code ${event.server_exit_code})`;
  return `crashed after ${after}`;
};

// Whether the server was still making progress when the deadline hit: progress seen within the stall window.
const stillProgressing = (
  event: FailedEvent,
  state: WatchState,
  stallTimeoutMs: number | undefined,
): boolean => {
  if (state.lastProgressT === null) return false;
  const window = stallTimeoutMs ?? Math.max(MIN_PROGRESS_WINDOW_MS, event.elapsed_ms / 10);
  return event.t - state.lastProgressT <= window;
};

const describeTimeout = (
  event: FailedEvent,
  state: WatchState,
  stallTimeoutMs: number | undefined,
): string => {
  const after = formatDuration(event.elapsed_ms);
  const phase = event.phase ?? state.phase;
  if (stillProgressing(event, state, stallTimeoutMs)) {
    const where = phase === null ? 'still starting' : `still in phase ${phase}`;
    return `timed out after ${after} — ${where}; raise --timeout`;
  }
  const where = phase === null ? '' : `, in phase ${phase}`;
  if (state.lastProgressT === null) return `timed out after ${after} — no progress since the start${where}`;
  const since = formatDuration(Math.max(0, state.lastProgressT - (event.t - event.elapsed_ms)));
  return `timed out after ${after} — no progress since ${since}${where}`;
};

const describeStall = (event: FailedEvent, state: WatchState, stallTimeoutMs: number | undefined): string => {
  const after = formatDuration(event.elapsed_ms);
  const phase = event.phase ?? state.phase;
  const quiet = stallTimeoutMs ?? (state.lastProgressT === null ? null : event.t - state.lastProgressT);
  const span = quiet === null ? '' : ` for ${formatDuration(quiet)}`;
  return `stalled after ${after}: no progress${span}${inPhase(phase)}`;
};

// Whether the verdict line carries the diagnosis summary itself (then the diagnosis need not repeat it).
export const verdictHasSummary = (event: FailedEvent): boolean =>
  event.reason === 'preflight' ||
  event.reason === 'smoke' ||
  event.reason === 'unreachable' ||
  event.reason === 'usage';

// Whether a preflight failure comes from findings already printed above (not, say, a port in use).
export const preflightShown = (event: FailedEvent, state: WatchState): boolean =>
  event.reason === 'preflight' && state.preflightProblems !== null && event.diagnosis.class !== 'port-in-use';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

const withSummary = (head: string, event: FailedEvent): string => {
  const summary = (event.message ?? event.diagnosis.summary).replace(/^preflight:\s*/, '');
  return summary === '' ? head : `${head}: ${summary}`;
};

const describePreflight = (event: FailedEvent, state: WatchState): string => {
  const problems = state.preflightProblems;
  if (problems === null || !preflightShown(event, state)) return withSummary('preflight failed', event);
  const what = problems.errors > 0 ? plural(problems.errors, 'error') : plural(problems.warnings, 'warning');
  return `preflight failed: ${what} in the server command (above); nothing was launched`;
};

// The failure verdict, worded by reason.
export const formatFailedVerdict = (
  event: FailedEvent,
  state: WatchState,
  stallTimeoutMs: number | undefined,
): string => {
  const after = formatDuration(event.elapsed_ms);
  switch (event.reason) {
    case 'exited':
      return describeExit(event);
    case 'timeout':
      return describeTimeout(event, state, stallTimeoutMs);
    case 'stalled':
      return describeStall(event, state, stallTimeoutMs);
    case 'interrupted':
      // `vigil stop` from another terminal says so in the message; a Ctrl-C is plainly "interrupted".
      return event.message?.startsWith('stopped by') === true
        ? `${event.message}, after ${after}`
        : `interrupted after ${after}`;
    case 'preflight':
      return describePreflight(event, state);
    case 'smoke':
      return withSummary(`smoke test failed after ${after}`, event);
    case 'unreachable':
      return withSummary(`host unreachable after ${after}`, event);
    case 'usage':
      return withSummary('nothing was launched', event);
  }
};
