// The end of a launch whose server became ready: the smoke test when asked, then the `ready` event first and the
// bookkeeping after it (start history, launch record), so the verdict is never delayed by it. Local and remote
// launches end the same way.
import type { Diagnosis, ReadyEvent } from '../events.ts';
import type { StartTracker } from '../diagnose/types.ts';
import type { SshTransport } from '../hosts/remote/ssh.ts';
import { recordStart, type StartProfile } from '../state/history.ts';
import { rewriteLaunchRecord, type LaunchRecord } from '../state/records.ts';
import { EXIT } from '../exit-codes.ts';
import type { LaunchConfig } from './launch-config.ts';
import type { LoopOutcome } from './loop.ts';
import type { StartResult } from './result.ts';
import { smokeStep } from './smoke-step.ts';
import type { StartRun } from './start-run.ts';

/** What a launch keeps about itself: its id, ETA profile, phase timings and record. */
export interface LaunchBook {
  id: string;
  profile: StartProfile;
  tracker: Pick<StartTracker, 'phaseDurations'>;
  record: LaunchRecord;
}

const errorCode = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));

// A ready start ends here (`result`); any other outcome goes back to the caller to explain, with the smoke test's
// diagnosis when the start was ready but did not generate. `ssh`: a remote host's connection, for the smoke test.
export const endReadyLaunch = async (
  config: LaunchConfig,
  outcome: LoopOutcome,
  emit: StartRun['emit'],
  book: LaunchBook,
  ssh?: SshTransport,
): Promise<{ result: StartResult } | { smokeFailure: Diagnosis | null }> => {
  if (outcome.end.kind !== 'ready') return { smokeFailure: null };
  const smoke =
    config.options.smoke !== undefined && config.target.origin !== null
      ? await smokeStep(config, config.options.smoke.timeoutMs, emit, ssh)
      : null;
  if (smoke?.failure !== undefined) return { smokeFailure: smoke.failure };
  return { result: await finishReady(config, outcome.elapsedMs, emit, book, smoke !== null) };
};

// The server is ready whatever happens to the bookkeeping: a state directory that cannot be written (a full disk)
// is a warning, not a failed start.
const finishReady = async (
  config: LaunchConfig,
  elapsedMs: number,
  emit: StartRun['emit'],
  book: LaunchBook,
  smoked: boolean,
): Promise<StartResult> => {
  const fields: Omit<ReadyEvent, 't'> = {
    type: 'ready',
    elapsed_ms: elapsedMs,
    url: config.target.origin ?? '',
    health_url: config.target.healthUrl,
    id: book.id,
    ...(smoked ? { rung: 'generating' as const } : {}),
  };
  const event: ReadyEvent = { ...fields, t: emit(fields).t };
  const warnings: string[] = [];
  const stateDir = config.stateDir;
  await Promise.all([
    recordStart(book.profile, book.tracker.phaseDurations(performance.now()), { dir: stateDir }).catch(
      (error: unknown) => {
        warnings.push(
          `the start history under ${stateDir} could not be written (${errorCode(error)}); the next ETA will not count this start`,
        );
      },
    ),
    rewriteLaunchRecord(stateDir, book.record, { outcome: 'ready' }).catch((error: unknown) => {
      warnings.push(
        `the launch record ${book.id} could not be updated (${errorCode(error)}); vigil status reads its live state from the process, and vigil stop ${book.id} still works`,
      );
    }),
  ]);
  return {
    ...(warnings.length === 0 ? {} : { warnings }),
    ok: true,
    exitCode: EXIT.ready,
    elapsedMs,
    id: book.id,
    url: config.target.origin,
    event,
  };
};
