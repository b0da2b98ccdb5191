// npm run bench:client — the load generator's own ceiling on one core, beside autocannon.
//
// A server that answers at once runs in its own process on core 1; every client runs alone on core 0 (taskset),
// in turn, for the same time, over 64 keep-alive connections:
//   autocannon       non-streaming POST /v1/chat/completions (the reference)
//   vigil bench      the same requests with --no-stream (requests/s), then streamed (tokens/s)
//   transports       the library's load loop over node:http's pool and over Node's fetch, streamed
// Rounds alternate the clients so machine noise hits all of them alike; the table shows each round and the
// median. Target (issue 12): vigil bench >= 90% of autocannon's requests/s. Writes bench/results/client.json.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: o } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '64' },
    'stream-tokens': { type: 'string', default: '256' },
    'child-transport': { type: 'string' },
    url: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});
const seconds = Number(o.seconds);
const connections = Number(o.connections);
const streamTokens = Number(o['stream-tokens']);

// Child mode: one streamed run of the library's load loop over the named transport, printed as JSON.
if (o['child-transport'] !== undefined) {
  const { runBench } = await import('../src/bench/run.ts');
  const { createHttpTransport } = await import('../src/bench/transport.ts');
  const { createFetchTransport } = await import('./lib/fetch-transport.ts');
  const { syntheticPrompts } = await import('../src/bench/prompts.ts');
  const transport =
    o['child-transport'] === 'fetch'
      ? createFetchTransport()
      : createHttpTransport({ maxSockets: connections });
  const result = await runBench({
    url: new URL(o.url ?? ''),
    prompts: syntheticPrompts(100, 16, streamTokens, 1),
    mode: { kind: 'closed', concurrency: connections },
    stop: { durationMs: seconds * 1000 },
    warmup: connections,
    stream: true,
    timeoutMs: 30_000,
    blockRequests: 1,
    seed: 1,
    transport,
  });
  transport.close();
  process.stdout.write(`${JSON.stringify(result.sides[0])}\n`);
  process.exit(0);
}

const ONE_CORE = ['taskset', '-c', '0'];
const run = (argv: string[]): string => {
  const result = spawnSync(argv[0] ?? '', argv.slice(1), {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (result.status !== 0)
    throw new Error(`${argv.join(' ')} failed (${String(result.status)}):\n${result.stderr}`);
  return result.stdout;
};

if (!o['no-build']) {
  process.stderr.write('building dist/ (tsc -p tsconfig.build.json) …\n');
  run([
    process.execPath,
    join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    'tsconfig.build.json',
  ]);
}

const server = spawn(
  'taskset',
  ['-c', '1', process.execPath, '--import', 'tsx', join(ROOT, 'bench', 'lib', 'instant-server.ts')],
  {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const port = await new Promise<string>((resolve) =>
  server.stdout.setEncoding('utf8').once('data', (line: string) => {
    resolve(line.trim());
  }),
);
const url = `http://127.0.0.1:${port}`;
const body = JSON.stringify({
  model: 'instant',
  messages: [{ role: 'user', content: 'hi' }],
  max_tokens: 16,
});

const autocannon = (): number => {
  const out = run([
    ...ONE_CORE,
    process.execPath,
    join(ROOT, 'node_modules', 'autocannon', 'autocannon.js'),
    '--json',
    '-c',
    String(connections),
    '-d',
    String(seconds),
    '-m',
    'POST',
    '-H',
    'content-type=application/json',
    '-b',
    body,
    `${url}/v1/chat/completions`,
  ]);
  const report = JSON.parse(out) as {
    requests: { total: number };
    duration: number;
    errors: number;
    non2xx: number;
  };
  return report.requests.total / report.duration;
};

interface Side {
  requests_per_s: number;
  output_tokens_per_s: number;
  errors: { total: number };
}
const vigil = (stream: boolean): Side =>
  JSON.parse(
    run([
      ...ONE_CORE,
      process.execPath,
      'bin/vigil.js',
      'bench',
      url,
      ...(stream ? ['--max-tokens', String(streamTokens)] : ['--no-stream', '--max-tokens', '16']),
      '--input-tokens',
      '16',
      '--concurrency',
      String(connections),
      '--duration',
      `${String(seconds)}s`,
      '--output',
      'json',
    ]),
  ) as Side;
const library = (transport: 'http' | 'fetch'): Side =>
  JSON.parse(
    run([
      ...ONE_CORE,
      process.execPath,
      '--import',
      'tsx',
      'bench/client.ts',
      '--child-transport',
      transport,
      '--url',
      url,
      '--seconds',
      String(seconds),
      '--connections',
      String(connections),
      '--stream-tokens',
      String(streamTokens),
    ]),
  ) as Side;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

const rows: Record<string, number[]> = {
  'autocannon req/s (no stream)': [],
  'vigil bench req/s (--no-stream)': [],
  'vigil bench streamed tok/s': [],
  'vigil bench streamed req/s': [],
  'library over node:http, streamed tok/s': [],
  'library over fetch, streamed tok/s': [],
};
let errors = 0;
try {
  for (let round = 1; round <= Number(o.rounds); round++) {
    process.stderr.write(`round ${String(round)}/${o.rounds} …\n`);
    rows['autocannon req/s (no stream)']?.push(autocannon());
    const plain = vigil(false);
    rows['vigil bench req/s (--no-stream)']?.push(plain.requests_per_s);
    const streamed = vigil(true);
    rows['vigil bench streamed tok/s']?.push(streamed.output_tokens_per_s);
    rows['vigil bench streamed req/s']?.push(streamed.requests_per_s);
    const overHttp = library('http');
    const overFetch = library('fetch');
    rows['library over node:http, streamed tok/s']?.push(overHttp.output_tokens_per_s);
    rows['library over fetch, streamed tok/s']?.push(overFetch.output_tokens_per_s);
    errors += plain.errors.total + streamed.errors.total + overHttp.errors.total + overFetch.errors.total;
  }
} finally {
  server.kill('SIGKILL');
}

const width = Math.max(...Object.keys(rows).map((k) => k.length));
const lines = [
  `client ceiling on one core: ${String(connections)} connections, ${String(seconds)} s per run, ${streamTokens} tokens per streamed answer`,
];
for (const [name, values] of Object.entries(rows))
  lines.push(
    `${name.padEnd(width)}  ${values.map((v) => v.toFixed(0).padStart(8)).join('')}   median ${median(values).toFixed(0).padStart(8)}`,
  );
const ratio =
  median(rows['vigil bench req/s (--no-stream)'] ?? []) / median(rows['autocannon req/s (no stream)'] ?? []);
const fetchRatio =
  median(rows['library over fetch, streamed tok/s'] ?? []) /
  median(rows['library over node:http, streamed tok/s'] ?? []);
lines.push(`vigil bench / autocannon requests/s: ${(ratio * 100).toFixed(1)}% (target >= 90%)`);
lines.push(`fetch / node:http streamed tokens/s: ${(fetchRatio * 100).toFixed(1)}%`);
lines.push(`request errors across vigil runs: ${String(errors)}`);
process.stdout.write(`${lines.join('\n')}\n`);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench', 'results', 'client.json'),
  `${JSON.stringify({ connections, seconds, streamTokens, rows, ratio, fetchRatio, errors }, null, 2)}\n`,
);
