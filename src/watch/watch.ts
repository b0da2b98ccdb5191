// watch(): the same watch as launch(), for a server started some other way (`vigil wait`). Nothing is launched
// and nothing is stopped.
import { statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { getEngine } from '../engines/index.ts';
import { createRedactor } from '../redact/redactor.ts';
import { createStartTracker } from '../diagnose/tracker.ts';
import { createDiagnoser } from '../diagnose/diagnoser.ts';
import { watchPid } from './liveness.ts';
import { runWatchLoop } from './loop.ts';
import type { WatchOptions } from './options.ts';
import { failureFromOutcome, plainFailure, type StartHandle } from './result.ts';
import { createStartRun, emitBlindSpots, loopSettings, resolveWaitOptions } from './start-run.ts';
import { describeNonRegular } from '../state/usable-paths.ts';
import { explainFullDisk } from './disk-full.ts';
import { readProcStat } from '../hosts/proc.ts';
import { resolveTarget } from './target.ts';
import { watchRemote } from './remote-wait.ts';
import { isLocalHost } from '../hosts/remote/destination.ts';

// Watches a running server start. Throws UsageError at once for invalid options.
export const watch = (options: WatchOptions): StartHandle => {
  if (!isLocalHost(options.host)) return watchRemote(options);
  const { common, url } = resolveWaitOptions(options);
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
  const start = createStartRun(redact);
  const { emit } = start;
  const ids = { id: null, url: url.origin };
  // What cannot work is said at the start: a pid that is not running, a --log that is a folder or a FIFO (reading
  // a FIFO would block, and it is not a log vigil can follow).
  const refusal = (): string | null => {
    if (options.pid !== undefined && readProcStat(options.pid) === null) {
      return `--pid ${options.pid}: no such process is running`;
    }
    const kind = logPath === null ? null : describeNonRegular(logPath);
    return kind === null ? null : `--log ${options.log ?? ''} is ${kind}`;
  };
  return start.handle(async () => {
    const startedAt = performance.now();
    const refused = refusal();
    if (refused !== null) {
      return start.fail(
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
        ids,
      );
    }
    // `--log-from end`: only what is written from now on; a file that does not exist yet starts at 0.
    const fromOffset = logPath === null || options.logFrom !== 'end' ? 0 : sizeOf(logPath);
    emitBlindSpots(emit, { log: logPath !== null, pid: options.pid !== undefined });
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
      ...loopSettings(common, options.signal),
    });
    if (outcome.end.kind === 'ready') {
      return start.ready(
        { elapsed_ms: outcome.elapsedMs, url: url.origin, health_url: target.healthUrl },
        ids,
      );
    }
    return start.fail(await explainFullDisk(failureFromOutcome(outcome, diagnoser, common), logPath), ids);
  });
};

const sizeOf = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};
