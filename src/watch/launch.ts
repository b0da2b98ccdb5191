// launch(): preflight, test-bind, spawn detached with the log as stdout/stderr, record, watch, and stop the
// server again when the start fails (unless asked not to).
import { join } from 'node:path';
import { VigilError, isVigilError } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import type { Diagnosis, VigilEvent } from '../events.ts';
import { createRedactor, type Redactor } from '../redact/redactor.ts';
import { spawnDetached, type DetachedProcess } from '../hosts/spawn.ts';
import { listTree, stopTree } from '../hosts/kill.ts';
import { LAUNCH_ID_VAR, launchMarker, readProcStat } from '../hosts/proc.ts';
import { createLaunchCgroup, NO_CGROUP_VAR, removeCgroup, type LaunchCgroup } from '../hosts/cgroup.ts';
import {
  newLaunchId,
  stopWasRequested,
  rewriteLaunchRecord,
  writeLaunchRecord,
  type LaunchRecord,
} from '../state/records.ts';
import { prepareLaunchWatch } from './launch-watch.ts';
import { createStartRun, type StartRun } from './start-run.ts';
import { resolveLaunch, type LaunchConfig } from './launch-config.ts';
import { watchLaunched } from './liveness.ts';
import { runWatchLoop, type Emittable, type LoopEnd } from './loop.ts';
import type { LaunchOptions } from './options.ts';
import { checkPort } from './port-check.ts';
import { endReadyLaunch } from './launch-ready.ts';
import { launchRemote } from './remote-launch.ts';
import { isLocalHost } from '../hosts/remote/destination.ts';
import { runPreflightStep } from './preflight-step.ts';
import { commandProblem } from './command-check.ts';
import { explainFullDisk } from './disk-full.ts';
import { checkLogPath, prepareStateDir, type PathNotice } from '../state/usable-paths.ts';
import { acquirePortLock } from '../state/port-lock.ts';
import {
  failureFromOutcome,
  plainFailure,
  type FailedFields,
  type StartHandle,
  type StartResult,
} from './result.ts';

// Launches a server and watches it start. Throws UsageError at once for invalid options, before any side effect.
export const launch = (options: LaunchOptions): StartHandle => {
  if (!isLocalHost(options.host)) return launchRemote(options);
  const config = resolveLaunch(options);
  // The API key may come from a --config file rather than argv: it is a secret either way.
  const redact = createRedactor({
    argv: config.command,
    env: config.env,
    secrets: config.server.apiKey === null ? [] : [config.server.apiKey],
    urls: [config.options.url ?? '', config.target.healthUrl ?? ''],
  });
  const start = createStartRun(redact);
  return start.handle(() => runLaunch(config, redact, start));
};

const runLaunch = async (config: LaunchConfig, redact: Redactor, start: StartRun): Promise<StartResult> => {
  const { emit } = start;
  const t0 = performance.now();
  const since = (): number => Math.round(performance.now() - t0);
  const signal = config.options.signal;
  const fail = (fields: FailedFields, id: string | null = null): StartResult =>
    start.fail(fields, { id, url: config.target.origin });
  // A function, not a property read: the signal changes while preflight and the port check are awaited.
  const aborted = (): boolean => signal?.aborted === true;
  const interrupted = (): StartResult =>
    fail(plainFailure('interrupted', simpleDiagnosis('interrupted before the server was launched'), since()));

  try {
    return await launchChecked(config, redact, emit, { fail, since, aborted, interrupted });
  } catch (error) {
    // vigil's own errors (a state directory gone bad mid-start) end the start like any failure: one clear line,
    // and in jsonl a final `failed` event; anything else is a bug and goes on to the CLI's internal-error path.
    if (!isVigilError(error)) throw error;
    const summary = error.message;
    return fail(plainFailure('preflight', simpleDiagnosis(summary, error.hint, 'invalid-value'), since()));
  }
};

interface LaunchSteps {
  fail: (fields: FailedFields, id?: string | null) => StartResult;
  since: () => number;
  aborted: () => boolean;
  interrupted: () => StartResult;
}

const launchChecked = async (
  config: LaunchConfig,
  redact: Redactor,
  emit: (event: Emittable) => VigilEvent,
  steps: LaunchSteps,
): Promise<StartResult> => {
  const { fail, since, aborted, interrupted } = steps;
  if (aborted()) return interrupted();
  if (config.preflight) {
    const blocked = await runPreflightStep(config, emit);
    if (aborted()) return interrupted();
    if (blocked !== null) return fail(plainFailure('preflight', blocked, since()));
  }
  // The command, the state directory and the log are checked before the port: --replace stops another launch.
  const unusable = (problem: string, hint: string): StartResult =>
    fail(plainFailure('preflight', simpleDiagnosis(problem, hint, 'invalid-value'), since()));
  const notices: PathNotice[] = [];
  const problem = commandProblem(config.spawnArgv[0] ?? '', config.cwd, config.env['PATH'] ?? '');
  if (problem !== null) {
    return unusable(
      `cannot run the server: ${problem}`,
      'check the command after --, or give the full path to the executable',
    );
  }
  const state = prepareStateDir(config.stateDir);
  if (!state.ok) return unusable(state.problem, state.hint);
  notices.push(...state.notices);
  const logTarget = config.log === null ? null : checkLogPath(config.log);
  if (logTarget !== null && !logTarget.ok) return unusable(logTarget.problem, logTarget.hint);
  if (logTarget !== null) notices.push(...logTarget.notices);
  for (const notice of notices) emit({ type: 'notice', ...notice });

  // One start per host and port: held from the port check until the launch record exists, which then keeps
  // later starts out on its own.
  const lockPort = config.target.bind?.port ?? config.server.port;
  const lock = lockPort === null ? null : acquirePortLock(config.stateDir, 'local', lockPort);
  if (lock !== null && !lock.held) {
    return fail(
      plainFailure(
        'preflight',
        {
          class: 'port-in-use',
          summary: `port ${lockPort} is being started by another vigil up (pid ${lock.owner.pid})`,
          evidence: [],
          advice: [
            `wait for that start: vigil status lists it once launched, and vigil wait can watch it`,
            `or stop it with vigil stop ID, or launch again with --replace once it is recorded`,
          ],
        },
        since(),
      ),
    );
  }
  try {
    return await launchLocked(config, redact, emit, steps, unusable, logTarget, () => {
      if (lock?.held === true) lock.release();
    });
  } finally {
    if (lock?.held === true) lock.release();
  }
};

const launchLocked = async (
  config: LaunchConfig,
  redact: Redactor,
  emit: (event: Emittable) => VigilEvent,
  { fail, since, aborted, interrupted }: LaunchSteps,
  unusable: (problem: string, hint: string) => StartResult,
  logTarget: ReturnType<typeof checkLogPath> | null,
  releaseLock: () => void,
): Promise<StartResult> => {
  const signal = config.options.signal;
  if (config.target.bind !== null) {
    const check = await checkPort({
      ...config.target.bind,
      stateDir: config.stateDir,
      replace: config.replace,
      graceMs: config.graceMs,
      redact,
      onNotice: (code, message) => {
        emit({ type: 'notice', code, message });
      },
      ...(config.options.skipGraceSignal === undefined ? {} : { skipGrace: config.options.skipGraceSignal }),
    });
    if (!check.free) return fail(plainFailure('preflight', check.diagnosis, since()));
  }
  if (aborted()) return interrupted();

  const id = newLaunchId(config.server.engine, config.target.bind?.port ?? config.server.port);
  const logValue = logTarget?.ok === true ? logTarget.value : null;
  const logPath =
    logValue === null
      ? join(config.stateDir, 'logs', `${id}.log`)
      : logValue.kind === 'none'
        ? '/dev/null'
        : logValue.path;
  const followLog = logValue?.kind !== 'none';
  // A cgroup of its own where the system allows; elsewhere the session, group and marker below do the tracking.
  const cgroup: LaunchCgroup = config.cgroup
    ? createLaunchCgroup(id)
    : { ok: false, reason: `turned off (${NO_CGROUP_VAR}=1)` };
  let child: DetachedProcess;
  try {
    child = await spawnDetached({
      argv: config.spawnArgv,
      logPath,
      env: { ...config.env, [LAUNCH_ID_VAR]: id },
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      ...(cgroup.ok ? { cgroup: cgroup.path } : {}),
    });
  } catch (error) {
    if (cgroup.ok) removeCgroup(cgroup.path);
    if (error instanceof VigilError && (error.code === 'E_SPAWN' || error.code === 'E_STATE')) {
      return unusable(error.message, error.hint ?? 'check the command and --log');
    }
    throw error;
  }
  if (cgroup.ok && child.cgroup === null) removeCgroup(cgroup.path);
  const startedAt = performance.now();
  // The tree to stop: the cgroup, the session and group, and processes that left them but carry the marker.
  const tree = { ...child, marker: launchMarker(id) };
  const stopOptions = {
    graceMs: config.graceMs,
    onStopping: (count: number) => {
      emit({
        type: 'notice',
        code: 'stopping',
        message: `stopping the server (${count} process${count === 1 ? '' : 'es'}): SIGTERM, then SIGKILL after ${config.graceMs} ms`,
      });
    },
    ...(config.options.skipGraceSignal === undefined ? {} : { skipGrace: config.options.skipGraceSignal }),
  };
  const record: LaunchRecord = {
    version: 1,
    id,
    engine: config.server.engine,
    host: 'local',
    pid: child.pid,
    pgid: child.pgid,
    sid: child.sid,
    proc_start: child.starttime,
    started_at: new Date().toISOString(),
    log: logPath,
    log_offset: child.logOffset,
    command: redact.argv(config.command),
    url: config.target.origin === null ? null : redact(config.target.origin),
    health_url: config.target.healthUrl === null ? null : redact(config.target.healthUrl),
    port: config.target.bind?.port ?? config.server.port,
    outcome: 'starting',
    ended_at: null,
    watcher: { pid: process.pid, proc_start: readProcStat(process.pid)?.starttime ?? null },
    cgroup: child.cgroup,
  };
  try {
    await writeLaunchRecord(config.stateDir, record);
    releaseLock();
  } catch (error) {
    // Without a record nobody could stop this server later: stop it now rather than orphan it.
    await stopTree(tree, stopOptions);
    throw new VigilError('E_STATE', `cannot write the launch record under ${config.stateDir}`, {
      cause: error,
      hint: 'check that the state directory ($XDG_STATE_HOME/vigil) is writable',
    });
  }
  emit({
    type: 'launched',
    id,
    pid: child.pid,
    pgid: child.pgid,
    host: 'local',
    log: logPath,
    log_offset: child.logOffset,
    command: redact.argv(config.command),
    health_url: config.target.healthUrl,
  });
  if (config.options.debug === true) {
    emit({ type: 'notice', code: 'cgroup', message: describeTracking(cgroup, child.cgroup) });
  }
  const commandPort = config.server.portSource === 'command' ? config.server.port : null;
  if (config.port !== null && commandPort !== null && config.port !== commandPort) {
    emit({
      type: 'notice',
      code: 'port-mismatch',
      message: `--port ${config.port} differs from the command's --port ${commandPort}; vigil probes ${config.port}`,
    });
  }
  if (config.target.noApi) {
    emit({
      type: 'notice',
      code: 'no-api',
      message: `node rank ${config.server.nodeRank} serves no HTTP API: vigil watches only its process and log`,
    });
  }

  const { spec, profile, diagnoser, tracker, settings } = await prepareLaunchWatch(
    config,
    redact,
    'local',
    signal,
  );
  const keepFor = (end: LoopEnd): boolean =>
    end.kind === 'interrupted' ? config.detachOnInterrupt : config.keepOnFailure;
  // Listed while the loop reads the log's last lines, so the stop below need not scan /proc again.
  let members: number[] | undefined;
  let outcome;
  try {
    outcome = await runWatchLoop({
      spec,
      target: config.target,
      tracker,
      diagnoser,
      redact,
      emit,
      log: followLog ? { path: logPath, fromOffset: child.logOffset } : null,
      liveness: watchLaunched(child),
      startedAt,
      ...settings,
      onEnding: (end) => {
        if (end.kind !== 'ready' && !keepFor(end)) members = listTree(tree);
      },
    });
  } catch (error) {
    if (!config.keepOnFailure) await stopTree(tree, stopOptions);
    throw error;
  }

  const ended = await endReadyLaunch(config, outcome, emit, { id, profile, tracker, record });
  if ('result' in ended) return ended.result;

  let fields =
    ended.smokeFailure === null
      ? await explainFullDisk(failureFromOutcome(outcome, diagnoser, config), followLog ? logPath : null)
      : plainFailure('smoke', ended.smokeFailure, since());
  const stopRequested = outcome.end.kind === 'exited' && (await stopWasRequested(config.stateDir, id));
  if (stopRequested) fields = stoppedByCommand(fields, id);
  const keep = keepFor(outcome.end);
  if (keep) {
    fields.kept_running = true;
  } else {
    const stopped = await stopTree(tree, { ...stopOptions, ...(members === undefined ? {} : { members }) });
    fields.kept_running = false;
    if (stopped.survivors.length > 0) {
      fields.survivors = stopped.survivors.map((s) => ({ ...s, command: redact(s.command) }));
    }
  }
  const result = fail(fields, id);
  await rewriteRecord(config.stateDir, record, {
    outcome: stopRequested ? 'stopped' : 'failed',
    ended_at: keep ? null : new Date().toISOString(),
  });
  return result;
};

// The record's final outcome; the start has ended either way, so a state directory gone bad does not change it
// (`vigil status` then shows the launch as still starting, and reads its live state from /proc).
const rewriteRecord = (...args: Parameters<typeof rewriteLaunchRecord>): Promise<void> =>
  rewriteLaunchRecord(...args).catch(() => undefined);

// A launch that `vigil stop` ended while it was starting: said as such (exit 130), not as a crash with advice.
const stoppedByCommand = (fields: FailedFields, id: string): FailedFields => ({
  ...fields,
  reason: 'interrupted',
  exit_code: EXIT.interrupted,
  message: `stopped by vigil stop ${id} before it was ready`,
  diagnosis: {
    class: 'unknown',
    summary: `the server was stopped by vigil stop ${id} before it was ready`,
    evidence: [],
    advice: [],
  },
});

// How vigil will find the launch's processes when it stops them (a --debug notice).
const describeTracking = (made: LaunchCgroup, joined: string | null): string =>
  joined !== null
    ? `the server runs in its own cgroup ${joined}; vigil stop and a failed start stop everything in it`
    : `no cgroup for this launch (${made.ok ? `the kernel refused to move the server into ${made.path}` : made.reason}); vigil stops it through its session, process group and ${LAUNCH_ID_VAR}`;

const simpleDiagnosis = (
  summary: string,
  hint?: string,
  kind: Diagnosis['class'] = 'unknown',
): Diagnosis => ({
  class: kind,
  summary,
  evidence: [],
  advice: hint === undefined ? [] : [hint],
});
