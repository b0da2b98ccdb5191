// The watch loop: one event-driven state machine over liveness, probes, log lines, the deadline, the stall
// timer, the heartbeat and abort. No fixed sleeps: every input is a callback, and the first decisive one ends it.
import type { Evidence, PhaseId, Rung, VigilEvent } from '../events.ts';
import type { EngineSpec } from '../engines/types.ts';
import type { Diagnoser, StartTracker } from '../diagnose/types.ts';
import {
  createLogFollower,
  type FollowLogOptions,
  type FollowedLine,
  type LogFollower,
} from '../logs/follow.ts';
import { createProber, type Prober, type ProberOptions } from '../probe/prober.ts';
import type { ProbeResult } from '../probe/http.ts';
import type { Liveness, ProcessEnd } from './liveness.ts';
import type { ProbeTarget } from './target.ts';
import { createPatience, type Patience } from './patience.ts';
import { createReadiness } from './readiness.ts';
import { createLineHandler } from './log-lines.ts';
import { diskSpaceFor, formatBytes } from '../state/disk-space.ts';

/** An event before the loop stamps its time. */
export type Emittable = {
  [K in VigilEvent['type']]: Omit<Extract<VigilEvent, { type: K }>, 't'>;
}[VigilEvent['type']];

// Everything one run of the loop needs; launch() and watch() build it.
export interface LoopInput {
  spec: EngineSpec;
  target: ProbeTarget;
  tracker: StartTracker;
  diagnoser: Diagnoser;
  redact: (text: string) => string;
  emit: (event: Emittable) => void;
  log: { path: string; fromOffset: number } | null;
  liveness: Liveness | null;
  /** performance.now() at spawn (launch) or at the start of the watch: deadlines and elapsed times count from it. */
  startedAt: number;
  timeoutMs: number;
  stallTimeoutMs: number;
  heartbeatMs: number;
  intervalMs: number;
  probeTimeoutMs: number;
  successThreshold: number;
  expectStatus: ReadonlySet<number>;
  signal?: AbortSignal;
  /** Remaining time from earlier starts of the same profile, given the phase and the time spent in it so far. */
  eta?: (phase: PhaseId | null, inPhaseMs: number) => { ms: number; basis: string } | null;
  /** Called once, as soon as the loop has decided how the start ends, while the log's last lines are still being
   * read: launch() lists the processes it will stop meanwhile. */
  onEnding?: (end: LoopEnd) => void;
  /** Where log lines and probe results come from when not from this machine (a remote host's watcher). */
  createFollower?: (options: FollowLogOptions) => LogFollower;
  createProber?: (options: ProberOptions) => Prober;
  /** A remote host's link: while it is down the stall timer does not count. */
  link?: { onChange(listener: (up: boolean) => void): void };
}

// Why the loop ended.
export type LoopEnd =
  | { kind: 'ready' }
  | { kind: 'exited'; end: ProcessEnd }
  | { kind: 'timeout' }
  | { kind: 'stalled'; idleMs: number }
  | { kind: 'interrupted' };

// The loop's end plus the state a final event reports.
export interface LoopOutcome {
  end: LoopEnd;
  elapsedMs: number;
  rung: Rung;
  phase: PhaseId | null;
  lastLine: string | null;
  /** The last log lines seen (ANSI removed, redraws collapsed, redacted). */
  tail: Evidence[];
}

// Runs the loop to its end; never rejects for the server's sake (a failing server is an outcome, not an error).
export const runWatchLoop = (input: LoopInput): Promise<LoopOutcome> =>
  new Promise((resolve, reject) => {
    const now = (): number => performance.now();
    let ending = false;
    let rung: Rung = 'spawned';
    let notedWaitingForLine = false;
    const readiness = createReadiness({
      successThreshold: input.successThreshold,
      expectStatus: input.expectStatus,
      needReadyLine: input.target.needReadyLine,
    });
    let follower: LogFollower | null = null;
    let prober: Prober | null = null;
    let patience: Patience | null = null;

    const isEnding = (): boolean => ending;

    const finish = (end: LoopEnd): void => {
      if (ending) return;
      ending = true;
      prober?.stop();
      patience?.stop();
      input.liveness?.stop();
      input.signal?.removeEventListener('abort', onAbort);
      const elapsedMs = Math.round(now() - input.startedAt);
      // Say so at once: stopping the rest of the launch (its grace period) and reading the log's end take time.
      if (end.kind === 'exited') {
        input.emit({
          type: 'exited',
          server_exit_code: end.end.code,
          server_signal: end.end.signal,
          elapsed_ms: elapsedMs,
        });
      }
      // Read what the server wrote last before reporting: a crash's cause is usually in its final lines.
      const drained = drainLog(end);
      input.onEnding?.(end);
      void drained
        .then(() => {
          resolve({
            end,
            elapsedMs,
            rung,
            phase: input.tracker.phase,
            lastLine: lines.lastLine,
            tail: lines.tail(),
          });
        })
        .catch(reject);
    };

    const drainLog = async (end: LoopEnd): Promise<void> => {
      if (follower === null) return;
      try {
        // Lines the server wrote before the verdict come before it, ready included.
        // After an exit the writer is gone, so an unterminated last line is final too.
        handleLines(await follower.drain({ final: end.kind === 'exited' }));
      } finally {
        await follower.close();
      }
    };

    const onAbort = (): void => {
      finish({ kind: 'interrupted' });
    };

    const progressed = (): void => {
      patience?.progressed();
    };

    const becomeReady = (): void => {
      rung = 'ready';
      finish({ kind: 'ready' });
    };

    const handleProbe = (result: ProbeResult): void => {
      if (ending) return;
      const verdict = readiness.probed(result);
      rung = verdict.rung === 'ready' ? 'healthy' : verdict.rung;
      if (verdict.changed) progressed();
      input.emit({
        type: 'probe',
        url: result.url,
        status: result.status,
        error: result.error,
        ms: result.ms,
        rung: verdict.rung,
      });
      if (verdict.ready) {
        becomeReady();
        return;
      }
      // HTTP answers but the server is not healthy: the rest of its start is usually short.
      if (verdict.rung === 'http-up') prober?.hurry?.();
      if (verdict.waitingForLine) checkLogSpace(result.url);
      if (verdict.waitingForLine && !notedWaitingForLine) {
        notedWaitingForLine = true;
        input.emit({
          type: 'notice',
          code: 'waiting-for-ready-line',
          message: `${result.url} answers ${String(result.status)}, but the engine's ready line has not appeared in the log yet`,
        });
      }
    };

    // Healthy, but the ready line has not come: when the log's filesystem is full it never will, so the start is
    // ready with a notice instead of stalling away a healthy server (docs/faults.md).
    let checkingSpace = false;
    const checkLogSpace = (url: string): void => {
      if (checkingSpace || input.log === null) return;
      checkingSpace = true;
      const logPath = input.log.path;
      void diskSpaceFor(logPath).then((space) => {
        checkingSpace = false;
        if (space === null || !space.full || ending) return;
        input.emit({
          type: 'notice',
          code: 'disk-full',
          message: `${url} is healthy, but the log ${logPath} cannot grow: its filesystem (${space.path}) is full, ${formatBytes(space.free)} free; the ready line cannot arrive, so vigil reports ready and leaves the server running`,
        });
        becomeReady();
      });
    };

    const lines = createLineHandler(
      input,
      {
        onProgress: progressed,
        onReadyLine: () => {
          if (ending) return;
          readiness.readyLine();
          if (input.target.noApi) becomeReady();
          else prober?.trigger();
        },
        onProbeTrigger: () => {
          if (!ending) prober?.trigger();
        },
      },
      input.startedAt,
    );

    const handleLines = (batch: readonly FollowedLine[]): void => {
      lines.handle(batch);
      // A node that serves no API is ready once its log shows the server side of the start.
      if (input.target.noApi && !ending && isServingPhase(input.tracker.phase)) becomeReady();
    };

    const consumeLog = async (): Promise<void> => {
      if (follower === null) return;
      for await (const batch of follower) {
        handleLines(batch);
      }
    };

    try {
      if (input.signal?.aborted === true) {
        finish({ kind: 'interrupted' });
        return;
      }
      input.signal?.addEventListener('abort', onAbort, { once: true });
      patience = createPatience({
        startedAt: input.startedAt,
        timeoutMs: input.timeoutMs,
        stallTimeoutMs: input.log === null ? null : input.stallTimeoutMs,
        heartbeatMs: input.heartbeatMs,
        onTimeout: () => {
          finish({ kind: 'timeout' });
        },
        onStall: (idleMs) => {
          finish({ kind: 'stalled', idleMs });
        },
        onHeartbeat: () => {
          const at = now();
          input.emit({
            type: 'heartbeat',
            elapsed_ms: Math.round(at - input.startedAt),
            rung,
            phase: input.tracker.phase,
            last_line: lines.lastLine,
            ...lines.etaField(input.tracker.phase, at),
          });
        },
      });
      input.link?.onChange((up) => {
        if (up) patience?.resume();
        else patience?.pause();
      });
      input.liveness?.start({
        onEnd: (end) => {
          finish({ kind: 'exited', end });
        },
        onNotice: (code, message) => {
          if (!ending) input.emit({ type: 'notice', code, message });
        },
      });
      if (input.log !== null) {
        follower = (input.createFollower ?? createLogFollower)({
          path: input.log.path,
          fromOffset: input.log.fromOffset,
          onNote: (note) => {
            input.emit({ type: 'notice', code: `log-${note.code}`, message: note.message });
          },
        });
        consumeLog().catch((error: unknown) => {
          input.emit({
            type: 'notice',
            code: 'log-unreadable',
            message: `stopped following the log: ${error instanceof Error ? error.message : String(error)}`,
          });
        });
      }
      // Liveness may have ended the watch already (a pid that was not running).
      if (input.target.healthUrl !== null && !isEnding()) {
        prober = (input.createProber ?? createProber)({
          url: input.target.healthUrl,
          intervalMs: input.intervalMs,
          timeoutMs: input.probeTimeoutMs,
          headers: input.target.headers,
          allowFast: input.target.fastProbe,
          onResult: handleProbe,
        });
        prober.start();
      }
    } catch (error) {
      finish({ kind: 'interrupted' });
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });

const SERVING: ReadonlySet<PhaseId> = new Set(['http-up', 'warmup', 'ready']);
const isServingPhase = (phase: PhaseId | null): boolean => phase !== null && SERVING.has(phase);
