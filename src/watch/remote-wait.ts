// watch() on a remote host (`vigil wait --host`): the pid, the log and the URL are the host's, and the host's
// watcher feeds the same loop. Nothing is launched and nothing is stopped.
import type { VigilEvent } from '../events.ts';
import { EXIT } from '../exit-codes.ts';
import { invalidOption } from '../errors.ts';
import { getEngine } from '../engines/index.ts';
import { createRedactor } from '../redact/redactor.ts';
import { createStartTracker } from '../diagnose/tracker.ts';
import { createDiagnoser } from '../diagnose/diagnoser.ts';
import { parseDestination } from '../hosts/remote/destination.ts';
import { createRemoteHost } from '../hosts/remote/host.ts';
import { createRemoteWatch } from '../hosts/remote/watch-session.ts';
import { stateDir as defaultStateDir } from '../state/dir.ts';
import { createChannel } from './channel.ts';
import { runWatchLoop, type Emittable } from './loop.ts';
import { resolveCommon, validateUrl, type WatchOptions } from './options.ts';
import {
  failureFromOutcome,
  hostRebootedFailure,
  plainFailure,
  redactFailure,
  type StartHandle,
  type StartResult,
} from './result.ts';
import { resolveTarget } from './target.ts';

export const watchRemote = (options: WatchOptions): StartHandle => {
  const common = resolveCommon(options);
  const url = validateUrl(options.url, 'url');
  if (options.pid !== undefined && (!Number.isInteger(options.pid) || options.pid < 1)) {
    throw invalidOption('pid', 'a process id (a whole number above 0)', options.pid);
  }
  if (options.log?.trim() === '') throw invalidOption('log', 'a file path', options.log);
  const engine = common.engine === 'auto' ? 'generic' : common.engine;
  const spec = getEngine(engine);
  const log = options.log ?? null;
  const target = resolveTarget({
    spec,
    command: null,
    url,
    port: common.port,
    followsLog: log !== null,
    apiKey: options.apiKey ?? null,
  });
  const remote = options.remote ?? {};
  const host = createRemoteHost({
    destination: parseDestination(options.host ?? ''),
    stateDir: options.stateDir ?? defaultStateDir(),
    ...(remote.sshConfig === undefined ? {} : { configFile: remote.sshConfig }),
    ...(remote.sshOptions === undefined ? {} : { options: remote.sshOptions }),
    ...(remote.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: remote.connectTimeoutMs }),
  });
  const redact = createRedactor({
    env: process.env,
    ...(options.apiKey === undefined ? {} : { secrets: [options.apiKey] }),
  });
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
    const fail = (fields: Parameters<typeof redactFailure>[0]): StartResult => {
      const safe = redactFailure(fields, redact);
      const event = { ...safe, type: 'failed' as const, t: emit({ type: 'failed', ...safe }).t };
      return {
        ok: false,
        exitCode: safe.exit_code,
        elapsedMs: safe.elapsed_ms,
        id: null,
        url: url.origin,
        event,
      };
    };
    let ids;
    try {
      await host.connect(options.signal === undefined ? {} : { signal: options.signal });
      ids = await host.identify(options.pid ?? null, log);
    } catch (error) {
      const summary = error instanceof Error ? error.message : String(error);
      return fail(
        plainFailure(
          'unreachable',
          { class: 'unknown', summary, evidence: [], advice: [] },
          Math.round(performance.now() - startedAt),
        ),
      );
    }
    if (options.pid === undefined) {
      emit({
        type: 'notice',
        code: 'no-pid',
        message: 'no process watched (--pid): a crash shows only as failed probes until --timeout',
      });
    }
    if (log === null) {
      emit({
        type: 'notice',
        code: 'no-log',
        message: 'no log followed (--log): no stall detection, no phases',
      });
    }
    const watch = createRemoteWatch({
      transport: host.transport,
      launch: {
        id: `wait-${String(process.pid)}-${String(options.pid ?? 0)}`,
        pid: options.pid ?? null,
        pgid: null,
        sid: null,
        starttime: typeof ids.starttime === 'number' ? ids.starttime : null,
        bootId: ids.bootId,
        exitFile: null,
        log,
        logOffset: options.logFrom === 'end' ? ids.logSize : 0,
      },
      url: target.healthUrl,
      headers: target.headers,
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
    const diagnoser = createDiagnoser({ engine: common.engine === 'auto' ? 'auto' : engine, redact });
    let outcome;
    try {
      outcome = await runWatchLoop({
        spec,
        target,
        tracker: createStartTracker(spec),
        diagnoser,
        redact,
        emit,
        log: log === null ? null : { path: log, fromOffset: options.logFrom === 'end' ? ids.logSize : 0 },
        liveness: options.pid === undefined ? null : watch.liveness,
        createFollower: (o) => watch.createFollower(o),
        createProber: (o) => watch.createProber(o),
        link: watch.link,
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
      watch.close();
    }
    if (outcome.end.kind === 'ready') {
      const ready = {
        type: 'ready' as const,
        elapsed_ms: outcome.elapsedMs,
        url: url.origin,
        health_url: target.healthUrl,
      };
      return {
        ok: true,
        exitCode: EXIT.ready,
        elapsedMs: outcome.elapsedMs,
        id: null,
        url: url.origin,
        event: { ...ready, t: emit(ready).t },
      };
    }
    const fields = failureFromOutcome(outcome, diagnoser, common);
    if (outcome.end.kind === 'exited' && outcome.end.end.hostRebooted === true) {
      return fail(hostRebootedFailure(fields, `${host.name} rebooted: the server is gone`));
    }
    return fail(fields);
  };
  const result = run().finally(() => {
    channel.close();
  });
  return { events: channel, result, redact };
};
