// attach(): watch a recorded launch again (after vigil was killed, or from another terminal), here or on its
// host, picking its log up at the offset the record holds. Nothing is stopped: the watch only reports.
import { ENGINES, getEngine } from '../engines/index.ts';
import type { EngineId } from '../engines/types.ts';
import { createRedactor } from '../redact/redactor.ts';
import { createStartTracker } from '../diagnose/tracker.ts';
import { createDiagnoser } from '../diagnose/diagnoser.ts';
import { readProcStat } from '../hosts/proc.ts';
import type { RemoteWatch } from '../hosts/remote/watch-session.ts';
import { hostOfRecord, isRemoteRecord, remoteIdsOf } from '../state/launch-host.ts';
import { findLaunchRecord, type LaunchRecord } from '../state/records.ts';
import { watchPid, type Liveness } from './liveness.ts';
import { runWatchLoop, type LoopInput } from './loop.ts';
import { resolveCommon, type RemoteOptions, type WatchCommonOptions } from './options.ts';
import { loopSources, watchOnHost } from './remote-wait.ts';
import { failureFromOutcome, type StartHandle } from './result.ts';
import { createStartRun, loopSettings, unreachableAtStart } from './start-run.ts';
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
  const start = createStartRun(redact);
  const { emit } = start;
  return start.handle(async () => {
    const startedAt = performance.now();
    const record = await findLaunchRecord(options.stateDir, options.id);
    const ids = { id: record.id, url: record.url };
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
    let watch: RemoteWatch | null = null;
    let liveness: Liveness;
    let sources: Pick<LoopInput, 'createFollower' | 'createProber' | 'link'> = {};
    if (isRemoteRecord(record)) {
      const host = hostOfRecord(record, options.stateDir, options.remote);
      try {
        await host.connect();
      } catch (error) {
        return start.fail(unreachableAtStart(error, startedAt), ids);
      }
      watch = watchOnHost(host, {
        launch: {
          ...remoteIdsOf(record),
          bootId: record.boot_id ?? '',
          exitFile: record.exit_file ?? '',
          log: follows ? record.log : null,
          logOffset: record.log_offset,
        },
        url: record.health_url,
        headers: {},
        common,
        startedAt,
        emit,
      });
      await watch.connect().catch(() => undefined);
      liveness = watch.liveness;
      sources = loopSources(watch);
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
        ...loopSettings(common, options.signal),
      });
    } finally {
      watch?.close();
    }
    if (outcome.end.kind === 'ready') {
      return start.ready(
        {
          elapsed_ms: outcome.elapsedMs,
          url: record.url ?? '',
          health_url: record.health_url,
          id: record.id,
        },
        ids,
      );
    }
    const rebooted = `${record.host} rebooted since the launch: the server is gone`;
    return start.fail(failureFromOutcome(outcome, diagnoser, common, rebooted), ids);
  });
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
