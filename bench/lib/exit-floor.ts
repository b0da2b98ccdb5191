// The floor under every crash figure: how long a crashing server takes, after writing its `exit` trace mark, until
// its parent sees it gone. The mark is written just before the process ends, and the end itself (the runtime's
// shutdown, then the kernel freeing the process) takes time that no watcher can observe any earlier: its parent
// is the first to know. Measured with the harness as the parent, on the same servers and timings as the trials.
import { join } from 'node:path';
import { serverSpec, type ServerKind } from './commands.ts';
import { freePort } from './ports.ts';
import { exitWithin, killGroup, start } from './processes.ts';
import { median } from './stats.ts';
import { firstEvent, readTrace } from './trace.ts';

export interface ExitFloor {
  server: ServerKind;
  /** Trace `exit` mark → the harness's exit event, one per trial that crashed as planned. */
  samplesMs: number[];
  medianMs: number | null;
}

// Runs one crash per jitter with the harness as the server's parent, each capped at capMs.
export const measureExitFloor = async (
  dir: string,
  server: ServerKind,
  jitters: readonly number[],
  capMs: number,
): Promise<ExitFloor> => {
  const samplesMs: number[] = [];
  for (const [i, jitter] of jitters.entries()) {
    const port = await freePort();
    const trace = join(dir, `floor-${server}-${i}.trace`);
    const spec = serverSpec({ kind: server, scenario: 'crash', port, trace, jitter });
    const env = { ...process.env, ...spec.env, XDG_STATE_HOME: join(dir, 'state') };
    const running = start(spec.argv, { env, logFile: join(dir, `floor-${server}-${i}.log`) });
    try {
      const exit = await exitWithin(running, capMs);
      const mark = firstEvent(readTrace(trace), 'exit');
      if (exit !== null && mark !== null) samplesMs.push(exit.t - mark.t);
    } finally {
      killGroup(running.child.pid);
    }
  }
  return { server, samplesMs, medianMs: median(samplesMs) };
};

// One line per server for the report.
export const formatExitFloors = (floors: readonly ExitFloor[]): string[] =>
  floors.length === 0
    ? []
    : [
        "a crashing server's own exit, its `exit` mark → its parent sees it gone (median; no watcher can be faster):",
        ...floors.map(
          (f) =>
            `  ${f.server}: ${f.medianMs === null ? 'not measured' : `${Math.round(f.medianMs)} ms`} (${f.samplesMs.length} crashes)`,
        ),
      ];
