// `npm run bench:logs`: `vigil diagnose` on a 1 GB log built from the fixture logs (whole process: wall time, peak
// RSS), and following a log that grows at 50 MB/s through the watcher's own line handling (lag, CPU): the follower,
// then per line the start tracker, the diagnoser, and the handler's events, last line, tail and redaction.
// A benchmark, not a test: it prints a table and writes bench/results/logs.json. Temp files are deleted after.
import { spawn, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createDiagnoser } from '../src/diagnose/diagnoser.ts';
import { createPhaseReader, createStartTracker } from '../src/diagnose/tracker.ts';
import { getEngine, NAMED_ENGINES } from '../src/engines/index.ts';
import { normalizeLine } from '../src/logs/normalize.ts';
import { followLog, type FollowedLine } from '../src/logs/follow.ts';
import { createRedactor } from '../src/redact/redactor.ts';
import { createLineHandler, type LineHandler } from '../src/watch/log-lines.ts';

const { values } = parseArgs({
  options: {
    'size-mb': { type: 'string', default: '1024' },
    'rate-mb': { type: 'string', default: '50' },
    'follow-seconds': { type: 'string', default: '10' },
    'no-build': { type: 'boolean', default: false },
    'no-follow': { type: 'boolean', default: false },
  },
});

const ROOT = join(import.meta.dirname, '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'logs');
const MB = 1024 * 1024;
const log = (text: string): void => {
  process.stderr.write(`${text}\n`);
};

const fixtureLines = (file: string): string[] => {
  const lines = readFileSync(join(FIXTURES, file), 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
};

// Serving noise made of fixture lines: access lines, prefill lines, per-rank lines of a long-running SGLang.
const servingNoise = (): string => {
  const ready01 = fixtureLines('sglang-ready-01.log');
  const ready02 = fixtureLines('sglang-ready-02.log');
  const pick = [
    ready02[33], // GET /health 200
    ready01[64], // Prefill batch
    ready02[32], // POST /generate 200
    ready01[63], // GET /get_model_info 200
    ready01[49], // Registering cuda graph addresses
    ready01[16], // #all_names ...
  ].filter((line): line is string => line !== undefined);
  return `${pick.join('\n')}\n`;
};

// A vLLM start that never finishes: heartbeat lines (every search needle stays on).
const hangNoise = (): string => `${fixtureLines('vllm-hang-01.log').join('\n')}\n`;

interface Scenario {
  name: string;
  head: string[];
  noise: string;
  tail: string[];
  expected: string;
}

// Whether a log holds a whole start: a line that begins an engine's first phase.
const READERS = NAMED_ENGINES.map(createPhaseReader);
const holdsStart = (lines: string[]): boolean =>
  lines.some((line) => {
    const normalized = normalizeLine(line);
    return READERS.some((reader) => reader.first !== null && reader.phaseOf(normalized) === reader.first);
  });

// Every fixture failure log that holds a whole start, back to back: a log written by launch after failed launch,
// where nearly every line is one the diagnoser looks at closely.
const failureLogs = (): string[] =>
  readdirSync(FIXTURES)
    .filter((file) => file.endsWith('.log') && !file.includes('-ready-'))
    .sort()
    .map(fixtureLines)
    .filter(holdsStart)
    .flat();

const SCENARIOS: Scenario[] = [
  {
    name: 'served, then a restart died (ready, 1 GB of serving lines, cuda-oom)',
    head: fixtureLines('sglang-ready-01.log'),
    noise: servingNoise(),
    tail: [fixtureLines('sglang-ready-02.log')[0] ?? '', ...fixtureLines('sglang-cuda-oom-01.log')],
    expected: 'cuda-oom',
  },
  {
    name: 'never ready (1 GB of heartbeats, then an NCCL error)',
    head: fixtureLines('vllm-dependency-01.log').slice(0, 4),
    noise: hangNoise(),
    tail: fixtureLines('vllm-nccl-01.log'),
    expected: 'nccl',
  },
  {
    name: 'dense (failed starts back to back, repeated to 1 GB)',
    head: [],
    noise: `${failureLogs().join('\n')}\n`,
    tail: fixtureLines('vllm-dependency-01.log'),
    expected: 'dependency',
  },
];

const writeLog = async (path: string, scenario: Scenario, bytes: number): Promise<void> => {
  const out = createWriteStream(path);
  out.write(`${scenario.head.join('\n')}\n`);
  const block = scenario.noise.repeat(Math.ceil((4 * MB) / scenario.noise.length));
  for (let written = 0; written < bytes; written += block.length) {
    if (!out.write(block))
      await new Promise<void>((resolve) =>
        out.once('drain', () => {
          resolve();
        }),
      );
  }
  out.end(`${scenario.tail.join('\n')}\n`);
  await finished(out);
};

interface DiagnoseResult {
  scenario: string;
  file_mb: number;
  wall_s: number;
  cpu_s: number;
  peak_rss_mb: number;
  class: string;
  expected: string;
}

// Runs `node bin/vigil.js diagnose` under /usr/bin/time (wall, user and system CPU, peak RSS of the whole process).
const timeDiagnose = (path: string): { wallS: number; cpuS: number; peakMb: number; stdout: string } => {
  const run = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%e %U %S %M',
      process.execPath,
      join(ROOT, 'bin', 'vigil.js'),
      'diagnose',
      path,
      '--output',
      'jsonl',
    ],
    { encoding: 'utf8', maxBuffer: 16 * MB },
  );
  if (run.status !== 0) throw new Error(`vigil diagnose failed: ${run.stderr}`);
  const [wall, user, system, rssKb] = (run.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  return {
    wallS: wall ?? Number.NaN,
    cpuS: (user ?? Number.NaN) + (system ?? Number.NaN),
    peakMb: (rssKb ?? Number.NaN) / 1024,
    stdout: run.stdout,
  };
};

interface FollowResult {
  rate_mb_s: number;
  seconds: number;
  processed_mb: number;
  lines: number;
  lag_p50_ms: number;
  lag_p99_ms: number;
  lag_max_ms: number;
  /** CPU of this process (follower + the watcher's line handling) over the run's wall time. */
  cpu_cores: number;
  /** CPU per MB followed, and what that means at the target rate (independent of how busy the machine is). */
  cpu_ms_per_mb: number;
  cores_at_rate: number;
  phases: string[];
  /**
   * The same lines from a file that is already written: the follower alone, the tracker alone, the diagnoser alone,
   * and the watcher's whole line handling (tracker + diagnoser + events, last line, tail, redaction).
   */
  breakdown_ms_per_mb: { follower: number; tracker: number; diagnoser: number; line_handling: number };
  events: number;
}

// The writer: a separate process appending `rate` MB/s in 20 ms slices; every slice ends with a marker line that
// carries its write time, so the reader can measure how far behind it is.
const WRITER = `
const { appendFileSync } = require('node:fs');
const [path, rate, seconds, noise, headJson] = process.argv.slice(1);
const head = JSON.parse(headJson);
const slice = Math.round(Number(rate) * 1024 * 1024 / 50);
const block = noise.repeat(Math.ceil(slice / noise.length)).slice(0, slice);
const body = block.slice(0, block.lastIndexOf('\\n') + 1);
const started = Date.now();
let i = 0;
const tick = () => {
  const due = started + i * 20;
  if (Date.now() - started >= Number(seconds) * 1000) return;
  const phase = head[i] === undefined ? '' : head[i] + '\\n';
  appendFileSync(path, phase + body + 'bench-mark t=' + Date.now() + '\\n');
  i++;
  setTimeout(tick, Math.max(0, due + 20 - Date.now()));
};
tick();
`;

// What `vigil up` builds for a start (src/watch/launch.ts): a redactor that knows the launch's secrets, the tracker,
// the diagnoser and the watcher's line handler, whose events are counted here instead of rendered.
const watcherLines = (): { handler: LineHandler; events: () => number; phases: string[] } => {
  const redact = createRedactor({
    argv: ['python', '-m', 'sglang.launch_server', '--api-key', 'sk-bench-0123456789'],
    env: { HF_TOKEN: 'hf_bench0123456789' },
  });
  let events = 0;
  const phases: string[] = [];
  const handler = createLineHandler(
    {
      tracker: createStartTracker(getEngine('sglang')),
      diagnoser: createDiagnoser({ engine: 'sglang', redact }),
      redact,
      emit: (event) => {
        events++;
        if (event.type === 'phase') phases.push(event.name);
      },
    },
    { onProgress: () => undefined, onReadyLine: () => undefined, onProbeTrigger: () => undefined },
    performance.now(),
  );
  return { handler, events: () => events, phases };
};

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

// CPU per MB of each part, on a file that is already written (no waiting, no writer competing for the CPU).
const breakdown = async (dir: string): Promise<FollowResult['breakdown_ms_per_mb']> => {
  const path = join(dir, 'static.log');
  const text = `${fixtureLines('sglang-ready-01.log').join('\n')}\n${servingNoise().repeat(Math.ceil((30 * MB) / servingNoise().length))}`;
  writeFileSync(path, text);
  const mb = Buffer.byteLength(text) / MB;
  let expected = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) expected++;
  // The follower as the watcher uses it: each batch is handled, then dropped. Leave by `break` (the follower's own
  // cleanup): aborting while a batch is in hand can leave it waiting.
  const follow = async (keep: FollowedLine[] | null): Promise<void> => {
    let left = expected;
    for await (const batch of followLog({ path, fromOffset: 0 })) {
      if (keep !== null) for (const line of batch) keep.push(line);
      left -= batch.length;
      if (left <= 0) break;
    }
  };
  let started = process.cpuUsage();
  await follow(null);
  const follower = cpuMs(started) / mb;
  // The same lines again, kept this time, for the parts below.
  const lines: FollowedLine[] = [];
  await follow(lines);
  const tracker = createStartTracker(getEngine('sglang'));
  started = process.cpuUsage();
  for (const line of lines) tracker.push(line, line.line);
  const trackerMs = cpuMs(started) / mb;
  const diagnoser = createDiagnoser({ engine: 'sglang' });
  started = process.cpuUsage();
  for (const line of lines) diagnoser.push(line);
  const diagnoserMs = cpuMs(started) / mb;
  const { handler } = watcherLines();
  started = process.cpuUsage();
  // In batches, as the follower hands them over.
  for (let i = 0; i < lines.length; i += 4096) handler.handle(lines.slice(i, i + 4096));
  const handlingMs = cpuMs(started) / mb;
  if (handler.lastLine === null) throw new Error('the line handler saw no line');
  rmSync(path, { force: true });
  const round = (n: number): number => Math.round(n * 10) / 10;
  return {
    follower: round(follower),
    tracker: round(trackerMs),
    diagnoser: round(diagnoserMs),
    line_handling: round(handlingMs),
  };
};

const followBench = async (dir: string, rateMb: number, seconds: number): Promise<FollowResult> => {
  const path = join(dir, 'growing.log');
  writeFileSync(path, '');
  const head = fixtureLines('sglang-ready-01.log');
  const { handler, events, phases } = watcherLines();
  const controller = new AbortController();
  const lags: number[] = [];
  let lines = 0;
  let bytes = 0;
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  const writer = spawn(
    process.execPath,
    ['-e', WRITER, path, String(rateMb), String(seconds), servingNoise(), JSON.stringify(head)],
    { stdio: 'inherit' },
  );
  // One second after the writer stops, stop reading: by `break` when a batch is in hand, by aborting the wait otherwise.
  const reading = { stop: false, busy: false };
  writer.on('exit', () => {
    setTimeout(() => {
      reading.stop = true;
      if (!reading.busy) controller.abort();
    }, 1000);
  });
  try {
    for await (const batch of followLog({ path, fromOffset: 0, signal: controller.signal })) {
      reading.busy = true;
      handler.handle(batch);
      // The writer's markers say when each slice was written (the bench's own bookkeeping, kept cheap).
      const now = Date.now();
      for (const line of batch) {
        lines++;
        bytes += line.text.length + 1;
        if (line.text.charCodeAt(0) === 98 && line.text.startsWith('bench-mark t='))
          lags.push(now - Number(line.text.slice(13)));
      }
      reading.busy = false;
      if (reading.stop) break;
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  const cpu = cpuMs(cpuStart);
  const wallMs = performance.now() - wallStart;
  writer.kill();
  lags.sort((a, b) => a - b);
  const at = (q: number): number =>
    lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? Number.NaN;
  const processedMb = bytes / MB;
  const perMb = cpu / processedMb;
  return {
    rate_mb_s: rateMb,
    seconds,
    processed_mb: Math.round(processedMb),
    lines,
    lag_p50_ms: at(0.5),
    lag_p99_ms: at(0.99),
    lag_max_ms: lags.at(-1) ?? Number.NaN,
    cpu_cores: Math.round((cpu / wallMs) * 100) / 100,
    cpu_ms_per_mb: Math.round(perMb * 10) / 10,
    cores_at_rate: Math.round(((perMb * rateMb) / 1000) * 100) / 100,
    phases: [...new Set(phases)],
    events: events(),
    breakdown_ms_per_mb: await breakdown(dir),
  };
};

const main = async (): Promise<void> => {
  if (!values['no-build'] || !existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
    log('building dist/ ...');
    const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-logs-'));
  const sizeMb = Number(values['size-mb']);
  const diagnoseResults: DiagnoseResult[] = [];
  const load = loadavg();
  let follow: FollowResult | null = null;
  try {
    for (const scenario of SCENARIOS) {
      const path = join(dir, 'big.log');
      log(`writing ${sizeMb} MB: ${scenario.name}`);
      await writeLog(path, scenario, sizeMb * MB);
      const fileMb = Math.round(statSync(path).size / MB);
      // One warm-up run reads the file into the page cache; the timed run measures vigil, not the disk.
      timeDiagnose(path);
      const run = timeDiagnose(path);
      const diagnosis = JSON.parse(run.stdout.trim()) as { class: string };
      diagnoseResults.push({
        scenario: scenario.name,
        file_mb: fileMb,
        wall_s: Math.round(run.wallS * 100) / 100,
        cpu_s: Math.round(run.cpuS * 100) / 100,
        peak_rss_mb: Math.round(run.peakMb),
        class: diagnosis.class,
        expected: scenario.expected,
      });
      rmSync(path, { force: true });
    }
    if (!values['no-follow']) {
      log(`following a log growing at ${values['rate-mb']} MB/s for ${values['follow-seconds']} s`);
      follow = await followBench(dir, Number(values['rate-mb']), Number(values['follow-seconds']));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const rows = [
    ['vigil diagnose (whole process)', 'file MB', 'wall s', 'CPU s', 'peak RSS MB', 'class (expected)'],
    ...diagnoseResults.map((r) => [
      r.scenario,
      String(r.file_mb),
      r.wall_s.toFixed(2),
      r.cpu_s.toFixed(2),
      String(r.peak_rss_mb),
      `${r.class} (${r.expected})`,
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows)
    process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}\n`);
  if (follow !== null) {
    const b = follow.breakdown_ms_per_mb;
    process.stdout.write(
      [
        '',
        `follow ${follow.rate_mb_s} MB/s for ${follow.seconds} s: ${follow.processed_mb} MB, ${follow.lines} lines read`,
        `  lag p50 ${follow.lag_p50_ms} ms, p99 ${follow.lag_p99_ms} ms, max ${follow.lag_max_ms} ms`,
        `  CPU ${follow.cpu_cores} cores over the run; ${follow.cpu_ms_per_mb} ms per MB = ${follow.cores_at_rate} cores at ${follow.rate_mb_s} MB/s`,
        `  phases seen: ${follow.phases.join(' ')}; ${follow.events} events`,
        `  per MB on a written file: follower ${b.follower} ms; line handling ${b.line_handling} ms (of which alone: tracker ${b.tracker} ms, diagnoser ${b.diagnoser} ms); together ${Math.round((b.follower + b.line_handling) * 10) / 10} ms`,
        `  load average at start ${load.map((n) => n.toFixed(2)).join(' ')} on ${cpus().length} CPUs`,
        '',
      ].join('\n'),
    );
  }
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench', 'results', 'logs.json'),
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: cpus().length,
        loadavg_at_start: load,
        targets: { diagnose_1gb_wall_s: 3, follow_cores_at_50mb_s: 1 },
        diagnose: diagnoseResults,
        follow,
      },
      null,
      2,
    )}\n`,
  );
};

await main();
