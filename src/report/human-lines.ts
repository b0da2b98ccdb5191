// Which lines the human renderers print for each event; tty and plain differ only in probes and heartbeats.
import type { VigilEvent } from '../events.ts';
import { formatDiagnosis, formatPreflight } from './adapters.ts';
import {
  formatFailure,
  formatHeartbeat,
  formatLaunched,
  formatLog,
  formatPhase,
  formatProbeChange,
  formatReady,
  formatSmoke,
  stamp,
} from './lines.ts';
import type { Paint } from './style.ts';
import type { RendererOptions } from './types.ts';
import { applyEvent, type WatchState } from './watch-state.ts';
import { redactArgv } from './redact-event.ts';

export interface HumanLineOptions {
  paint: Paint;
  /** Print rung and health-status changes (plain does; tty shows them in its status line). */
  probes: boolean;
  /** Print heartbeats (plain does; tty shows them in its status line). */
  heartbeats: boolean;
  serverCommand: readonly string[];
  stallTimeoutMs: number | undefined;
}

// Builds the option set from the renderer options.
export const humanLineOptions = (
  options: RendererOptions,
  paint: Paint,
  live: boolean,
): HumanLineOptions => ({
  paint,
  probes: !live,
  heartbeats: !live,
  serverCommand: redactArgv(options.serverCommand ?? [], options.redact),
  stallTimeoutMs: options.stallTimeoutMs,
});

const stamped = (t: number, paint: Paint, lines: string[]): string[] =>
  lines.map((line) => `${stamp(t, paint)} ${line}`);

// Applies the event to the state and returns the lines to print (each may hold newlines; none ends with one).
export const linesFor = (event: VigilEvent, state: WatchState, options: HumanLineOptions): string[] => {
  const { paint } = options;
  const change = applyEvent(state, event);
  switch (event.type) {
    case 'preflight': {
      const { type: _type, t: _t, ...report } = event;
      return [formatPreflight(report, options.serverCommand, paint)];
    }
    case 'launched':
      return stamped(event.t, paint, formatLaunched(event, paint));
    case 'probe':
      if (!options.probes || !(change.rungChanged || change.probeChanged)) return [];
      return stamped(event.t, paint, [formatProbeChange(event, change.rungChanged)]);
    case 'phase': {
      const line = formatPhase(event, change.phaseChanged, paint);
      return line === null ? [] : stamped(event.t, paint, [line]);
    }
    case 'log':
      return stamped(event.t, paint, [formatLog(event, paint)]);
    case 'notice':
      return stamped(event.t, paint, [`${paint('cyan', 'note:')} ${event.message}`]);
    case 'unreachable':
      return stamped(event.t, paint, [
        `${paint('yellow', 'unreachable:')} ${event.host} does not answer; retrying (the server keeps running)`,
      ]);
    case 'reconnected':
      return stamped(event.t, paint, [
        `${paint('cyan', 'reconnected:')} ${event.host} answers again after ${Math.round(event.after_ms / 1000)} s; resuming the watch`,
      ]);
    case 'heartbeat':
      return options.heartbeats ? stamped(event.t, paint, [formatHeartbeat(event, state)]) : [];
    case 'diagnosis':
      return [formatDiagnosis(event, paint)];
    case 'smoke':
      return stamped(event.t, paint, [formatSmoke(event, paint)]);
    case 'ready':
      return formatReady(event, paint);
    case 'failed':
      return formatFailure(event, state, paint, options.stallTimeoutMs);
  }
};
