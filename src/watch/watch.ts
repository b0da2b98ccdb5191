// watch(): the same watch as launch(), for a server started some other way (`vigil wait`). Nothing is launched
// and nothing is stopped.
import { statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { invalidOption } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import type { VigilEvent } from '../events.ts';
import { getEngine } from '../engines/index.ts';
import { createRedactor, type Redactor } from '../redact/redactor.ts';
import { createStartTracker } from '../diagnose/tracker.ts';
import { createDiagnoser } from '../diagnose/diagnoser.ts';
import { createChannel } from './channel.ts';
import { watchPid } from './liveness.ts';
import { runWatchLoop, type Emittable } from './loop.ts';
import { resolveCommon, validateUrl, type WatchOptions } from './options.ts';
import {
  failureFromOutcome,
  plainFailure,
  redactFailure,
  type FailedFields,
  type StartHandle,
  type StartResult,
} from './result.ts';
import { describeNonRegular } from '../state/usable-paths.ts';
import { explainFullDisk } from './disk-full.ts';
import { readProcStat } from '../hosts/proc.ts';
import { resolveTarget } from './target.ts';
import { watchRemote } from './remote-wait.ts';
import { isLocalHost } from '../hosts/remote/destination.ts';

// Watches a running server start. Throws UsageError at once for invalid options.
export const watch = (options: WatchOptions): StartHandle => {
  if (!isLocalHost(options.host)) return watchRemote(options);
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
  const engine = common.engine === 'auto' ? 'generic' : common.engine;
  const spec = getEngine(engine);
  const logPath = options.log === undefined ? null : resolvePath(options.log);
  const target = resolveTarget({
    spec,
    command: null,
    url,
    port: common.port,
    followsLog: logPath !== null,
    apiKey: options.apiKey ?? null,
  });
  const redact = createRedactor({
    env: process.env,
    urls: [options.url],
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
  const fail = (fields: FailedFields): StartResult => {
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
  // What cannot work is said at the start: a pid that is not running, a --log that is a folder or a FIFO (reading
  // a FIFO would block, and it is not a log vigil can follow).
  const refusal = (): string | null => {
    if (options.pid !== undefined && readProcStat(options.pid) === null) {
      return `--pid ${options.pid}: no such process is running`;
    }
    const kind = logPath === null ? null : describeNonRegular(logPath);
    return kind === null ? null : `--log ${options.log ?? ''} is ${kind}`;
  };
  const run = async (): Promise<StartResult> => {
    const startedAt = performance.now();
    const refused = refusal();
    if (refused !== null) {
      return fail(
        plainFailure(
          'preflight',
          {
            class: 'invalid-value',
            summary: refused,
            evidence: [],
            advice: ['check the process id (ps) and the log path, then run vigil wait again'],
          },
          0,
        ),
      );
    }
    // `--log-from end`: only what is written from now on; a file that does not exist yet starts at 0.
    const fromOffset = logPath === null || options.logFrom !== 'end' ? 0 : sizeOf(logPath);
    if (logPath === null) {
      emit({
        type: 'notice',
        code: 'no-log',
        message: 'no log followed (--log): no stall detection, no phases',
      });
    }
    if (options.pid === undefined) {
      emit({
        type: 'notice',
        code: 'no-pid',
        message: 'no process watched (--pid): a crash shows only as failed probes until --timeout',
      });
    }
    const diagnoser = createDiagnoser({ engine: common.engine === 'auto' ? 'auto' : engine, redact });
    const outcome = await runWatchLoop({
      spec,
      target,
      tracker: createStartTracker(spec),
      diagnoser,
      redact,
      emit,
      log: logPath === null ? null : { path: logPath, fromOffset },
      liveness: options.pid === undefined ? null : watchPid(options.pid),
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
    if (outcome.end.kind === 'ready') {
      const event = {
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
        event: { ...event, t: emit(event).t },
      };
    }
    return fail(await explainFullDisk(failureFromOutcome(outcome, diagnoser, common), logPath));
  };
  const result = run().finally(() => {
    channel.close();
  });
  return { events: channel, result, redact: redact satisfies Redactor };
};

const sizeOf = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};
