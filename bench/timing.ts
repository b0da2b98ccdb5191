// npm run bench:timing — how closely vigil bench measures TTFT and inter-token latency (ITL).
//
// A server that delays on purpose (the acceptance test's: the first token `ttft` ms after the request arrives,
// then one every `itl` ms, each due at an absolute time) runs in its own process; the built CLI runs
// `vigil bench URL --requests 24 --concurrency 4 --max-tokens 30 --output json` against it, as the acceptance
// criterion does, several rounds per setting. Printed: the p50 measured each round, the median over rounds, and
// the error against the delay. Target (issue 12): within 3% or 1 ms, whichever is larger.
// Writes bench/results/timing.json.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './lib/stats.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: o } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    'no-build': { type: 'boolean', default: false },
  },
});
const rounds = Number(o.rounds);
const SETTINGS = [
  { ttft: 200, itl: 20 },
  { ttft: 50, itl: 10 },
  { ttft: 500, itl: 40 },
];

if (!o['no-build']) {
  process.stderr.write('building dist/ (tsc -p tsconfig.build.json) …\n');
  const built = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (built.status !== 0) throw new Error('the build failed');
}

const startServer = async (ttft: number, itl: number) => {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'bench', 'lib', 'timed-server-main.ts'),
      '--ttft',
      String(ttft),
      '--itl',
      String(itl),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve) =>
    child.stdout.setEncoding('utf8').once('data', (line: string) => {
      resolve(line.trim());
    }),
  );
  return { url, stop: () => child.kill('SIGTERM') };
};

interface Report {
  ttft_ms: { p50: number; p90: number };
  itl_ms: { p50: number; p90: number };
  errors: { total: number };
}

const within = (measured: number, target: number): boolean =>
  Math.abs(measured - target) <= Math.max(0.03 * target, 1);
const pct = (measured: number, target: number): string =>
  `${measured >= target ? '+' : ''}${(((measured - target) / target) * 100).toFixed(1)}%`;

const lines: string[] = [];
const results: Record<string, unknown>[] = [];
for (const setting of SETTINGS) {
  const server = await startServer(setting.ttft, setting.itl);
  const reports: Report[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      process.stderr.write(
        `TTFT ${String(setting.ttft)} ms, ITL ${String(setting.itl)} ms: round ${String(round)}/${String(rounds)} …\n`,
      );
      const run = spawnSync(
        process.execPath,
        [
          'bin/vigil.js',
          'bench',
          server.url,
          '--requests',
          '24',
          '--concurrency',
          '4',
          '--max-tokens',
          '30',
          '--output',
          'json',
        ],
        { cwd: ROOT, encoding: 'utf8' },
      );
      if (run.status !== 0) throw new Error(`vigil bench failed: ${run.stderr}`);
      reports.push(JSON.parse(run.stdout) as Report);
    }
  } finally {
    server.stop();
  }
  const ttft = reports.map((r) => r.ttft_ms.p50);
  const itl = reports.map((r) => r.itl_ms.p50);
  const errors = reports.reduce((n, r) => n + r.errors.total, 0);
  const ttftMedian = median(ttft) ?? NaN;
  const itlMedian = median(itl) ?? NaN;
  const roundsIn = (values: number[], target: number): number =>
    values.filter((v) => within(v, target)).length;
  lines.push(
    `delays TTFT ${String(setting.ttft)} ms, ITL ${String(setting.itl)} ms (${String(rounds)} runs of 24 requests, concurrency 4, 30 tokens; errors ${String(errors)})`,
    `  TTFT p50 by run: ${ttft.map((v) => v.toFixed(1)).join(' ')}  median ${ttftMedian.toFixed(1)} ms (${pct(ttftMedian, setting.ttft)}); runs within 3%/1 ms: ${String(roundsIn(ttft, setting.ttft))}/${String(rounds)}`,
    `  ITL p50 by run:  ${itl.map((v) => v.toFixed(2)).join(' ')}  median ${itlMedian.toFixed(2)} ms (${pct(itlMedian, setting.itl)}); runs within 3%/1 ms: ${String(roundsIn(itl, setting.itl))}/${String(rounds)}`,
  );
  results.push({ ...setting, ttft_p50: ttft, itl_p50: itl, errors, ttftMedian, itlMedian });
}
process.stdout.write(`${lines.join('\n')}\n`);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench', 'results', 'timing.json'),
  `${JSON.stringify({ rounds, results }, null, 2)}\n`,
);
