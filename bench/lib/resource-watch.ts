// vigil's own cost: CPU seconds and peak RSS of `vigil up` over a long watch of a server still starting.
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { serverSpec, watcherArgv, type ServerKind } from './commands.ts';
import { freePort } from './ports.ts';
import { exitWithin, killGroup, start } from './processes.ts';
import { readUsage, type Usage } from './resources.ts';
import { launchedPgid } from './vigil-output.ts';

export interface ResourceResult {
  server: ServerKind;
  watchedMs: number;
  /** Usage just before the end of the watch (CPU since vigil started, startup included). */
  usage: Usage | null;
  /** CPU seconds per minute over the whole watch, startup included. */
  cpuSecondsPerMinute: number | null;
  /** CPU seconds per minute between an early sample (after startup) and the end: the cost of watching. */
  steadyCpuSecondsPerMinute: number | null;
  note?: string;
}

/** When the early sample is taken: after vigil's startup and preflight, well before the end. */
export const EARLY_SAMPLE_MS = 10_000;

// Watches a server that will not be ready within `watchMs` (the simulator at realistic speed, or the plain
// server with a long delay), reads vigil's usage just before the end, then interrupts it.
export const measureResources = async (
  dir: string,
  server: ServerKind,
  watchMs: number,
): Promise<ResourceResult> => {
  const port = await freePort();
  const spec = serverSpec({
    kind: server,
    scenario: 'ready',
    port,
    trace: join(dir, 'resources.trace'),
    jitter: 0,
  });
  if (server === 'sim') spec.env['VIGIL_SIM_TIME_SCALE'] = '1';
  else spec.argv[spec.argv.indexOf('--ready-after-first-probe') + 1] = String(watchMs * 10);
  const argv = watcherArgv('vigil', spec);
  argv.splice(argv.indexOf('--'), 0, '--timeout', `${Math.ceil((watchMs * 3) / 1000)}s`);
  const env = { ...process.env, ...spec.env, XDG_STATE_HOME: join(dir, 'state') };
  const vigil = start(argv, { env });
  const startedAt = Date.now();
  const pid = vigil.child.pid ?? 0;
  const endedEarly = (exitCode: number | null): ResourceResult => ({
    server,
    watchedMs: Date.now() - startedAt,
    usage: null,
    cpuSecondsPerMinute: null,
    steadyCpuSecondsPerMinute: null,
    note: `vigil ended early (exit ${exitCode ?? 'by signal'}): ${vigil.stdout().slice(-300)}`,
  });
  try {
    const firstWait = Math.min(EARLY_SAMPLE_MS, watchMs / 2);
    const first = await exitWithin(vigil, firstWait);
    if (first !== null) return endedEarly(first.code);
    const early = readUsage(pid);
    const earlyAt = Date.now();
    const second = await exitWithin(vigil, startedAt + watchMs - Date.now());
    if (second !== null) return endedEarly(second.code);
    const usage = readUsage(pid);
    const now = Date.now();
    const watchedMs = now - startedAt;
    const perMinute = (cpu: number, ms: number): number => cpu / (ms / 60_000);
    return {
      server,
      watchedMs,
      usage,
      cpuSecondsPerMinute: usage === null ? null : perMinute(usage.cpuSeconds, watchedMs),
      steadyCpuSecondsPerMinute:
        usage === null || early === null
          ? null
          : perMinute(usage.cpuSeconds - early.cpuSeconds, now - earlyAt),
    };
  } finally {
    vigil.child.kill('SIGINT');
    await exitWithin(vigil, 20_000);
    await delay(100);
    killGroup(vigil.child.pid);
    killGroup(launchedPgid(vigil.stdout()));
  }
};
