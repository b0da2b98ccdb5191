// What the human renderers remember between events: rung, phase, ETA, last probe, and when progress was last seen.
import type { PhaseId, Rung, VigilEvent } from '../events.ts';

export interface ProbeSeen {
  status: number | null;
  error: string | null;
}

export interface WatchState {
  rung: Rung | null;
  phase: PhaseId | null;
  progress: { done: number; total: number } | null;
  /** Remaining time as estimated at `t` (ms since vigil started). */
  eta: { ms: number; t: number } | null;
  probe: ProbeSeen | null;
  lastLine: string | null;
  /** `t` of the latest event, and of the latest sign of progress (phase, progress, log line, health change). */
  lastT: number;
  lastProgressT: number | null;
  /** Problems of a preflight report already shown (a preflight failure then needs no repeat), or null. */
  preflightProblems: { errors: number; warnings: number } | null;
  launch: { id: string; log: string } | null;
  finished: boolean;
}

/** What changed when an event was applied; renderers use it to skip repeats. */
export interface Change {
  rungChanged: boolean;
  probeChanged: boolean;
  phaseChanged: boolean;
}

// A fresh state, before any event.
export const createWatchState = (): WatchState => ({
  rung: null,
  phase: null,
  progress: null,
  eta: null,
  probe: null,
  lastLine: null,
  lastT: 0,
  lastProgressT: null,
  preflightProblems: null,
  launch: null,
  finished: false,
});

const probeKey = (probe: ProbeSeen | null): string =>
  probe === null ? '' : probe.status === null ? `error:${probe.error ?? ''}` : `status:${probe.status}`;

// Reads an `eta` field from any event that carries one (phase and heartbeat events): undefined when the event
// has none, null when it says no estimate is known.
export const readEta = (event: VigilEvent): { ms: number } | null | undefined => {
  if (!('eta' in event)) return undefined;
  const eta: unknown = event.eta;
  if (typeof eta !== 'object' || eta === null || !('ms' in eta)) return null;
  return typeof eta.ms === 'number' && Number.isFinite(eta.ms) ? { ms: eta.ms } : null;
};

// Folds one event into the state and says what changed.
export const applyEvent = (state: WatchState, event: VigilEvent): Change => {
  const change: Change = { rungChanged: false, probeChanged: false, phaseChanged: false };
  state.lastT = Math.max(state.lastT, event.t);
  const eta = readEta(event);
  if (eta !== undefined) state.eta = eta === null ? null : { ms: eta.ms, t: event.t };
  const progressed = (): void => {
    state.lastProgressT = event.t;
  };
  switch (event.type) {
    case 'launched':
      state.launch = { id: event.id, log: event.log };
      state.rung = 'spawned';
      break;
    case 'preflight':
      if (event.status === 'errors' || event.status === 'warnings') {
        const count = (severity: string): number =>
          event.findings.filter((f) => f.severity === severity).length;
        state.preflightProblems = { errors: count('error'), warnings: count('warning') };
      }
      break;
    case 'probe': {
      const seen = { status: event.status, error: event.error };
      change.probeChanged = probeKey(seen) !== probeKey(state.probe);
      change.rungChanged = event.rung !== state.rung;
      state.probe = seen;
      state.rung = event.rung;
      if (change.probeChanged || change.rungChanged) progressed();
      break;
    }
    case 'phase':
      change.phaseChanged = event.name !== state.phase;
      state.phase = event.name;
      state.progress = event.progress;
      progressed();
      break;
    case 'log':
      state.lastLine = event.text;
      progressed();
      break;
    case 'heartbeat':
      state.rung = event.rung;
      if (event.phase !== state.phase) {
        state.phase = event.phase;
        state.progress = null;
      }
      if (event.last_line !== null && event.last_line !== state.lastLine) {
        state.lastLine = event.last_line;
        progressed();
      }
      break;
    case 'ready':
      state.rung = event.rung ?? 'ready';
      state.finished = true;
      break;
    case 'failed':
      if (event.phase !== undefined && event.phase !== null) state.phase = event.phase;
      state.finished = true;
      break;
    case 'notice':
    case 'unreachable':
    case 'reconnected':
    case 'diagnosis':
    case 'exited':
    case 'smoke':
      break;
  }
  return change;
};

// The remaining ETA at time `t`, or null when none is known.
export const remainingEta = (state: WatchState, t: number): number | null =>
  state.eta === null ? null : state.eta.ms - (t - state.eta.t);
