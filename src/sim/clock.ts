// The phase clock: simulated seconds scaled by VIGIL_SIM_TIME_SCALE, abortable, plus the engines' timestamps.
import { setTimeout as sleep } from 'node:timers/promises';

export interface SimClock {
  readonly scale: number;
  /** Waits `seconds` of simulated time (seconds x scale of real time); rejects when the run is aborted. */
  sleep(seconds: number): Promise<void>;
  /** Real seconds since `startMs` (a `Date.now()` value), for "Time elapsed" style messages. */
  secondsSince(startMs: number): number;
}

// Creates the clock of one simulated run; every sleep ends early when `signal` aborts.
export const createSimClock = (scale: number, signal: AbortSignal): SimClock => ({
  scale,
  sleep: (seconds) => sleep(Math.max(0, seconds * 1000 * scale), undefined, { signal }),
  secondsSince: (startMs) => (Date.now() - startMs) / 1000,
});

const pad = (n: number): string => String(n).padStart(2, '0');

// SGLang's log timestamp (Python logging, local time): `2025-09-11 10:24:23`.
export const formatSglangTime = (date: Date = new Date()): string =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${formatClock(date)}`;

// vLLM's log timestamp (local time, no year): `11-24 11:43:54`.
export const formatVllmTime = (date: Date = new Date()): string =>
  `${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${formatClock(date)}`;

const formatClock = (date: Date): string =>
  `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
