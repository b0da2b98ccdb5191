// `npm run bench:detect`: how fast vigil, the classic curl loop and wait-on see a server become ready or die.
// Issue 3 §8. A benchmark, not a test: it prints a table and writes bench/results/detect.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  VIGIL_INTERVAL_MS,
  WATCHERS,
  type Scenario,
  type ServerKind,
  type WatcherId,
} from './lib/commands.ts';
import { EARLY_SAMPLE_MS, measureResources, type ResourceResult } from './lib/resource-watch.ts';
import { formatTable, summarize, type GroupSummary } from './lib/summary.ts';
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

const trials = Number(values.trials);
const watchers = values.watchers.split(',') as WatcherId[];
const servers = values.servers.split(',') as ServerKind[];
const resourceMs = Number(values['resource-ms']);
const log = (text: string): void => {
  process.stderr.write(`${text}\n`);
};

// The same pseudo-random sequence for every watcher, so each faces the same server timings.
const jitters = (() => {
  let seed = 0x2545f491;
  return Array.from({ length: trials }, () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return (seed >>> 8) / 0x1000000;
  });
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

const targetLines = (
  groups: GroupSummary[],
  resources: ResourceResult | null,
): { target: string; measured: string; met: boolean | null }[] => {
  const vigil = (server: ServerKind, scenario: Scenario) =>
    groups.find((g) => g.watcher === 'vigil' && g.server === server && g.scenario === scenario);
  const check = (target: string, value: number | null | undefined, limit: number, unit: string) => ({
    target,
    measured:
      value === null || value === undefined
        ? 'not measured'
        : `${unit === 'ms' ? Math.round(value) : value.toFixed(2)} ${unit}`,
    met: value === null || value === undefined ? null : value <= limit,
  });
  return [
    check('ready with a ready line (simulator): median ≤ 25 ms', vigil('sim', 'ready')?.medianMs, 25, 'ms'),
    check(
      `ready without one (plain server, --interval ${VIGIL_INTERVAL_MS / 1000}s): median ≤ ${VIGIL_INTERVAL_MS / 2 + 25} ms`,
      vigil('plain', 'ready')?.medianMs,
      VIGIL_INTERVAL_MS / 2 + 25,
      'ms',
    ),
    check('crash (simulator): median ≤ 50 ms', vigil('sim', 'crash')?.medianMs, 50, 'ms'),
    check('crash (plain server): median ≤ 50 ms', vigil('plain', 'crash')?.medianMs, 50, 'ms'),
    check(
      'vigil CPU: < 1 s per minute of watching (startup included)',
      resources?.cpuSecondsPerMinute,
      1,
      's/min',
    ),
    check(
      'vigil CPU: < 1 s per minute of watching (after startup)',
      resources?.steadyCpuSecondsPerMinute,
      1,
      's/min',
    ),
    check('vigil peak RSS: < 100 MB', resources?.usage?.peakRssMb, 100, 'MB'),
  ];
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
      for (const scenario of ['ready', 'crash'] as const) {
        for (const watcher of watchers) {
          if (watcher === 'vigil' && !vigilUp) continue;
          results.push(...(await runGroup(dir, watcher, server, scenario)));
        }
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
    const targets = targetLines(groups, resources);
    const out: string[] = ['', formatTable(groups, CAP_MS), ''];
    if (resources !== null) {
      const usage = resources.usage;
      out.push(
        usage === null
          ? `vigil over a ${Math.round(resources.watchedMs / 1000)} s watch: not measured (${resources.note ?? 'no usage'})`
          : `vigil over a ${Math.round(resources.watchedMs / 1000)} s watch of the ${resources.server === 'sim' ? 'simulator at real speed' : 'plain server'}: ` +
              `${usage.cpuSeconds.toFixed(2)} s CPU in all (${(resources.cpuSecondsPerMinute ?? 0).toFixed(2)} s/min with startup, ` +
              `${(resources.steadyCpuSecondsPerMinute ?? 0).toFixed(2)} s/min after the first ${EARLY_SAMPLE_MS / 1000} s); ` +
              `peak RSS ${usage.peakRssMb.toFixed(1)} MB (RSS at the end ${usage.rssMb.toFixed(1)} MB)`,
        '',
      );
    }
    const lineTimes = groups.filter((g) => g.verdictLineMedianMs !== null);
    if (lineTimes.length > 0) {
      out.push('vigil, server event → its ready/failed line (median; the rest until exit is its shutdown):');
      for (const g of lineTimes)
        out.push(`  ${g.server} ${g.scenario}: ${Math.round(g.verdictLineMedianMs ?? 0)} ms`);
      out.push('');
    }
    out.push('targets:');
    for (const t of targets)
      out.push(
        `  ${t.met === null ? '?' : t.met ? 'met    ' : 'NOT met'}  ${t.target} — measured ${t.measured}`,
      );
    for (const note of notes) out.push(`note: ${note}`);
    out.push(
      `(${trials} trials per watcher; each capped at ${CAP_MS / 1000} s; misses are left out of medians; machine: ${cpus().length} CPUs, node ${process.version}, load average ${loadBefore.toFixed(1)} at the start and ${(loadavg()[0] ?? 0).toFixed(1)} at the end)`,
    );
    process.stdout.write(`${out.join('\n')}\n`);
    mkdirSync('bench/results', { recursive: true });
    const json = {
      generated_at: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      trials,
      cap_ms: CAP_MS,
      groups,
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
