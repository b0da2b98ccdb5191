// The watch loop: one event-driven state machine over liveness, probes, log lines, the deadline, the stall
// timer, the heartbeat and abort. No fixed sleeps: every input is a callback, and the first decisive one ends it.
import { stripVTControlCharacters } from 'node:util';
import type { Evidence, PhaseId, Rung, VigilEvent } from '../events.ts';
import type { EngineSpec } from '../engines/types.ts';
import type { Diagnoser, StartTracker } from '../diagnose/types.ts';
import { createLogFollower, type FollowedLine, type LogFollower } from '../logs/follow.ts';
import { createProber, type Prober } from '../probe/prober.ts';
import type { ProbeResult } from '../probe/http.ts';
import type { Liveness, ProcessEnd } from './liveness.ts';
import type { ProbeTarget } from './target.ts';
import { createPatience, type Patience } from './patience.ts';

/** An event before the loop stamps its time. */
export type Emittable = {
  [K in VigilEvent['type']]: Omit<Extract<VigilEvent, { type: K }>, 't'>;
}[VigilEvent['type']];

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
}

export type LoopEnd =
  | { kind: 'ready' }
  | { kind: 'exited'; end: ProcessEnd }
  | { kind: 'timeout' }
  | { kind: 'stalled'; idleMs: number }
  | { kind: 'interrupted' };

export interface LoopOutcome {
  end: LoopEnd;
  elapsedMs: number;
  rung: Rung;
  phase: PhaseId | null;
  lastLine: string | null;
  /** The last log lines seen (ANSI removed, redraws collapsed, redacted). */
  tail: Evidence[];
}

const TAIL_LINES = 20;

// Runs the loop to its end; never rejects for the server's sake (a failing server is an outcome, not an error).
export const runWatchLoop = (input: LoopInput): Promise<LoopOutcome> =>
  new Promise((resolve, reject) => {
    const now = (): number => performance.now();
    let ending = false;
    let rung: Rung = 'spawned';
    let lastLine: string | null = null;
    let readyLineSeen = false;
    let notedWaitingForLine = false;
    let consecutive = 0;
    let lastHealthKey: string | null = null;
    let phaseStartedAt = input.startedAt;
    const tail: Evidence[] = [];
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
      // Read what the server wrote last before reporting: a crash's cause is usually in its final lines.
      void drainLog(end)
        .then(() => {
          resolve({ end, elapsedMs, rung, phase: input.tracker.phase, lastLine, tail: [...tail] });
        })
        .catch(reject);
    };

    const drainLog = async (end: LoopEnd): Promise<void> => {
      if (follower === null) return;
      try {
        // After an exit the writer is gone, so an unterminated last line is final too.
        if (end.kind !== 'ready') handleLines(await follower.drain({ final: end.kind === 'exited' }));
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
      const healthy = result.status !== null && input.expectStatus.has(result.status);
      rung = healthy
        ? 'healthy'
        : result.status !== null
          ? 'http-up'
          : result.connected
            ? 'port-open'
            : 'spawned';
      const key =
        result.status === null ? (result.connected ? 'connected' : 'refused') : String(result.status);
      if (key !== lastHealthKey) {
        lastHealthKey = key;
        progressed();
      }
      consecutive = healthy ? consecutive + 1 : 0;
      const ready =
        healthy && consecutive >= input.successThreshold && (!input.target.needReadyLine || readyLineSeen);
      input.emit({
        type: 'probe',
        url: result.url,
        status: result.status,
        error: result.error,
        ms: result.ms,
        rung: ready ? 'ready' : rung,
      });
      if (ready) {
        becomeReady();
        return;
      }
      if (healthy && input.target.needReadyLine && !readyLineSeen && !notedWaitingForLine) {
        notedWaitingForLine = true;
        input.emit({
          type: 'notice',
          code: 'waiting-for-ready-line',
          message: `${result.url} answers ${result.status}, but the engine's ready line has not appeared in the log yet`,
        });
      }
    };

    const handleLines = (lines: readonly FollowedLine[]): void => {
      for (const line of lines) handleLine(line);
    };

    const handleLine = (line: FollowedLine): void => {
      const at = now();
      const result = input.tracker.push(line, at);
      const shown = input.redact(result.normalized);
      if (shown !== '') lastLine = shown;
      if (line.partial !== true) {
        input.diagnoser.push(line);
        tail.push({ line: line.line, text: input.redact(collapse(line.text)) });
        if (tail.length > TAIL_LINES) tail.shift();
        if (result.progress) progressed();
      }
      for (const update of result.updates) {
        switch (update.kind) {
          case 'phase':
            progressed();
            phaseStartedAt = at;
            input.emit({
              type: 'phase',
              name: update.phase,
              progress: update.progress,
              previous:
                update.previous === null
                  ? null
                  : { name: update.previous.name, ms: Math.round(update.previous.ms) },
              ...etaField(update.phase, 0),
            });
            break;
          case 'progress':
            progressed();
            input.emit({ type: 'phase', name: update.phase, progress: update.progress });
            break;
          case 'ready-line':
            if (line.partial === true || ending) break;
            readyLineSeen = true;
            if (input.target.noApi) becomeReady();
            else prober?.trigger();
            break;
          case 'probe-trigger':
            if (line.partial !== true && !ending) prober?.trigger();
            break;
          case 'notable':
            if (line.partial !== true) {
              input.emit({
                type: 'log',
                line: line.line,
                text: input.redact(update.text),
                level: update.level,
              });
            }
            break;
        }
      }
      // A node that serves no API is ready once its log shows the server side of the start.
      if (input.target.noApi && !ending && isServingPhase(input.tracker.phase)) becomeReady();
    };

    const etaField = (
      phase: PhaseId | null,
      inPhaseMs: number,
    ): { eta?: { ms: number; basis: string } | null } => {
      if (input.eta === undefined) return {};
      return { eta: input.eta(phase, Math.round(inPhaseMs)) };
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
            last_line: lastLine,
            ...etaField(input.tracker.phase, at - phaseStartedAt),
          });
        },
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
        follower = createLogFollower({
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
        prober = createProber({
          url: input.target.healthUrl,
          intervalMs: input.intervalMs,
          timeoutMs: input.probeTimeoutMs,
          headers: input.target.headers,
          onResult: handleProbe,
        });
        prober.start();
      }
    } catch (error) {
      finish({ kind: 'interrupted' });
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });

// The final state of a line with `\r` redraws, without ANSI codes.
const collapse = (text: string): string => {
  const plain = stripVTControlCharacters(text);
  return plain.slice(plain.lastIndexOf('\r') + 1).trimEnd();
};

const SERVING: ReadonlySet<PhaseId> = new Set(['http-up', 'warmup', 'ready']);
const isServingPhase = (phase: PhaseId | null): boolean => phase !== null && SERVING.has(phase);
