// `npm run bench:preflight`: how long flag preflight takes. A benchmark, not a test: it prints a table and
// writes bench/results/preflight.json. Targets (issue 4): in-process warm check ≤ 5 ms; the whole
// `vigil check --offline` command, cold, process start included, ≤ 300 ms.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadBundledSchema, NEWEST_BUNDLED } from '../src/flags/schema/bundled.ts';
import { runPreflight } from '../src/flags/preflight.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    'warm-runs': { type: 'string', default: '200' },
    'no-build': { type: 'boolean', default: false },
  },
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Math.max(20, Number(values.runs));
const WARM_RUNS = Math.max(20, Number(values['warm-runs']));

// A realistic 30-option SGLang launch (the story's EAGLE-3 server on 8 GPUs), valid for v0.5.18.
const VALID = [
  'python',
  '-m',
  'sglang.launch_server',
  '--model-path',
  'org/big-model',
  '--tokenizer-path',
  'org/big-model',
  '--trust-remote-code',
  '--tp-size',
  '8',
  '--dp-size',
  '1',
  '--host',
  '0.0.0.0',
  '--port',
  '30000',
  '--mem-fraction-static',
  '0.85',
  '--context-length',
  '32768',
  '--max-running-requests',
  '64',
  '--chunked-prefill-size',
  '8192',
  '--max-prefill-tokens',
  '16384',
  '--dtype',
  'bfloat16',
  '--kv-cache-dtype',
  'auto',
  '--attention-backend',
  'fa3',
  '--cuda-graph-max-bs',
  '64',
  '--speculative-algorithm',
  'EAGLE3',
  '--speculative-draft-model-path',
  'org/draft',
  '--speculative-num-steps',
  '3',
  '--speculative-eagle-topk',
  '1',
  '--speculative-num-draft-tokens',
  '4',
  '--served-model-name',
  'big',
  '--log-level',
  'info',
  '--enable-metrics',
  '--watchdog-timeout',
  '600',
  '--random-seed',
  '1',
  '--schedule-policy',
  'lpm',
  '--stream-interval',
  '1',
  '--api-key',
  'bench-key-000',
  '--download-dir',
  'cache',
  '--load-format',
  'auto',
  '--revision',
  'main',
  '--disable-custom-all-reduce',
];
// The same command with the seed mistake: vLLM's spelling of the draft-token count.
const SEED = [...VALID, '--num-speculative-tokens', '16'];

const optionCount = (argv: readonly string[]): number => argv.filter((a) => a.startsWith('--')).length;

interface Row {
  case: string;
  runs: number;
  median_ms: number;
  p95_ms: number;
  min_ms: number;
  max_ms: number;
  target_ms: number;
  exit_code?: number | null;
  /** CPU time (user + sys) of the process, when GNU time is available. */
  cpu_median_ms?: number;
  cpu_p95_ms?: number;
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;

const summarize = (name: string, samples: number[], target: number, extra: Partial<Row> = {}): Row => {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (n: number): number => Math.round(n * 1000) / 1000;
  return {
    case: name,
    runs: samples.length,
    median_ms: round(quantile(sorted, 0.5)),
    p95_ms: round(quantile(sorted, 0.95)),
    min_ms: round(sorted[0] ?? Number.NaN),
    max_ms: round(sorted.at(-1) ?? Number.NaN),
    target_ms: target,
    ...extra,
  };
};

const warm = async (name: string, command: string[]): Promise<Row> => {
  loadBundledSchema('sglang', NEWEST_BUNDLED.sglang);
  for (let i = 0; i < 20; i++) await runPreflight({ command, offline: true });
  const samples: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    const start = performance.now();
    await runPreflight({ command, offline: true });
    samples.push(performance.now() - start);
  }
  return summarize(name, samples, 5);
};

// GNU time reports the child's CPU time too, which a busy machine inflates far less than wall time.
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

const spawnTimed = (argv: string[]): { wallMs: number; cpuMs: number | null; status: number | null } => {
  const start = performance.now();
  const result =
    TIME === null
      ? spawnSync(argv[0] ?? '', argv.slice(1), { encoding: 'utf8', stdio: 'pipe' })
      : spawnSync(TIME, ['-f', 'cpu %U %S', ...argv], { encoding: 'utf8', stdio: 'pipe' });
  const wallMs = performance.now() - start;
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr);
  const cpuMs = cpu === null ? null : (Number(cpu[1]) + Number(cpu[2])) * 1000;
  return { wallMs, cpuMs, status: result.status };
};

const cold = (name: string, argv: string[], target: number): Row => {
  const wall: number[] = [];
  const cpu: number[] = [];
  let exitCode: number | null = null;
  for (let i = 0; i < RUNS; i++) {
    const run = spawnTimed(argv);
    wall.push(run.wallMs);
    if (run.cpuMs !== null) cpu.push(run.cpuMs);
    exitCode = run.status;
  }
  const cpuRow = cpu.length === 0 ? null : summarize('cpu', cpu, target);
  return summarize(name, wall, target, {
    exit_code: exitCode,
    ...(cpuRow === null ? {} : { cpu_median_ms: cpuRow.median_ms, cpu_p95_ms: cpuRow.p95_ms }),
  });
};

const vigilCheck = (command: string[]): string[] => [
  process.execPath,
  join(ROOT, 'bin', 'vigil.js'),
  'check',
  '--offline',
  '--',
  ...command,
];

const build = (): void => {
  if (values['no-build']) return;
  process.stderr.write('building dist/ (tsc -p tsconfig.build.json) …\n');
  spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: ROOT,
      stdio: 'ignore',
    },
  );
};

const main = async (): Promise<void> => {
  build();
  const rows = [
    await warm(`in-process warm, valid ${String(optionCount(VALID))}-option SGLang command`, VALID),
    await warm(`in-process warm, same + --num-speculative-tokens 16`, SEED),
    cold(`vigil check --offline, cold process, valid command`, vigilCheck(VALID), 300),
    cold(`vigil check --offline, cold process, seed mistake`, vigilCheck(SEED), 300),
  ];
  const baseline = cold(
    'node -e 0 (process start alone, for reference)',
    [process.execPath, '-e', '0'],
    Number.NaN,
  );
  const header = ['case', 'runs', 'median ms', 'p95 ms', 'cpu median ms', 'target ms'];
  const lines = [...rows, baseline].map((r) => [
    r.case,
    String(r.runs),
    r.median_ms.toFixed(2),
    r.p95_ms.toFixed(2),
    r.cpu_median_ms === undefined ? '' : r.cpu_median_ms.toFixed(0),
    Number.isNaN(r.target_ms) ? '' : `≤ ${String(r.target_ms)}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const format = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  process.stdout.write(`${[format(header), ...lines.map(format)].join('\n')}\n`);
  const results = {
    benchmark: 'preflight',
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadavg: loadavg(),
    schema: `sglang v${NEWEST_BUNDLED.sglang} (bundled)`,
    rows,
    process_start_baseline: baseline,
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'preflight.json'), `${JSON.stringify(results, null, 2)}\n`);
};

await main();
