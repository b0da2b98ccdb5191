// Probes a health URL on a schedule, one probe in flight at a time; `trigger()` supersedes the probe in flight.
import { probeOnce, type ProbeResult } from './http.ts';
import { createProbeSchedule } from './schedule.ts';

// What to probe, how often, and where results go.
export interface ProberOptions {
  url: string;
  intervalMs: number;
  timeoutMs: number;
  headers?: Readonly<Record<string, string>>;
  /** Whether the URL may be probed at the fast rate once it answers (not a path that generates). */
  allowFast?: boolean;
  /** Called once per finished probe (superseded and stopped probes report nothing). */
  onResult: (result: ProbeResult) => void;
}

// A running probe schedule.
export interface Prober {
  /** Fires the first probe now; the next ones follow at a fixed rate, every interval from the first one's start. */
  start(): void;
  /** Aborts the probe in flight, if any, and fires a new one at once (a ready line just appeared). */
  trigger(): void;
  /** The server answers HTTP but is not healthy yet: probe at the fast rate for a while (src/probe/schedule.ts). */
  hurry?(): void;
  /** Stops probing and aborts the probe in flight (which closes its connection); idempotent. */
  stop(): void;
}

// Creates a prober; nothing happens until start().
export const createProber = (options: ProberOptions): Prober => {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: AbortController | null = null;
  // When the current probe was due. The next one is due an interval later, whenever this one started or ended,
  // so a late timer or a slow answer never pushes the whole schedule back (fixed rate, not fixed delay).
  let dueAt = 0;
  const schedule = createProbeSchedule({
    intervalMs: options.intervalMs,
    allowFast: options.allowFast === true,
  });

  const fire = (due: number): void => {
    if (stopped) return;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    inFlight?.abort(new Error('superseded'));
    const controller = new AbortController();
    inFlight = controller;
    dueAt = due;
    void probeOnce(options.url, {
      timeoutMs: options.timeoutMs,
      signal: controller.signal,
      ...(options.headers === undefined ? {} : { headers: options.headers }),
    }).then((result) => {
      if (stopped || inFlight !== controller) return;
      inFlight = null;
      options.onResult(result);
      // onResult may have stopped the prober or fired a new probe (read through a function: TypeScript cannot see
      // that the call changed them).
      if (idle()) scheduleNext();
    });
  };

  const idle = (): boolean => !stopped && inFlight === null && timer === null;

  const scheduleNext = (): void => {
    const now = performance.now();
    // A probe that outlasted the interval: the next one goes at once, and the schedule continues from there.
    const next = schedule.nextDue(dueAt, now);
    timer = setTimeout(() => {
      fire(next);
    }, next - now);
  };

  const fireNow = (): void => {
    fire(performance.now());
  };

  return {
    start: fireNow,
    trigger: fireNow,
    hurry() {
      schedule.hurry(performance.now());
    },
    stop() {
      if (stopped) return;
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      inFlight?.abort(new Error('stopped'));
    },
  };
};
