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
  usage: Usage | null;
  cpuSecondsPerMinute: number | null;
  note?: string;
}

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
  else spec.argv[spec.argv.indexOf('--ready-after') + 1] = String(watchMs * 10);
  const argv = watcherArgv('vigil', spec);
  argv.splice(argv.indexOf('--'), 0, '--timeout', `${Math.ceil((watchMs * 3) / 1000)}s`);
  const env = { ...process.env, ...spec.env, XDG_STATE_HOME: join(dir, 'state') };
  const vigil = start(argv, { env });
  const startedAt = Date.now();
  try {
    const early = await exitWithin(vigil, watchMs);
    const watchedMs = Date.now() - startedAt;
    if (early !== null) {
      return {
        server,
        watchedMs,
        usage: null,
        cpuSecondsPerMinute: null,
        note: `vigil ended early (exit ${early.code}): ${vigil.stdout().slice(-300)}`,
      };
    }
    const usage = vigil.child.pid === undefined ? null : readUsage(vigil.child.pid);
    const perMinute = usage === null ? null : usage.cpuSeconds / (watchedMs / 60_000);
    return { server, watchedMs, usage, cpuSecondsPerMinute: perMinute };
  } finally {
    vigil.child.kill('SIGINT');
    await exitWithin(vigil, 20_000);
    await delay(100);
    killGroup(vigil.child.pid);
    killGroup(launchedPgid(vigil.stdout()));
  }
};
