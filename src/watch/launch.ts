// launch(): preflight, test-bind, spawn detached with the log as stdout/stderr, record, watch, and stop the
// server again when the start fails (unless asked not to).
import { join } from 'node:path';
import { VigilError } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import type { Diagnosis, PhaseId, VigilEvent } from '../events.ts';
import { getEngine } from '../engines/index.ts';
import { createRedactor, type Redactor } from '../redact/redactor.ts';
import { createStartTracker } from '../diagnose/tracker.ts';
import { createDiagnoser } from '../diagnose/diagnoser.ts';
import { spawnDetached, type DetachedProcess } from '../hosts/spawn.ts';
import { listTree, stopTree } from '../hosts/kill.ts';
import { newLaunchId, rewriteLaunchRecord, writeLaunchRecord, type LaunchRecord } from '../state/records.ts';
import { estimateRemaining, loadStarts, profileOf, recordStart } from '../state/history.ts';
import { createChannel } from './channel.ts';
import { resolveLaunch, type LaunchConfig } from './launch-config.ts';
import { watchLaunched } from './liveness.ts';
import { runWatchLoop, type Emittable, type LoopEnd } from './loop.ts';
import type { LaunchOptions } from './options.ts';
import { checkPort } from './port-check.ts';
import { launchRemote } from './remote-launch.ts';
import { isLocalHost } from '../hosts/remote/destination.ts';
import { runPreflightStep } from './preflight-step.ts';
import {
  failureFromOutcome,
  plainFailure,
  redactFailure,
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
  });
  const channel = createChannel<VigilEvent>();
  const result = runLaunch(config, redact, (event) => {
    const stamped = stamp(event, redact);
    channel.push(stamped);
    return stamped;
  }).finally(() => {
    channel.close();
  });
  return { events: channel, result, redact };
};

const stamp = (event: Emittable, redact: Redactor): VigilEvent => {
  const t = Math.round(performance.now());
  if (event.type === 'notice') return { ...event, message: redact(event.message), t };
  return { ...event, t };
};

const runLaunch = async (
  config: LaunchConfig,
  redact: Redactor,
  emit: (event: Emittable) => VigilEvent,
): Promise<StartResult> => {
  const t0 = performance.now();
  const since = (): number => Math.round(performance.now() - t0);
  const signal = config.options.signal;
  const fail = (fields: FailedFields, id: string | null = null): StartResult => {
    const safe = redactFailure(fields, redact);
    const event = { ...safe, type: 'failed' as const, t: emit({ type: 'failed', ...safe }).t };
    return {
      ok: false,
      exitCode: safe.exit_code,
      elapsedMs: safe.elapsed_ms,
      id,
      url: config.target.origin,
      event,
    };
  };
  // A function, not a property read: the signal changes while preflight and the port check are awaited.
  const aborted = (): boolean => signal?.aborted === true;
  const interrupted = (): StartResult =>
    fail(plainFailure('interrupted', simpleDiagnosis('interrupted before the server was launched'), since()));

  if (aborted()) return interrupted();
  if (config.preflight) {
    const blocked = await runPreflightStep(config, emit);
    if (aborted()) return interrupted();
    if (blocked !== null) return fail(plainFailure('preflight', blocked, since()));
  }
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
  const logPath = config.log ?? join(config.stateDir, 'logs', `${id}.log`);
  let child: DetachedProcess;
  try {
    child = await spawnDetached({
      argv: config.spawnArgv,
      logPath,
      env: config.env,
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    });
  } catch (error) {
    if (error instanceof VigilError && error.code === 'E_SPAWN') {
      return fail(plainFailure('exited', simpleDiagnosis(error.message, error.hint), since()));
    }
    throw error;
  }
  const startedAt = performance.now();
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
    url: config.target.origin,
    health_url: config.target.healthUrl,
    port: config.target.bind?.port ?? config.server.port,
    outcome: 'starting',
    ended_at: null,
  };
  try {
    await writeLaunchRecord(config.stateDir, record);
  } catch (error) {
    // Without a record nobody could stop this server later: stop it now rather than orphan it.
    await stopTree(child, stopOptions);
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

  const spec = getEngine(config.server.engine);
  const diagnoser = createDiagnoser({ engine: config.server.engine, redact });
  const tracker = createStartTracker(spec);
  // Earlier starts of the same profile give the ETA; without any, events carry none (never an invented one).
  const profile = profileOf({ engine: config.server.engine, argv: config.command, host: 'local' });
  const history = await loadStarts(profile, { dir: config.stateDir }).catch(() => []);
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
      log: { path: logPath, fromOffset: child.logOffset },
      liveness: watchLaunched(child),
      startedAt,
      timeoutMs: config.timeoutMs,
      stallTimeoutMs: config.stallTimeoutMs,
      heartbeatMs: config.heartbeatMs,
      intervalMs: config.intervalMs,
      probeTimeoutMs: config.probeTimeoutMs,
      successThreshold: config.successThreshold,
      expectStatus: config.expectStatus,
      ...(signal === undefined ? {} : { signal }),
      onEnding: (end) => {
        if (end.kind !== 'ready' && !keepFor(end)) members = listTree(child);
      },
      ...(history.length === 0
        ? {}
        : {
            eta: (phase: PhaseId | null, inPhaseMs: number) => estimateRemaining(history, phase, inPhaseMs),
          }),
    });
  } catch (error) {
    if (!config.keepOnFailure) await stopTree(child, stopOptions);
    throw error;
  }

  // The final event goes out first; the bookkeeping follows, so it never delays the verdict. The history and
  // record writes run on the thread pool while the verdict is printed; both are done before the start resolves.
  const smoke =
    outcome.end.kind === 'ready' && config.options.smoke !== undefined && config.target.origin !== null
      ? await smokeTest(config, config.options.smoke.timeoutMs, emit)
      : null;
  if (outcome.end.kind === 'ready' && smoke?.failure === undefined) {
    const ready = {
      type: 'ready' as const,
      elapsed_ms: outcome.elapsedMs,
      url: config.target.origin ?? '',
      health_url: config.target.healthUrl,
      id,
      ...(smoke === null ? {} : { rung: 'generating' as const }),
    };
    const event = { ...ready, t: emit(ready).t };
    const historyWritten = recordStart(profile, tracker.phaseDurations(performance.now()), {
      dir: config.stateDir,
    }).catch(() => undefined);
    const recordWritten = rewriteRecord(config.stateDir, record, { outcome: 'ready' });
    await Promise.all([historyWritten, recordWritten]);
    return {
      ok: true,
      exitCode: EXIT.ready,
      elapsedMs: outcome.elapsedMs,
      id,
      url: config.target.origin,
      event,
    };
  }

  const fields =
    smoke?.failure === undefined
      ? failureFromOutcome(outcome, diagnoser, config)
      : plainFailure('smoke', smoke.failure, since());
  const keep = keepFor(outcome.end);
  if (keep) {
    fields.kept_running = true;
  } else {
    const stopped = await stopTree(child, { ...stopOptions, ...(members === undefined ? {} : { members }) });
    fields.kept_running = false;
    if (stopped.survivors.length > 0) {
      fields.survivors = stopped.survivors.map((s) => ({ ...s, command: redact(s.command) }));
    }
  }
  const result = fail(fields, id);
  await rewriteRecord(config.stateDir, record, {
    outcome: 'failed',
    ended_at: keep ? null : new Date().toISOString(),
  });
  return result;
};

// The record's final outcome; the start has ended either way, so a state directory gone bad does not change it
// (`vigil status` then shows the launch as still starting, and reads its live state from /proc).
const rewriteRecord = (...args: Parameters<typeof rewriteLaunchRecord>): Promise<void> =>
  rewriteLaunchRecord(...args).catch(() => undefined);

// Runs the smoke test against the ready server and emits its event; `failure` is set when it failed.
const smokeTest = async (
  config: LaunchConfig,
  timeoutMs: number,
  emit: (event: Emittable) => VigilEvent,
): Promise<{ failure?: Diagnosis }> => {
  const { runSmoke, smokeDiagnosis } = await import('../smoke/index.ts');
  const report = await runSmoke({
    url: new URL(config.target.origin ?? ''),
    engine: config.server.engine,
    timeoutMs,
    ...(config.server.apiKey === null ? {} : { apiKey: config.server.apiKey }),
    ...(config.options.signal === undefined ? {} : { signal: config.options.signal }),
  });
  emit({
    type: 'smoke',
    ok: report.ok,
    ms: Math.round(report.ms),
    ttft_ms: report.ttft_ms,
    tokens: report.tokens,
  });
  return report.ok ? {} : { failure: smokeDiagnosis(report) };
};

const simpleDiagnosis = (summary: string, hint?: string): Diagnosis => ({
  class: 'unknown',
  summary,
  evidence: [],
  advice: hint === undefined ? [] : [hint],
});
