// `npm run bench:detect`: how fast vigil, the classic curl loop and wait-on see a server become ready or die.
// Issue 3 §8. A benchmark, not a test: it prints a table and writes bench/results/detect.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { WATCHERS, type Scenario, type ServerKind, type WatcherId } from './lib/commands.ts';
import { measureResources, type ResourceResult } from './lib/resource-watch.ts';
import { measureExitFloor, formatExitFloors, type ExitFloor } from './lib/exit-floor.ts';
import {
  checkTargets,
  formatProbeWaits,
  formatResources,
  formatTargets,
  formatVerdictTimes,
} from './lib/targets.ts';
import { formatTable, summarize } from './lib/summary.ts';
import { runTrial, type TrialResult } from './lib/trial.ts';

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '10' },
    watchers: { type: 'string', default: WATCHERS.join(',') },
    servers: { type: 'string', default: 'plain,sim' },
    'resource-ms': { type: 'string', default: '60000' },
    'no-build': { type: 'boolean', default: false },
    'skip-resources': { type: 'boolean', default: false },
  },
});

const CAP_MS = 30_000;

const SCENARIOS: Record<ServerKind, readonly Scenario[]> = {
  plain: ['ready', 'crash', 'crash-stubborn'],
  sim: ['ready', 'crash'],
};

const trials = Number(values.trials);
const watchers = values.watchers.split(',') as WatcherId[];
const servers = values.servers.split(',') as ServerKind[];
const resourceMs = Number(values['resource-ms']);
const log = (text: string): void => {
  process.stderr.write(`${text}\n`);
};

// The same sequence for every watcher, so each faces the same server timings. The values are stratified (one in
// each 1/trials slice of [0, 1), in a fixed shuffled order): a poller's wait for its next probe then covers the
// whole interval evenly, so the median measures the schedule itself rather than where a few random draws fell.
const jitters = (() => {
  let seed = 0x2545f491;
  const order = Array.from({ length: trials }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    const j = (seed >>> 8) % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.map((slot) => (slot + 0.5) / trials);
})();

const build = (): void => {
  if (values['no-build']) return;
  log('building dist/ (tsc -p tsconfig.build.json) …');
  const result = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { encoding: 'utf8', stdio: 'pipe' });
  if (result.status !== 0) {
    log(
      `build failed; fix it or pass --no-build to use the existing dist/:\n${result.stdout}${result.stderr}`,
    );
    process.exit(1);
  }
};

// Whether a vigil subcommand is in this build (the placeholder says "not yet available").
const available = (subcommand: string): boolean => {
  const help = spawnSync(process.execPath, ['bin/vigil.js', subcommand, '--help'], { encoding: 'utf8' });
  return help.status === 0 && !help.stdout.includes('not yet available');
};

const runGroup = async (
  dir: string,
  watcher: WatcherId,
  server: ServerKind,
  scenario: Scenario,
): Promise<TrialResult[]> => {
  const context = { dir, capMs: CAP_MS };
  const label = `${server} ${scenario} ${watcher}`;
  // The pollers cannot see a crash: their trials only wait out the cap, so they run side by side.
  if (scenario === 'crash' && watcher !== 'vigil') {
    log(`${label}: ${trials} trials side by side (each capped at ${CAP_MS / 1000} s) …`);
    return Promise.all(jitters.map((jitter, i) => runTrial(context, watcher, server, scenario, i, jitter)));
  }
  const results: TrialResult[] = [];
  for (const [i, jitter] of jitters.entries()) {
    const result = await runTrial(context, watcher, server, scenario, i, jitter);
    results.push(result);
    const shown = result.latencyMs === null ? result.outcome : `${Math.round(result.latencyMs)} ms`;
    log(`${label} ${i + 1}/${trials}: ${shown}${result.note === undefined ? '' : ` (${result.note})`}`);
    if (result.outcome === 'wrong' || result.outcome === 'error') {
      if (i === 0) break;
    }
  }
  return results;
};

const main = async (): Promise<void> => {
  build();
  const vigilUp = available('up');
  const sim = available('sim');
  const notes: string[] = [];
  if (!vigilUp) notes.push('`vigil up` is not in this build: vigil rows not measured.');
  if (!sim && servers.includes('sim'))
    notes.push('`vigil sim` is not in this build: simulator rows not measured.');
  notes.forEach(log);
  const loadBefore = loadavg()[0] ?? 0;
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  mkdirSync(join(dir, 'state'));
  const results: TrialResult[] = [];
  try {
    for (const server of servers) {
      if (server === 'sim' && !sim) continue;
      for (const scenario of SCENARIOS[server]) {
        for (const watcher of watchers) {
          if (watcher === 'vigil' && !vigilUp) continue;
          // Pollers see no crash at all; the stubborn-rank case times vigil's first event only.
          if (scenario === 'crash-stubborn' && watcher !== 'vigil') continue;
          results.push(...(await runGroup(dir, watcher, server, scenario)));
        }
      }
    }
    const floors: ExitFloor[] = [];
    if (watchers.includes('vigil')) {
      for (const server of servers) {
        if (server === 'sim' && !sim) continue;
        log(`${server}: the server's own exit, ${trials} crashes with this harness as the parent …`);
        floors.push(await measureExitFloor(dir, server, jitters, CAP_MS));
      }
    }
    let resources: ResourceResult | null = null;
    if (!values['skip-resources'] && vigilUp) {
      const server: ServerKind = sim ? 'sim' : 'plain';
      log(
        `vigil's own cost: watching ${server === 'sim' ? 'the simulator at real speed' : 'the plain server'} for ${resourceMs / 1000} s …`,
      );
      resources = await measureResources(dir, server, resourceMs);
    }
    const groups = summarize(results);
    const targets = checkTargets(groups, resources);
    const loadAfter = loadavg()[0] ?? 0;
    const out: string[] = ['', formatTable(groups, CAP_MS), ''];
    if (resources !== null) out.push(formatResources(resources), '');
    for (const lines of [formatVerdictTimes(groups), formatProbeWaits(groups), formatExitFloors(floors)]) {
      if (lines.length > 0) out.push(...lines, '');
    }
    out.push(...formatTargets(targets), ...notes.map((note) => `note: ${note}`));
    out.push(
      `(${trials} trials per watcher, each capped at ${CAP_MS / 1000} s; misses are left out of medians; ` +
        `${cpus().length} CPUs, node ${process.version}; load average ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end)`,
    );
    process.stdout.write(`${out.join('\n')}\n`);
    mkdirSync('bench/results', { recursive: true });
    const json = {
      generated_at: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      load_average: { start: loadBefore, end: loadAfter },
      trials,
      cap_ms: CAP_MS,
      groups,
      exit_floors: floors,
      resources,
      targets,
      notes,
      results,
    };
    writeFileSync('bench/results/detect.json', `${JSON.stringify(json, null, 2)}\n`);
    log('wrote bench/results/detect.json');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

await main();
