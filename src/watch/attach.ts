// attach(): watch a recorded launch again (after vigil was killed, or from another terminal), here or on its
// host, picking its log up at the offset the record holds. Nothing is stopped: the watch only reports.
import type { VigilEvent } from '../events.ts';
import { EXIT } from '../exit-codes.ts';
import { ENGINES, getEngine } from '../engines/index.ts';
import type { EngineId } from '../engines/types.ts';
import { createRedactor } from '../redact/redactor.ts';
import { createStartTracker } from '../diagnose/tracker.ts';
import { createDiagnoser } from '../diagnose/diagnoser.ts';
import { readProcStat } from '../hosts/proc.ts';
import { createRemoteWatch, type RemoteWatch } from '../hosts/remote/watch-session.ts';
import { hostOfRecord, isRemoteRecord, remoteIdsOf } from '../state/launch-host.ts';
import { findLaunchRecord, type LaunchRecord } from '../state/records.ts';
import { createChannel } from './channel.ts';
import { watchPid, type Liveness } from './liveness.ts';
import { runWatchLoop, type Emittable, type LoopInput } from './loop.ts';
import { resolveCommon, type RemoteOptions, type WatchCommonOptions } from './options.ts';
import {
  failureFromOutcome,
  hostRebootedFailure,
  plainFailure,
  redactFailure,
  type StartHandle,
  type StartResult,
} from './result.ts';
import { isCheap, type ProbeTarget } from './target.ts';

export interface AttachOptions extends WatchCommonOptions {
  /** A launch id or an unambiguous prefix. */
  id: string;
  stateDir: string;
  /** ssh settings that win over the record's. */
  remote?: RemoteOptions;
}

// Every engine id the registry knows (a record may name one).
const ENGINE_IDS = new Set<string>(Object.keys(ENGINES));

export const attach = (options: AttachOptions): StartHandle => {
  const common = resolveCommon(options);
  const redact = createRedactor({ env: process.env });
  const channel = createChannel<VigilEvent>();
  const emit = (event: Emittable): VigilEvent => {
    const t = Math.round(performance.now());
    const stamped: VigilEvent =
      event.type === 'notice' ? { ...event, message: redact(event.message), t } : { ...event, t };
    channel.push(stamped);
    return stamped;
  };
  const run = async (): Promise<StartResult> => {
    const startedAt = performance.now();
    const record = await findLaunchRecord(options.stateDir, options.id);
    const engine = (ENGINE_IDS.has(record.engine) ? record.engine : 'generic') as EngineId;
    const spec = getEngine(engine);
    const follows = record.log !== '/dev/null';
    const target: ProbeTarget = {
      healthUrl: record.health_url,
      origin: record.url,
      headers: {},
      needReadyLine: follows && spec.readyLine !== null,
      noApi: record.health_url === null,
      bind: null,
      fastProbe: record.health_url !== null && isCheap(spec, new URL(record.health_url).pathname),
    };
    const fail = (fields: Parameters<typeof redactFailure>[0]): StartResult => {
      const safe = redactFailure(fields, redact);
      const event = { ...safe, type: 'failed' as const, t: emit({ type: 'failed', ...safe }).t };
      return {
        ok: false,
        exitCode: safe.exit_code,
        elapsedMs: safe.elapsed_ms,
        id: record.id,
        url: record.url,
        event,
      };
    };
    let watch: RemoteWatch | null = null;
    let liveness: Liveness;
    let sources: Pick<LoopInput, 'createFollower' | 'createProber' | 'link'> = {};
    if (isRemoteRecord(record)) {
      const host = hostOfRecord(record, options.stateDir, options.remote);
      try {
        await host.connect();
      } catch (error) {
        return fail(
          plainFailure(
            'unreachable',
            {
              class: 'unknown',
              summary: error instanceof Error ? error.message : String(error),
              evidence: [],
              advice: [],
            },
            Math.round(performance.now() - startedAt),
          ),
        );
      }
      watch = createRemoteWatch({
        transport: host.transport,
        launch: {
          ...remoteIdsOf(record),
          bootId: record.boot_id ?? '',
          exitFile: record.exit_file ?? '',
          log: follows ? record.log : null,
          logOffset: record.log_offset,
        },
        url: record.health_url,
        headers: {},
        intervalMs: common.intervalMs,
        probeTimeoutMs: common.probeTimeoutMs,
        deadline: startedAt + common.timeoutMs,
        onUnreachable: (sinceMs) => {
          emit({ type: 'unreachable', host: host.name, since_ms: sinceMs });
        },
        onReconnected: (afterMs) => {
          emit({ type: 'reconnected', host: host.name, after_ms: afterMs });
        },
      });
      await watch.connect().catch(() => undefined);
      liveness = watch.liveness;
      const remote = watch;
      sources = {
        createFollower: (o) => remote.createFollower(o),
        createProber: (o) => remote.createProber(o),
        link: remote.link,
      };
    } else {
      liveness = localLiveness(record);
    }
    emit({
      type: 'notice',
      code: 'attached',
      message: `watching launch ${record.id} on ${record.host} (pid ${record.pid})`,
    });
    const diagnoser = createDiagnoser({ engine, redact });
    let outcome;
    try {
      outcome = await runWatchLoop({
        spec,
        target,
        tracker: createStartTracker(spec),
        diagnoser,
        redact,
        emit,
        log: follows ? { path: record.log, fromOffset: record.log_offset } : null,
        liveness,
        ...sources,
        startedAt,
        timeoutMs: common.timeoutMs,
        stallTimeoutMs: common.stallTimeoutMs,
        heartbeatMs: common.heartbeatMs,
        intervalMs: common.intervalMs,
        probeTimeoutMs: common.probeTimeoutMs,
        successThreshold: common.successThreshold,
        expectStatus: common.expectStatus,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } finally {
      watch?.close();
    }
    if (outcome.end.kind === 'ready') {
      const ready = {
        type: 'ready' as const,
        elapsed_ms: outcome.elapsedMs,
        url: record.url ?? '',
        health_url: record.health_url,
        id: record.id,
      };
      return {
        ok: true,
        exitCode: EXIT.ready,
        elapsedMs: outcome.elapsedMs,
        id: record.id,
        url: record.url,
        event: { ...ready, t: emit(ready).t },
      };
    }
    const fields = failureFromOutcome(outcome, diagnoser, common);
    if (outcome.end.kind === 'exited' && outcome.end.end.hostRebooted === true) {
      return fail(
        hostRebootedFailure(fields, `${record.host} rebooted since the launch: the server is gone`),
      );
    }
    return fail(fields);
  };
  const result = run().finally(() => {
    channel.close();
  });
  return { events: channel, result, redact };
};

// This machine: the recorded leader, unless its pid now belongs to another process.
const localLiveness = (record: LaunchRecord): Liveness => {
  const now = readProcStat(record.pid);
  if (now !== null && record.proc_start !== null && now.starttime !== record.proc_start) {
    return {
      start(handlers) {
        handlers.onEnd({
          code: null,
          signal: null,
          detail: `process ${record.pid} is gone (its pid was reused)`,
        });
      },
      stop() {},
    };
  }
  return watchPid(record.pid);
};
