// launch() on a remote host: the same steps as a local launch (preflight, port test, spawn, record, watch, stop
// on failure), each done on the host over one SSH master connection. The watch loop gets its three signals from
// the host's watcher and does not know they came over SSH.
import type { Diagnosis } from '../events.ts';
import { EXIT } from '../exit-codes.ts';
import { isVigilError } from '../errors.ts';
import { createRedactor, type Redactor } from '../redact/redactor.ts';
import { parseDestination } from '../hosts/remote/destination.ts';
import { createRemoteHost, type RemoteHost } from '../hosts/remote/host.ts';
import { stdinShell } from '../hosts/remote/quote.ts';
import { createRemoteWatch, type RemoteWatch } from '../hosts/remote/watch-session.ts';
import { newLaunchId, rewriteLaunchRecord, writeLaunchRecord, type LaunchRecord } from '../state/records.ts';
import { prepareLaunchWatch } from './launch-watch.ts';
import { createStartRun, type StartRun } from './start-run.ts';
import { resolveLaunch, type LaunchConfig } from './launch-config.ts';
import { runWatchLoop } from './loop.ts';
import type { LaunchOptions } from './options.ts';
import { runPreflightStep } from './preflight-step.ts';
import { endReadyLaunch } from './launch-ready.ts';
import {
  failureFromOutcome,
  plainFailure,
  type FailedFields,
  type StartHandle,
  type StartResult,
} from './result.ts';

// Launches on options.host; throws UsageError at once for invalid options, before anything connects.
export const launchRemote = (options: LaunchOptions): StartHandle => {
  const config = resolveLaunch(options);
  const destination = parseDestination(options.host ?? '');
  const remote = options.remote ?? {};
  stdinShell(remote.remoteShell);
  const host = createRemoteHost({
    destination,
    stateDir: config.stateDir,
    ...(remote.sshConfig === undefined ? {} : { configFile: remote.sshConfig }),
    ...(remote.sshOptions === undefined ? {} : { options: remote.sshOptions }),
    ...(remote.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: remote.connectTimeoutMs }),
    ...(remote.remoteShell === undefined ? {} : { remoteShell: remote.remoteShell }),
    ...(remote.activate === undefined ? {} : { activate: remote.activate }),
  });
  // A password in --url is a secret too: events and the launch record show the URL without it.
  const redact = createRedactor({
    argv: config.command,
    env: { ...options.env },
    secrets: config.server.apiKey === null ? [] : [config.server.apiKey],
    urls: [config.options.url ?? '', config.target.healthUrl ?? ''],
  });
  const start = createStartRun(redact);
  return start.handle(() => runRemote(config, host, redact, start));
};

const diagnosisOf = (
  summary: string,
  cls: Diagnosis['class'] = 'unknown',
  advice: string[] = [],
): Diagnosis => ({
  class: cls,
  summary,
  evidence: [],
  advice,
});

// Launch-script errors: what the user must fix before the server can start (exit 2), or vigil's own trouble.
const SCRIPT_ERRORS: Record<
  string,
  { reason: 'preflight' | 'exited'; cls: Diagnosis['class']; advice: string }
> = {
  'not-found': {
    reason: 'preflight',
    cls: 'unknown',
    advice: 'check the command, or use --activate to set up PATH',
  },
  cwd: { reason: 'preflight', cls: 'unknown', advice: 'give --cwd a folder that exists on the host' },
  log: { reason: 'preflight', cls: 'unknown', advice: 'give --log a writable path on the host' },
  activate: { reason: 'preflight', cls: 'unknown', advice: 'run the --activate command by hand on the host' },
  'port-locked': {
    reason: 'preflight',
    cls: 'port-in-use',
    advice: 'stop that launch (vigil stop ID) or use another --port',
  },
};

const runRemote = async (
  config: LaunchConfig,
  host: RemoteHost,
  redact: Redactor,
  start: StartRun,
): Promise<StartResult> => {
  const { emit } = start;
  const t0 = performance.now();
  const since = (): number => Math.round(performance.now() - t0);
  const signal = config.options.signal;
  const fail = (fields: FailedFields, id: string | null = null): StartResult =>
    start.fail(fields, { id, url: config.target.origin });
  const unreachable = (error: unknown): StartResult => {
    const hint = isVigilError(error) ? error.hint : undefined;
    return fail(
      plainFailure(
        'unreachable',
        diagnosisOf(
          error instanceof Error ? error.message : String(error),
          'unknown',
          hint === undefined ? [] : [hint],
        ),
        since(),
      ),
    );
  };
  const interrupted = (): StartResult =>
    fail(plainFailure('interrupted', diagnosisOf('interrupted before the server was launched'), since()));
  const aborted = (): boolean => signal?.aborted === true;

  // Unreachable, auth failure or an unknown host key: exit 6, nothing launched.
  try {
    await host.connect(signal === undefined ? {} : { signal });
  } catch (error) {
    if (aborted()) return interrupted();
    return unreachable(error);
  }
  if (aborted()) return interrupted();
  if (config.preflight) {
    let blocked: Diagnosis | null;
    try {
      blocked = await runPreflightStep(config, emit, host);
    } catch (error) {
      if (isVigilError(error) && error.code === 'E_UNREACHABLE') return unreachable(error);
      throw error;
    }
    if (aborted()) return interrupted();
    if (blocked !== null) return fail(plainFailure('preflight', blocked, since()));
  }
  if (config.target.bind !== null) {
    const { host: bindHost, port } = config.target.bind;
    const check = await host.checkPort(bindHost, port).catch((error: unknown) => error);
    if (check instanceof Error) return unreachable(check);
    const held = check as Awaited<ReturnType<RemoteHost['checkPort']>>;
    if (!held.free) {
      const summary =
        held.holder === null
          ? `port ${port} is already in use on ${host.name} (the process holding it is not visible from here)`
          : `port ${port} is already in use on ${host.name} by pid ${held.holder.pid} (${redact(held.holder.command)})`;
      return fail(
        plainFailure(
          'preflight',
          diagnosisOf(summary, 'port-in-use', [
            'stop whatever listens there, or give the server another --port',
          ]),
          since(),
        ),
      );
    }
  }
  if (aborted()) return interrupted();

  const port = config.target.bind?.port ?? config.server.port;
  const id = newLaunchId(config.server.engine, port);
  let report;
  try {
    report = await host.launch({
      id,
      argv: config.spawnArgv,
      env: config.options.env ?? {},
      log: config.log,
      port,
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      ...(config.options.remote?.activate === undefined ? {} : { activate: config.options.remote.activate }),
    });
  } catch (error) {
    return unreachable(error);
  }
  if (!report.ok) {
    const known = SCRIPT_ERRORS[report.code];
    return fail(
      plainFailure(
        known?.reason ?? 'exited',
        diagnosisOf(
          `${host.name}: ${report.message}`,
          known?.cls ?? 'unknown',
          known === undefined ? [] : [known.advice],
        ),
        since(),
      ),
    );
  }
  const startedAt = performance.now();
  const remote = config.options.remote ?? {};
  const record: LaunchRecord = {
    version: 1,
    id,
    engine: config.server.engine,
    host: host.name,
    pid: report.pid,
    pgid: report.pgid,
    sid: report.sid,
    proc_start: report.starttime,
    started_at: new Date().toISOString(),
    log: report.log,
    log_offset: report.logOffset,
    command: redact.argv(config.command),
    url: config.target.origin === null ? null : redact(config.target.origin),
    health_url: config.target.healthUrl === null ? null : redact(config.target.healthUrl),
    port,
    outcome: 'starting',
    ended_at: null,
    boot_id: report.bootId,
    exit_file: report.exitFile,
    ssh: {
      config: remote.sshConfig ?? null,
      options: [...(remote.sshOptions ?? [])],
      connect_timeout_ms: remote.connectTimeoutMs ?? null,
      remote_shell: remote.remoteShell ?? null,
    },
  };
  const ids = {
    id,
    pid: report.pid,
    pgid: report.pgid,
    sid: report.sid,
    starttime: report.starttime,
    bootId: report.bootId,
  };
  const stopServer = async (): Promise<FailedFields['survivors']> => {
    emit({
      type: 'notice',
      code: 'stopping',
      message: `stopping the server on ${host.name}: SIGTERM, then SIGKILL after ${config.graceMs} ms`,
    });
    const stopped = await host.stop(ids, config.graceMs).catch(() => null);
    return stopped?.survivors.map((s) => ({ ...s, command: redact(s.command) }));
  };
  try {
    await writeLaunchRecord(config.stateDir, record);
  } catch (error) {
    await stopServer();
    throw error;
  }
  emit({
    type: 'launched',
    id,
    pid: report.pid,
    pgid: report.pgid,
    host: host.name,
    log: report.log,
    log_offset: report.logOffset,
    command: redact.argv(config.command),
    health_url: config.target.healthUrl,
  });

  const { spec, profile, diagnoser, tracker, settings } = await prepareLaunchWatch(
    config,
    redact,
    host.name,
    signal,
  );
  const follows = report.log !== '/dev/null';
  const watch: RemoteWatch = createRemoteWatch({
    transport: host.transport,
    launch: {
      ...ids,
      bootId: report.bootId,
      exitFile: report.exitFile,
      log: follows ? report.log : null,
      logOffset: report.logOffset,
    },
    url: config.target.healthUrl,
    headers: config.target.headers,
    intervalMs: config.intervalMs,
    probeTimeoutMs: config.probeTimeoutMs,
    deadline: startedAt + config.timeoutMs,
    onUnreachable: (sinceMs) => {
      emit({ type: 'unreachable', host: host.name, since_ms: sinceMs });
      emit({
        type: 'notice',
        code: 'host-unreachable',
        message: `host ${host.name} unreachable since ${new Date().toISOString().slice(11, 19)} UTC; retrying (the server keeps running)`,
      });
    },
    onReconnected: (afterMs) => {
      emit({ type: 'reconnected', host: host.name, after_ms: afterMs });
    },
  });
  try {
    await watch.connect();
  } catch {
    // The first watcher could not start: the loop's link handling keeps trying until the deadline.
  }
  const keepFor = (kind: string): boolean =>
    kind === 'interrupted' ? config.detachOnInterrupt : config.keepOnFailure;
  let outcome;
  try {
    outcome = await runWatchLoop({
      spec,
      target: config.target,
      tracker,
      diagnoser,
      redact,
      emit,
      log: follows ? { path: report.log, fromOffset: report.logOffset } : null,
      liveness: watch.liveness,
      createFollower: (options) => watch.createFollower(options),
      createProber: (options) => watch.createProber(options),
      link: watch.link,
      startedAt,
      ...settings,
      // The exit is news at once; stopping what is left on the host takes another round trip.
      onEnding: (end) => {
        if (end.kind === 'exited' && end.end.hostRebooted !== true) {
          emit({
            type: 'notice',
            code: 'server-exited',
            message: `the server exited on ${host.name}: ${end.end.detail}`,
          });
        }
      },
    });
  } finally {
    watch.close();
  }

  const ended = await endReadyLaunch(config, outcome, emit, { id, profile, tracker, record }, host.transport);
  if ('result' in ended) return ended.result;

  let fields =
    ended.smokeFailure === null
      ? failureFromOutcome(
          outcome,
          diagnoser,
          config,
          `${host.name} rebooted during the start (its boot id changed): the server is gone`,
        )
      : plainFailure('smoke', ended.smokeFailure, since());
  const rebooted = outcome.end.kind === 'exited' && outcome.end.end.hostRebooted === true;
  const lostLink = outcome.end.kind === 'timeout' && watch.isDown();
  if (lostLink) {
    fields = {
      ...fields,
      reason: 'unreachable',
      exit_code: EXIT.unreachable,
      diagnosis: diagnosisOf(`${host.name} was still unreachable when --timeout ran out`, 'unknown', [
        `the server may still be running: vigil attach ${id} or vigil stop ${id} once the host answers`,
      ]),
      message: `${host.name} unreachable at the deadline; the server was left running`,
    };
  }
  const keep = keepFor(outcome.end.kind) || rebooted || lostLink;
  fields.kept_running = keep && !rebooted;
  if (!keep) {
    const survivors = await stopServer();
    if (survivors !== undefined && survivors.length > 0) fields.survivors = survivors;
  }
  const failed = fail(fields, id);
  await rewriteLaunchRecord(config.stateDir, record, {
    outcome: 'failed',
    ended_at: keep && !rebooted ? null : new Date().toISOString(),
  }).catch(() => undefined);
  return failed;
};
