// One trial: start a server and a watcher, time the watcher's verdict against the server's own trace.
import { join } from 'node:path';
import { serverSpec, watcherArgv, type Scenario, type ServerKind, type WatcherId } from './commands.ts';
import { exitWithin, killGroup, start, type Started } from './processes.ts';
import { freePort } from './ports.ts';
import { firstEvent, readTrace, type TraceEvent } from './trace.ts';
import { launchedPgid } from './vigil-output.ts';

export interface TrialResult {
  watcher: WatcherId;
  server: ServerKind;
  scenario: Scenario;
  trial: number;
  /** Server event (trace) to watcher exit, in ms; null when missed or wrong. */
  latencyMs: number | null;
  outcome: 'detected' | 'missed' | 'wrong' | 'error';
  /** vigil only: server event to the moment its first verdict line (`ready`, or `exited`/`failed`) reached the
   * harness. */
  verdictLineMs?: number;
  /** Plain server, ready: from the server turning healthy to it answering the watcher's first 200 (the wait for
   * the watcher's next probe); the rest of latencyMs is the watcher's own. */
  probeWaitMs?: number;
  watcherExit: { code: number | null; signal: string | null } | null;
  note?: string;
}

export interface TrialContext {
  /** A scratch folder for this run (traces, logs, vigil's state). */
  dir: string;
  capMs: number;
}

// When the server became ready, or exited, by its own trace: both servers write `healthy` at the instant
// /health switches to 200 (`vigil sim` then prints its ready line).
const serverMoment = (events: TraceEvent[], scenario: Scenario): TraceEvent | null =>
  firstEvent(events, scenario === 'ready' ? 'healthy' : 'exit');

const earliest = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.min(a, b);

const tail = (text: string): string => text.trim().split('\n').slice(-3).join(' | ').slice(0, 300);

// Runs one trial and cleans up every process it started.
export const runTrial = async (
  context: TrialContext,
  watcher: WatcherId,
  server: ServerKind,
  scenario: Scenario,
  trial: number,
  jitter: number,
): Promise<TrialResult> => {
  const port = await freePort();
  const name = `${server}-${scenario}-${watcher}-${trial}`;
  const trace = join(context.dir, `${name}.trace`);
  const log = join(context.dir, `${name}.log`);
  const spec = serverSpec({ kind: server, scenario, port, trace, jitter });
  const env = {
    ...process.env,
    ...spec.env,
    URL: spec.healthUrl,
    LOG: log,
    XDG_STATE_HOME: join(context.dir, 'state'),
  };
  let serverProcess: Started | null = null;
  if (watcher !== 'vigil') serverProcess = start(spec.argv, { env, logFile: log });
  const watching = start(watcherArgv(watcher, spec), { env });
  const base = { watcher, server, scenario, trial };
  try {
    const exit = await exitWithin(watching, context.capMs);
    const watcherExit = exit === null ? null : { code: exit.code, signal: exit.signal };
    if (exit === null) return { ...base, latencyMs: null, outcome: 'missed', watcherExit };
    const wanted = scenario === 'ready' ? 'healthy' : 'exit';
    const crashed = scenario !== 'ready';
    const event = serverMoment(readTrace(trace), scenario);
    const rightVerdict = crashed ? exit.code !== 0 : exit.code === 0;
    if (!rightVerdict) {
      return { ...base, latencyMs: null, outcome: 'wrong', watcherExit, note: tail(watching.stdout()) };
    }
    if (event === null) {
      const note = `no "${wanted}" in the server's trace; watcher said: ${tail(watching.stdout())}`;
      return { ...base, latencyMs: null, outcome: 'error', watcherExit, note };
    }
    // A crash is news at its first event: `exited` comes before the stop and its grace period, `failed` after.
    const verdict = crashed
      ? earliest(watching.firstSeen('"type":"exited"'), watching.firstSeen('"type":"failed"'))
      : watching.firstSeen('"type":"ready"');
    const answered = scenario === 'ready' ? firstEvent(readTrace(trace), 'answered-200') : null;
    return {
      ...base,
      latencyMs: exit.t - event.t,
      outcome: 'detected',
      watcherExit,
      ...(watcher === 'vigil' && verdict !== null ? { verdictLineMs: verdict - event.t } : {}),
      ...(answered === null ? {} : { probeWaitMs: answered.t - event.t }),
    };
  } finally {
    killGroup(watching.child.pid);
    killGroup(serverProcess?.child.pid);
    if (watcher === 'vigil') killGroup(launchedPgid(watching.stdout()));
  }
};
