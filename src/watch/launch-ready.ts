// A launch that became ready: the `ready` event first, then the bookkeeping (start history, launch record), so
// the verdict is never delayed by it. Local and remote launches end the same way.
import type { ReadyEvent } from '../events.ts';
import { recordStart, type PhaseDuration, type StartProfile } from '../state/history.ts';
import { rewriteLaunchRecord, type LaunchRecord } from '../state/records.ts';
import { EXIT } from '../exit-codes.ts';
import type { StartResult } from './result.ts';
import type { StartRun } from './start-run.ts';

export interface LaunchReady {
  elapsedMs: number;
  target: { origin: string | null; healthUrl: string | null };
  id: string;
  /** Whether a smoke request proved the server generates. */
  smoked: boolean;
  stateDir: string;
  profile: StartProfile;
  phases: readonly PhaseDuration[];
  record: LaunchRecord;
}

const errorCode = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));

// The server is ready whatever happens to the bookkeeping: a state directory that cannot be written (a full disk)
// is a warning, not a failed start.
export const finishReadyLaunch = async (emit: StartRun['emit'], ready: LaunchReady): Promise<StartResult> => {
  const fields: Omit<ReadyEvent, 't'> = {
    type: 'ready',
    elapsed_ms: ready.elapsedMs,
    url: ready.target.origin ?? '',
    health_url: ready.target.healthUrl,
    id: ready.id,
    ...(ready.smoked ? { rung: 'generating' as const } : {}),
  };
  const event: ReadyEvent = { ...fields, t: emit(fields).t };
  const warnings: string[] = [];
  await Promise.all([
    recordStart(ready.profile, ready.phases, { dir: ready.stateDir }).catch((error: unknown) => {
      warnings.push(
        `the start history under ${ready.stateDir} could not be written (${errorCode(error)}); the next ETA will not count this start`,
      );
    }),
    rewriteLaunchRecord(ready.stateDir, ready.record, { outcome: 'ready' }).catch((error: unknown) => {
      warnings.push(
        `the launch record ${ready.id} could not be updated (${errorCode(error)}); vigil status reads its live state from the process, and vigil stop ${ready.id} still works`,
      );
    }),
  ]);
  return {
    ...(warnings.length === 0 ? {} : { warnings }),
    ok: true,
    exitCode: EXIT.ready,
    elapsedMs: ready.elapsedMs,
    id: ready.id,
    url: ready.target.origin,
    event,
  };
};
