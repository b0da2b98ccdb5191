// When the next probe is due. Probes run at a fixed rate (every interval from when the last one was due, so a late
// timer or a slow answer never pushes the schedule back). Once the server answers HTTP but is not healthy yet, they
// run at a fast rate for a while: the last part of a start is often short, and --interval would add up to a whole
// interval to the moment vigil sees it healthy. Pure: the caller passes the time.

/** The fast rate, and how long it lasts after the first HTTP answer that was not healthy. */
export const FAST_PROBE = { intervalMs: 25, forMs: 10_000 } as const;

export interface ProbeSchedule {
  /** The server answered HTTP at `now` but is not healthy: probe fast from here on, for FAST_PROBE.forMs. */
  hurry(now: number): void;
  /** Whether the next gap is the fast one at `now`. */
  fast(now: number): boolean;
  /** When the probe after one that was due at `dueAt` is due, at `now` (never before now). */
  nextDue(dueAt: number, now: number): number;
}

export interface ProbeScheduleOptions {
  intervalMs: number;
  /** False for a health path that generates: it is never probed fast. */
  allowFast: boolean;
  fastIntervalMs?: number;
  fastForMs?: number;
}

export const createProbeSchedule = (options: ProbeScheduleOptions): ProbeSchedule => {
  const fastInterval = Math.min(options.fastIntervalMs ?? FAST_PROBE.intervalMs, options.intervalMs);
  const fastFor = options.fastForMs ?? FAST_PROBE.forMs;
  // When the fast window opened: once per watch, at the first answer that was not healthy.
  let fastSince: number | null = null;
  const fast = (now: number): boolean => fastSince !== null && now - fastSince < fastFor;
  return {
    hurry(now) {
      if (options.allowFast && fastSince === null) fastSince = now;
    },
    fast,
    nextDue(dueAt, now) {
      return Math.max(dueAt + (fast(now) ? fastInterval : options.intervalMs), now);
    },
  };
};
