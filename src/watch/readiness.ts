// The readiness policy (docs/readiness.md): `--success-threshold` healthy answers in a row, statuses from
// `--expect-status`, and, when a log is followed and the engine has one, its ready line since the launch.
import type { Rung } from '../events.ts';
import type { ProbeResult } from '../probe/http.ts';

export interface ReadinessOptions {
  successThreshold: number;
  expectStatus: ReadonlySet<number>;
  needReadyLine: boolean;
}

// What one probe answer meant.
export interface ProbeVerdict {
  /** The rung this answer shows: spawned (refused), port-open, http-up, healthy, or ready. */
  rung: Rung;
  ready: boolean;
  /** The health status changed (refused → 503 → 200 ...): that is progress for the stall timer. */
  changed: boolean;
  /** Healthy, but the ready line is still missing: worth saying once. */
  waitingForLine: boolean;
}

// The readiness state of one start.
export interface Readiness {
  probed(result: ProbeResult): ProbeVerdict;
  /** The engine's ready line appeared. */
  readyLine(): void;
  readonly lineSeen: boolean;
}

// Creates the policy; feed it every probe answer and the ready line.
export const createReadiness = (options: ReadinessOptions): Readiness => {
  let consecutive = 0;
  let lastKey: string | null = null;
  let lineSeen = false;
  return {
    probed(result) {
      const healthy = result.status !== null && options.expectStatus.has(result.status);
      const key =
        result.status === null ? (result.connected ? 'connected' : 'refused') : String(result.status);
      const changed = key !== lastKey;
      lastKey = key;
      consecutive = healthy ? consecutive + 1 : 0;
      const lineOk = !options.needReadyLine || lineSeen;
      const ready = healthy && consecutive >= options.successThreshold && lineOk;
      const rung: Rung = ready
        ? 'ready'
        : healthy
          ? 'healthy'
          : result.status !== null
            ? 'http-up'
            : result.connected
              ? 'port-open'
              : 'spawned';
      return { rung, ready, changed, waitingForLine: healthy && !lineOk };
    },
    readyLine() {
      lineSeen = true;
    },
    get lineSeen() {
      return lineSeen;
    },
  };
};
