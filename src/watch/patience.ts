// Patience: the deadline from spawn, the stall timer that only progress resets, and the heartbeat.

// The limits and what to call when one runs out.
export interface PatienceOptions {
  /** performance.now() at spawn: the deadline counts from here. */
  startedAt: number;
  timeoutMs: number;
  /** null: no stall detection (no log is followed). */
  stallTimeoutMs: number | null;
  heartbeatMs: number;
  onTimeout(): void;
  onStall(idleMs: number): void;
  onHeartbeat(): void;
}

// The running timers.
export interface Patience {
  /** Progress was made: a phase change, a bar advance, a health change, a line that is not a heartbeat. */
  progressed(): void;
  /** The stall timer stops counting (a remote host is unreachable) until resume(). */
  pause(): void;
  resume(): void;
  stop(): void;
}

// setTimeout fires at once beyond this (about 24.8 days).
const MAX_DELAY = 2 ** 31 - 1;

// Starts the timers. Progress only records a time, so a flood of log lines costs no timer churn: the stall
// timer, when it fires, re-arms itself for whatever remains.
export const createPatience = (options: PatienceOptions): Patience => {
  let lastProgress = performance.now();
  let pausedAt: number | null = null;
  let stopped = false;
  const remaining = Math.max(0, options.startedAt + options.timeoutMs - performance.now());
  const deadline = setTimeout(
    () => {
      if (!stopped) options.onTimeout();
    },
    Math.min(remaining, MAX_DELAY),
  );
  const heartbeat = setInterval(
    () => {
      if (!stopped) options.onHeartbeat();
    },
    Math.min(options.heartbeatMs, MAX_DELAY),
  );
  let stall: NodeJS.Timeout | null = null;
  const stallMs = options.stallTimeoutMs;
  if (stallMs !== null) {
    const check = (): void => {
      if (stopped) return;
      const idle = (pausedAt ?? performance.now()) - lastProgress;
      if (idle >= stallMs) {
        options.onStall(Math.round(idle));
        return;
      }
      stall = setTimeout(check, Math.min(stallMs - idle, MAX_DELAY));
    };
    stall = setTimeout(check, Math.min(stallMs, MAX_DELAY));
  }
  return {
    progressed() {
      lastProgress = performance.now();
      if (pausedAt !== null) pausedAt = lastProgress;
    },
    pause() {
      pausedAt ??= performance.now();
    },
    resume() {
      if (pausedAt === null) return;
      lastProgress += performance.now() - pausedAt;
      pausedAt = null;
    },
    stop() {
      stopped = true;
      clearTimeout(deadline);
      clearInterval(heartbeat);
      if (stall !== null) clearTimeout(stall);
    },
  };
};
