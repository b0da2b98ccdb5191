// One start's plumbing, the same for every kind of watch (launch, wait, attach; here or on a host): events stamped
// with their time into the channel a caller reads, the final ready/failed results, the loop's settings from the
// options, and the checks and notices that watching a server started elsewhere shares.
import type { ReadyEvent, VigilEvent } from '../events.ts';
import { EXIT } from '../exit-codes.ts';
import { invalidOption } from '../errors.ts';
import type { Redactor } from '../redact/redactor.ts';
import { createChannel } from './channel.ts';
import type { Emittable, LoopInput } from './loop.ts';
import { resolveCommon, validateUrl, type ResolvedCommon, type WatchOptions } from './options.ts';
import {
  plainFailure,
  redactFailure,
  type FailedFields,
  type StartHandle,
  type StartResult,
} from './result.ts';

/** Which start a result belongs to. */
export interface StartIds {
  id: string | null;
  url: string | null;
}

export interface StartRun {
  /** Stamps an event with the time (a notice's text redacted) and hands it to the reader. */
  emit: (event: Emittable) => VigilEvent;
  /** The redacted `failed` event, emitted, as the start's result. */
  fail: (fields: FailedFields, ids: StartIds) => StartResult;
  /** The `ready` event, emitted, as the start's result. */
  ready: (fields: Omit<ReadyEvent, 'type' | 't'>, ids: StartIds) => StartResult;
  /** The handle for a run: its events end when it does. */
  handle: (run: () => Promise<StartResult>) => StartHandle;
}

export const createStartRun = (redact: Redactor): StartRun => {
  const channel = createChannel<VigilEvent>();
  const emit = (event: Emittable): VigilEvent => {
    const t = Math.round(performance.now());
    const stamped: VigilEvent =
      event.type === 'notice' ? { ...event, message: redact(event.message), t } : { ...event, t };
    channel.push(stamped);
    return stamped;
  };
  return {
    emit,
    fail(fields, ids) {
      const safe = redactFailure(fields, redact);
      const event = { ...safe, type: 'failed' as const, t: emit({ type: 'failed', ...safe }).t };
      return { ok: false, exitCode: safe.exit_code, elapsedMs: safe.elapsed_ms, ...ids, event };
    },
    ready(fields, ids) {
      const event = { ...fields, type: 'ready' as const };
      return {
        ok: true,
        exitCode: EXIT.ready,
        elapsedMs: fields.elapsed_ms,
        ...ids,
        event: { ...event, t: emit(event).t },
      };
    },
    handle(run) {
      const result = run().finally(() => {
        channel.close();
      });
      return { events: channel, result, redact };
    },
  };
};

/** The loop's limits, rates and abort signal. */
export type LoopSettings = Pick<
  LoopInput,
  | 'timeoutMs'
  | 'stallTimeoutMs'
  | 'heartbeatMs'
  | 'intervalMs'
  | 'probeTimeoutMs'
  | 'successThreshold'
  | 'expectStatus'
  | 'signal'
>;

// The loop's limits and rates, as the options resolved them.
export const loopSettings = (common: ResolvedCommon, signal: AbortSignal | undefined): LoopSettings => ({
  timeoutMs: common.timeoutMs,
  stallTimeoutMs: common.stallTimeoutMs,
  heartbeatMs: common.heartbeatMs,
  intervalMs: common.intervalMs,
  probeTimeoutMs: common.probeTimeoutMs,
  successThreshold: common.successThreshold,
  expectStatus: common.expectStatus,
  ...(signal === undefined ? {} : { signal }),
});

// What watching a server started elsewhere checks before anything runs; throws UsageError.
export const resolveWaitOptions = (options: WatchOptions): { common: ResolvedCommon; url: URL } => {
  const common = resolveCommon(options);
  const url = validateUrl(options.url, 'url');
  if (options.pid !== undefined && (!Number.isInteger(options.pid) || options.pid < 1)) {
    throw invalidOption('pid', 'a process id (a whole number above 0)', options.pid);
  }
  // Checked at run time too: JavaScript callers get no type check.
  const logFrom: string | undefined = options.logFrom;
  if (logFrom !== undefined && logFrom !== 'start' && logFrom !== 'end') {
    throw invalidOption('logFrom', 'start or end', logFrom);
  }
  if (options.log?.trim() === '') throw invalidOption('log', 'a file path', options.log);
  return { common, url };
};

// Says up front what a watch without a log or a process cannot see.
export const emitBlindSpots = (emit: StartRun['emit'], watched: { log: boolean; pid: boolean }): void => {
  if (!watched.log) {
    emit({
      type: 'notice',
      code: 'no-log',
      message: 'no log followed (--log): no stall detection, no phases',
    });
  }
  if (!watched.pid) {
    emit({
      type: 'notice',
      code: 'no-pid',
      message: 'no process watched (--pid): a crash shows only as failed probes until --timeout',
    });
  }
};

// A host that could not be reached before the watch began: exit 6, with ssh's own explanation.
export const unreachableAtStart = (error: unknown, startedAt: number): FailedFields =>
  plainFailure(
    'unreachable',
    {
      class: 'unknown',
      summary: error instanceof Error ? error.message : String(error),
      evidence: [],
      advice: [],
    },
    Math.round(performance.now() - startedAt),
  );
