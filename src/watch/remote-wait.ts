// watch() on a remote host (`vigil wait --host`): the pid, the log and the URL are the host's, and the host's
// watcher feeds the same loop. Nothing is launched and nothing is stopped.
import { getEngine } from '../engines/index.ts';
import { createRedactor } from '../redact/redactor.ts';
import { createStartTracker } from '../diagnose/tracker.ts';
import { createDiagnoser } from '../diagnose/diagnoser.ts';
import { parseDestination } from '../hosts/remote/destination.ts';
import { createRemoteHost, type RemoteHost } from '../hosts/remote/host.ts';
import { createRemoteWatch, type RemoteWatch, type RemoteWatchInput } from '../hosts/remote/watch-session.ts';
import { stateDir as defaultStateDir } from '../state/dir.ts';
import { runWatchLoop, type LoopInput } from './loop.ts';
import type { ResolvedCommon, WatchOptions } from './options.ts';
import { failureFromOutcome, type StartHandle } from './result.ts';
import {
  createStartRun,
  emitBlindSpots,
  loopSettings,
  resolveWaitOptions,
  unreachableAtStart,
  type StartRun,
} from './start-run.ts';
import { resolveTarget } from './target.ts';

export const watchRemote = (options: WatchOptions): StartHandle => {
  const { common, url } = resolveWaitOptions(options);
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
    urls: [options.url],
    ...(options.apiKey === undefined ? {} : { secrets: [options.apiKey] }),
  });
  const start = createStartRun(redact);
  const { emit } = start;
  const ids = { id: null, url: url.origin };
  return start.handle(async () => {
    const startedAt = performance.now();
    let found;
    try {
      await host.connect(options.signal === undefined ? {} : { signal: options.signal });
      found = await host.identify(options.pid ?? null, log);
    } catch (error) {
      return start.fail(unreachableAtStart(error, startedAt), ids);
    }
    emitBlindSpots(emit, { log: log !== null, pid: options.pid !== undefined });
    const fromOffset = options.logFrom === 'end' ? found.logSize : 0;
    const watch = watchOnHost(host, {
      launch: {
        id: `wait-${String(process.pid)}-${String(options.pid ?? 0)}`,
        pid: options.pid ?? null,
        pgid: null,
        sid: null,
        starttime: typeof found.starttime === 'number' ? found.starttime : null,
        bootId: found.bootId,
        exitFile: null,
        log,
        logOffset: fromOffset,
      },
      url: target.healthUrl,
      headers: target.headers,
      common,
      startedAt,
      emit,
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
        log: log === null ? null : { path: log, fromOffset },
        liveness: options.pid === undefined ? null : watch.liveness,
        ...loopSources(watch),
        startedAt,
        ...loopSettings(common, options.signal),
      });
    } finally {
      watch.close();
    }
    if (outcome.end.kind === 'ready') {
      return start.ready(
        { elapsed_ms: outcome.elapsedMs, url: url.origin, health_url: target.healthUrl },
        ids,
      );
    }
    return start.fail(
      failureFromOutcome(outcome, diagnoser, common, `${host.name} rebooted: the server is gone`),
      ids,
    );
  });
};

// The host's watcher for one launch, reporting a lost and a regained link as events.
export const watchOnHost = (
  host: RemoteHost,
  input: Pick<RemoteWatchInput, 'launch' | 'url' | 'headers'> & {
    common: ResolvedCommon;
    startedAt: number;
    emit: StartRun['emit'];
  },
): RemoteWatch =>
  createRemoteWatch({
    transport: host.transport,
    launch: input.launch,
    url: input.url,
    headers: input.headers,
    intervalMs: input.common.intervalMs,
    probeTimeoutMs: input.common.probeTimeoutMs,
    deadline: input.startedAt + input.common.timeoutMs,
    onUnreachable: (sinceMs) => {
      input.emit({ type: 'unreachable', host: host.name, since_ms: sinceMs });
    },
    onReconnected: (afterMs) => {
      input.emit({ type: 'reconnected', host: host.name, after_ms: afterMs });
    },
  });

// The loop reads the log and the probes through the host's watcher.
export const loopSources = (
  watch: RemoteWatch,
): Pick<LoopInput, 'createFollower' | 'createProber' | 'link'> => ({
  createFollower: (o) => watch.createFollower(o),
  createProber: (o) => watch.createProber(o),
  link: watch.link,
});
