// Probes a health URL on a schedule, one probe in flight at a time; `trigger()` supersedes the probe in flight.
import { Agent } from 'undici';
import { probeOnce, type ProbeResult } from './http.ts';

// What to probe, how often, and where results go.
export interface ProberOptions {
  url: string;
  intervalMs: number;
  timeoutMs: number;
  headers?: Readonly<Record<string, string>>;
  /** Called once per finished probe (superseded and stopped probes report nothing). */
  onResult: (result: ProbeResult) => void;
}

// A running probe schedule.
export interface Prober {
  /** Fires the first probe now; the next ones follow every interval, counted from each probe's start. */
  start(): void;
  /** Aborts the probe in flight, if any, and fires a new one at once (a ready line just appeared). */
  trigger(): void;
  /** Stops probing and closes the connections; idempotent. */
  stop(): void;
}

// Creates a prober; nothing happens until start().
export const createProber = (options: ProberOptions): Prober => {
  const agent = new Agent({ connections: 2 });
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: AbortController | null = null;

  const fire = (): void => {
    if (stopped) return;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    inFlight?.abort(new Error('superseded'));
    const controller = new AbortController();
    inFlight = controller;
    const startedAt = performance.now();
    void probeOnce(options.url, {
      timeoutMs: options.timeoutMs,
      signal: controller.signal,
      dispatcher: agent,
      ...(options.headers === undefined ? {} : { headers: options.headers }),
    }).then((result) => {
      if (stopped || inFlight !== controller) return;
      inFlight = null;
      const wait = Math.max(0, startedAt + options.intervalMs - performance.now());
      timer = setTimeout(fire, wait);
      options.onResult(result);
    });
  };

  return {
    start: fire,
    trigger: fire,
    stop() {
      if (stopped) return;
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      inFlight?.abort(new Error('stopped'));
      void agent.destroy().catch(() => undefined);
    },
  };
};
