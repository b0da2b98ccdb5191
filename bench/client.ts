// npm run bench:client — the load generator's own ceiling on one core, beside autocannon.
//
// A server that answers at once runs in its own process on core 1. Every client runs alone, in turn, as its own
// process pinned to core 0 (taskset -c 0, started the same way through one wrapper), for the same time, over the
// same number of keep-alive connections:
//   autocannon                 non-streaming POST /v1/chat/completions (the reference)
//   vigil bench --no-stream    the same requests through the CLI (requests/s), default transport
//   vigil bench                streamed (tokens/s)
//   library over <transport>   the library's load loop over each transport: the socket transport (the default
//                              for http://), node:http's pool, undici 7's dispatch API, Node's fetch
// Rounds alternate the clients so machine noise hits all of them alike; the table shows each round and the median,
// plus each client's CPU time per request (user + system, from the shell's `times`), which load on the machine
// does not change much. Target (issue 12): vigil bench >= 90% of autocannon's requests/s.
// Writes bench/results/client.json.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { TransportName } from './lib/client-child.ts';
import { median } from './lib/stats.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: o } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '64' },
    'stream-tokens': { type: 'string', default: '256' },
    'no-build': { type: 'boolean', default: false },
  },
});
const seconds = Number(o.seconds);
const connections = Number(o.connections);
const streamTokens = Number(o['stream-tokens']);

// Runs argv pinned to core 0 and returns its stdout and the CPU seconds it used (children's user + system time,
// as bash's `times` reports them after it exits).
const pinned = (argv: string[]): { stdout: string; cpuS: number } => {
  const result = spawnSync(
    'bash',
    ['-c', 'taskset -c 0 "$@"; rc=$?; times >&2; exit $rc', 'pinned', ...argv],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  if (result.status !== 0)
    throw new Error(`${argv.join(' ')} failed (${String(result.status)}):\n${result.stderr}`);
  const times = result.stderr.trim().split('\n').at(-1) ?? '';
  const seconds = [...times.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return { stdout: result.stdout, cpuS: (seconds[0] ?? NaN) + (seconds[1] ?? NaN) };
};

// dist/ for vigil bench, and the library child compiled the same way (under node_modules/.cache, so its imports
// resolve to this repository's node_modules).
const CHILD_BUILD = join(ROOT, 'node_modules', '.cache', 'vigil-bench-client');
const tsc = (project: string): void => {
  const built = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  if (built.status !== 0) throw new Error(`tsc -p ${project} failed`);
};
if (!o['no-build']) {
  process.stderr.write('building dist/ and the library client (tsc) …\n');
  tsc('tsconfig.build.json');
  mkdirSync(CHILD_BUILD, { recursive: true });
  writeFileSync(
    join(CHILD_BUILD, 'tsconfig.json'),
    JSON.stringify({
      extends: join(ROOT, 'tsconfig.json'),
      compilerOptions: {
        noEmit: false,
        allowImportingTsExtensions: false,
        rootDir: ROOT,
        outDir: join(CHILD_BUILD, 'out'),
      },
      include: [],
      files: [join(ROOT, 'bench', 'lib', 'client-child.ts')],
    }),
  );
  tsc(join(CHILD_BUILD, 'tsconfig.json'));
}

const server = spawn(
  'taskset',
  ['-c', '1', process.execPath, '--import', 'tsx', join(ROOT, 'bench', 'lib', 'instant-server.ts')],
  { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
);
const port = await new Promise<string>((resolve) =>
  server.stdout.setEncoding('utf8').once('data', (line: string) => {
    resolve(line.trim());
  }),
);
const url = `http://127.0.0.1:${port}`;
// The non-streaming request, byte for byte the same from both clients (so the server does the same work for each):
// autocannon sends this body and these headers; vigil bench reads the same message from a prompt file and builds
// the same JSON (model, messages, max_tokens, in that order) with the same content-type and accept headers.
const MESSAGES = [{ role: 'user', content: 'hi' }];
const body = JSON.stringify({ model: 'instant', messages: MESSAGES, max_tokens: 16 });
const PROMPT_FILE = join(mkdtempSync(join(tmpdir(), 'vigil-bench-client-')), 'prompt.jsonl');
writeFileSync(PROMPT_FILE, `${JSON.stringify({ messages: MESSAGES, max_tokens: 16 })}\n`);

interface Measured {
  requestsPerS: number;
  tokensPerS: number | null;
  /** Client CPU time per completed request, µs (startup included, so a slight overestimate). */
  cpuUsPerRequest: number;
  errors: number;
}

const autocannon = (): Measured => {
  const run = pinned([
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
    '-H',
    'accept=application/json',
    '-b',
    body,
    `${url}/v1/chat/completions`,
  ]);
  const report = JSON.parse(run.stdout) as {
    requests: { total: number };
    duration: number;
    errors: number;
    non2xx: number;
  };
  return {
    requestsPerS: report.requests.total / report.duration,
    tokensPerS: null,
    cpuUsPerRequest: (run.cpuS * 1e6) / report.requests.total,
    errors: report.errors + report.non2xx,
  };
};

interface Side {
  requests_per_s: number;
  output_tokens_per_s: number;
  errors: { total: number };
}
const fromSide = (run: { stdout: string; cpuS: number }): Measured => {
  const side = JSON.parse(run.stdout) as Side;
  // Warm-up requests (one per connection) are served too; they are counted in the CPU time's share.
  const requests = side.requests_per_s * seconds + connections;
  return {
    requestsPerS: side.requests_per_s,
    tokensPerS: side.output_tokens_per_s,
    cpuUsPerRequest: (run.cpuS * 1e6) / requests,
    errors: side.errors.total,
  };
};
const vigil = (stream: boolean): Measured =>
  fromSide(
    pinned([
      process.execPath,
      'bin/vigil.js',
      'bench',
      url,
      ...(stream
        ? ['--max-tokens', String(streamTokens), '--input-tokens', '16']
        : ['--no-stream', '--prompts', PROMPT_FILE]),
      '--concurrency',
      String(connections),
      '--duration',
      `${String(seconds)}s`,
      '--output',
      'json',
    ]),
  );
const library = (transport: TransportName, stream: boolean): Measured =>
  fromSide(
    pinned([
      process.execPath,
      join(CHILD_BUILD, 'out', 'bench', 'lib', 'client-child.js'),
      '--transport',
      transport,
      ...(stream ? ['--stream'] : []),
      '--url',
      url,
      '--seconds',
      String(seconds),
      '--connections',
      String(connections),
      '--stream-tokens',
      String(streamTokens),
    ]),
  );

const clients: [string, () => Measured][] = [
  ['autocannon (no stream)', autocannon],
  ['vigil bench --no-stream', () => vigil(false)],
  ['vigil bench, streamed', () => vigil(true)],
  ['library, socket transport, no stream', () => library('socket', false)],
  ['library, node:http, no stream', () => library('http', false)],
  ['library, undici 7, no stream', () => library('undici', false)],
  ['library, socket transport, streamed', () => library('socket', true)],
  ['library, node:http, streamed', () => library('http', true)],
  ['library, undici 7, streamed', () => library('undici', true)],
  ['library, fetch, streamed', () => library('fetch', true)],
];
const rows = new Map<string, Measured[]>(clients.map(([name]) => [name, []]));
try {
  for (let round = 1; round <= Number(o.rounds); round++) {
    process.stderr.write(`round ${String(round)}/${o.rounds} …\n`);
    // Each round starts with a different client, so no client always runs first.
    const order = clients.map((_, i) => clients[(i + round - 1) % clients.length]);
    for (const entry of order) {
      if (entry === undefined) continue;
      rows.get(entry[0])?.push(entry[1]());
    }
  }
} finally {
  server.kill('SIGKILL');
  rmSync(dirname(PROMPT_FILE), { recursive: true, force: true });
}

const med = (values: number[]): number => median(values) ?? NaN;
const width = Math.max(...clients.map(([name]) => name.length));
const cell = (v: number): string => v.toFixed(0).padStart(8);
const lines = [
  `client ceiling on one core (taskset -c 0; server on core 1): ${String(connections)} connections, ${String(seconds)} s per run, ${String(streamTokens)} tokens per streamed answer, ${o.rounds} rounds`,
  `${''.padEnd(width)}  ${'req/s by round'.padEnd(8 * Number(o.rounds))}  median req/s  median tok/s  CPU µs/req  errors`,
];
for (const [name, values] of rows) {
  const tokens = values.flatMap((v) => (v.tokensPerS === null ? [] : [v.tokensPerS]));
  lines.push(
    `${name.padEnd(width)}  ${values.map((v) => cell(v.requestsPerS)).join('')}  ${cell(med(values.map((v) => v.requestsPerS))).padStart(12)}  ${(tokens.length === 0 || name.includes('no stream') ? '-' : med(tokens).toFixed(0)).padStart(12)}  ${med(
      values.map((v) => v.cpuUsPerRequest),
    )
      .toFixed(0)
      .padStart(10)}  ${String(values.reduce((n, v) => n + v.errors, 0)).padStart(6)}`,
  );
}
const reqs = (name: string): number[] => (rows.get(name) ?? []).map((v) => v.requestsPerS);
const ratio = med(reqs('vigil bench --no-stream')) / med(reqs('autocannon (no stream)'));
// Per round: each vigil run over the autocannon run of the same round (noise on the machine cancels in pairs).
const paired = reqs('vigil bench --no-stream').map((v, i) => v / (reqs('autocannon (no stream)')[i] ?? NaN));
lines.push(
  `vigil bench / autocannon requests/s: ${(ratio * 100).toFixed(1)}% (ratio of medians), per round ${paired.map((r) => `${(r * 100).toFixed(0)}%`).join(' ')} (target >= 90%)`,
);
process.stdout.write(`${lines.join('\n')}\n`);
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench', 'results', 'client.json'),
  `${JSON.stringify({ connections, seconds, streamTokens, rows: Object.fromEntries(rows), ratio, paired }, null, 2)}\n`,
);
