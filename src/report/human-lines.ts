// What the human renderers share: colour, and the lines they print for each event (tty and plain differ only in
// probes and heartbeats); and the plain renderer: one timestamped line per meaningful event, no control codes, for
// pipes, files and CI.
import { styleText } from 'node:util';
import type { VigilEvent } from '../events.ts';
import {
  formatDiagnosis,
  formatExited,
  formatFailure,
  formatHeartbeat,
  formatLaunched,
  formatLog,
  formatPhase,
  formatPreflight,
  formatProbeChange,
  formatReady,
  formatSmoke,
  stamp,
} from './lines.ts';
import type { Renderer, RendererOptions } from './types.ts';
import { applyEvent, createWatchState, type WatchState } from './watch-state.ts';
import { redactArgv, redactEvent } from '../redact/redactor.ts';

// Colour: `util.styleText` with the on/off decision made once, per stream.
export type Tone = 'dim' | 'bold' | 'red' | 'yellow' | 'green' | 'cyan';

/** Styles a piece of text, or returns it unchanged when colour is off (`enabled` says which). */
export type Paint = ((tone: Tone, text: string) => string) & { readonly enabled: boolean };

// Colour is on for a terminal that supports it (the stream's own check honours NO_COLOR and FORCE_COLOR).
export const decideColor = (
  options: Pick<RendererOptions, 'stream' | 'color'>,
  fallback: boolean,
): boolean => {
  if (options.color !== undefined) return options.color;
  if (!fallback || options.stream.isTTY !== true) return false;
  return options.stream.hasColors?.() ?? process.env['NO_COLOR'] === undefined;
};

// Builds the painter; `validateStream: false` because the decision above already looked at the stream.
export const createPaint = (enabled: boolean): Paint =>
  Object.assign(
    enabled
      ? (tone: Tone, text: string) => styleText(tone, text, { validateStream: false })
      : (_tone: Tone, text: string) => text,
    { enabled },
  );

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
    case 'exited':
      return stamped(event.t, paint, [paint('red', formatExited(event))]);
    case 'smoke':
      return stamped(event.t, paint, [formatSmoke(event, paint)]);
    case 'ready':
      return formatReady(event, paint);
    case 'failed':
      return formatFailure(event, state, paint, options.stallTimeoutMs);
  }
};

// Plain text never carries colour unless asked for explicitly (`color: true`).
export const createPlainRenderer = (options: RendererOptions): Renderer => {
  const state = createWatchState();
  const lineOptions = humanLineOptions(options, createPaint(options.color === true), false);
  return {
    render(event) {
      const lines = linesFor(redactEvent(event, options.redact), state, lineOptions);
      if (lines.length > 0) options.stream.write(`${options.redact(lines.join('\n'))}\n`);
    },
    close: () => undefined,
  };
};
