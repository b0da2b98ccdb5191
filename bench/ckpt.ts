// `npm run bench:ckpt`: renaming tensors in a 2 GiB safetensors file in place and by copy, side by side with
// `cp` of the same file. A benchmark, not a test: it prints what it measured and writes bench/results/ckpt.json.
// Targets (issue 13): in place ≤ 50 ms whatever the size; the copy path ≥ 80% of cp's throughput; memory flat.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { cpus, freemem, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { encodeHeader } from '../src/ckpt/encode.ts';
import type { TensorInfo } from '../src/ckpt/header.ts';

const { values } = parseArgs({
  options: {
    'size-mib': { type: 'string', default: '2048' },
    'small-mib': { type: 'string', default: '256' },
    dir: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MIB = 1024 * 1024;
const log = (text: string): void => {
  process.stderr.write(`${text}\n`);
};

// A safetensors file of `mib` MiB: 8 big U8 tensors named layers.0.* plus a norm, data written from one random buffer.
const makeFile = (path: string, mib: number): number => {
  const each = Math.floor((mib * MIB) / 8);
  const tensors: TensorInfo[] = Array.from({ length: 8 }, (_, i) => ({
    name: `layers.0.block${i}.weight`,
    dtype: 'U8' as const,
    shape: [each],
    dataOffsets: [i * each, (i + 1) * each] as [number, number],
  }));
  tensors.push({ name: 'norm.weight', dtype: 'U8', shape: [64], dataOffsets: [8 * each, 8 * each + 64] });
  const header = encodeHeader(tensors, { format: 'pt' });
  if (header === null) throw new Error('header');
  const fd = openSync(path, 'w');
  writeSync(fd, header);
  const block = randomBytes(64 * MIB);
  let left = 8 * each + 64;
  while (left > 0) {
    const n = Math.min(left, block.length);
    writeSync(fd, block, 0, n);
    left -= n;
  }
  closeSync(fd);
  return header.length + 8 * each + 64;
};

interface WorkerResult {
  mode: string;
  copy: string | null;
  ms: number;
  write_ms: number;
  fsync_ms: number;
  verify_ms: number;
  max_rss_kib: number;
}

// One rename in a fresh plain-Node process running the built library (dist/), so neither tsx nor the
// compiler sits in the memory figure.
const WORKER = `
const [mode, file, rule] = process.argv.slice(1);
const { parseRule } = await import(${JSON.stringify(join(ROOT, 'dist/ckpt/name-map.js'))});
const { renameCheckpoint } = await import(${JSON.stringify(join(ROOT, 'dist/ckpt/rename.js'))});
const started = performance.now();
const { result } = await renameCheckpoint(file, { rules: [parseRule(rule)], backup: false, ...(mode === 'inplace' ? {} : { forceCopy: true }), ...(mode === 'stream' ? { streamCopy: true } : {}) });
const ms = performance.now() - started;
const done = result.files[0];
console.log(JSON.stringify({ mode: done.mode, copy: done.copy, ms, ...done.timings, max_rss_kib: process.resourceUsage().maxRSS }));
`;

const worker = (mode: 'inplace' | 'copy' | 'stream', file: string, rule: string): WorkerResult => {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', WORKER, mode, file, rule], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`worker failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim()) as WorkerResult;
};

const timed = (argv: string[]): number => {
  const started = performance.now();
  const run = spawnSync(argv[0] ?? '', argv.slice(1), { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${argv.join(' ')} failed: ${run.stderr}`);
  return performance.now() - started;
};

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const fmt = (ms: number): string => `${ms.toFixed(ms < 100 ? 2 : 0)} ms`;
const gibps = (bytes: number, ms: number): string =>
  `${(bytes / (1024 * MIB) / (ms / 1000)).toFixed(2)} GiB/s`;

if (!values['no-build'])
  spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
const base = values.dir ?? tmpdir();
const dir = mkdtempSync(join(base, 'vigil-bench-ckpt-'));
const sizeMib = Number(values['size-mib']);
const smallMib = Number(values['small-mib']);
const FWD = '^layers\\.0\\.(.+)$=>midlayer.$1';
const BACK = '^midlayer\\.(.+)$=>layers.0.$1';
const GROW = '^layers\\.0\\.(.+)$=>model.decoder.layers.0.$1';
const SHRINK = '^model\\.decoder\\.layers\\.0\\.(.+)$=>layers.0.$1';
try {
  const file = join(dir, 'model.safetensors');
  const copyTarget = join(dir, 'cp-copy.bin');
  log(`writing a ${sizeMib} MiB safetensors file in ${dir}`);
  const bytes = makeFile(file, sizeMib);
  // Written data is flushed first: a checkpoint on disk is normally clean, and fsync would otherwise pay for it.
  timed(['sync', file]);

  log('cp --reflink=never --sparse=never (3 runs; page cache warm)');
  const cp: number[] = [];
  const cpSync: number[] = [];
  for (let i = 0; i < 3; i++) {
    cp.push(timed(['cp', '--reflink=never', '--sparse=never', file, copyTarget]));
    rmSync(copyTarget);
    cpSync.push(
      timed([
        'sh',
        '-c',
        `cp --reflink=never --sparse=never '${file}' '${copyTarget}' && sync '${copyTarget}'`,
      ]),
    );
    rmSync(copyTarget);
  }

  log('in place (5 library calls in fresh processes, 3 CLI runs)');
  const inPlace: WorkerResult[] = [];
  for (let i = 0; i < 5; i++) inPlace.push(worker('inplace', file, i % 2 === 0 ? FWD : BACK));
  const cli: number[] = [];
  for (let i = 0; i < 3; i++) {
    const rule = (inPlace.length + i) % 2 === 0 ? FWD : BACK;
    cli.push(
      timed([
        process.execPath,
        join(ROOT, 'bin/vigil.js'),
        'ckpt',
        'rename',
        file,
        '--map',
        rule,
        '--no-backup',
      ]),
    );
  }
  // The CLI runs alternate too; the copy runs below start from layers.0.* names.
  if ((inPlace.length + cli.length) % 2 === 1) worker('inplace', file, BACK);

  log('by copy (3 runs, verification compares every data byte)');
  const copy: WorkerResult[] = [];
  for (let i = 0; i < 3; i++) copy.push(worker('copy', file, i % 2 === 0 ? GROW : SHRINK));
  log('by copy, streamed through buffers (the fallback; 2 runs)');
  const stream: WorkerResult[] = [];
  for (let i = 0; i < 2; i++) stream.push(worker('stream', file, copy.length % 2 === i % 2 ? GROW : SHRINK));

  log(`memory: the same renames on a ${smallMib} MiB file`);
  const small = join(dir, 'small.safetensors');
  makeFile(small, smallMib);
  timed(['sync', small]);
  const smallInPlace = worker('inplace', small, FWD);
  const smallCopy = worker('copy', small, BACK.replace('=>layers.0.$1', '=>model.decoder.layers.0.$1'));

  const cpMs = median(cp);
  const cpSyncMs = median(cpSync);
  const copyTotal = median(copy.map((c) => c.ms));
  const copyWrite = median(copy.map((c) => c.write_ms));
  const copyVerify = median(copy.map((c) => c.verify_ms));
  const copyFsync = median(copy.map((c) => c.fsync_ms));
  const copyData = copyWrite - copyFsync;
  const streamTotal = median(stream.map((c) => c.ms));
  const streamData = median(stream.map((c) => c.write_ms - c.fsync_ms));
  const lines = [
    `file: ${(bytes / MIB).toFixed(0)} MiB (${bytes} bytes), ${cpus().length} CPUs, load ${loadavg()[0]?.toFixed(2) ?? '?'}, free memory ${(freemem() / 1024 / MIB).toFixed(1)} GiB; page cache warm (the file was just written)`,
    '',
    `cp --reflink=never --sparse=never     median ${fmt(cpMs)}  ${gibps(bytes, cpMs)}  (runs: ${cp.map(fmt).join(', ')})`,
    `cp + sync of the copy                 median ${fmt(cpSyncMs)}  ${gibps(bytes, cpSyncMs)}  (runs: ${cpSync.map(fmt).join(', ')})`,
    `rename in place, library call          median ${fmt(median(inPlace.map((r) => r.ms)))}  (runs: ${inPlace.map((r) => fmt(r.ms)).join(', ')}; mode ${inPlace[0]?.mode ?? '?'})`,
    `  of which header copy + write + fsync median ${fmt(median(inPlace.map((r) => r.write_ms)))}, header re-read ${fmt(median(inPlace.map((r) => r.verify_ms)))}`,
    `rename in place, whole CLI process     median ${fmt(median(cli))}  (runs: ${cli.map(fmt).join(', ')}; node start-up included)`,
    `rename by copy, whole library call     median ${fmt(copyTotal)}  ${gibps(bytes, copyTotal)}  (runs: ${copy.map((r) => fmt(r.ms)).join(', ')}; strategy ${copy.map((r) => r.copy ?? '?').join(', ')}; verification inside)`,
    `  copy span (header + data, no fsync)  median ${fmt(copyData)}  ${gibps(bytes, copyData)}`,
    `  copy + fsync span                    median ${fmt(copyWrite)}  ${gibps(bytes, copyWrite)}`,
    `  verification span (re-read both)     median ${fmt(copyVerify)}`,
    `rename by copy, streamed (fallback)    median ${fmt(streamTotal)}  ${gibps(bytes, streamTotal)}  (runs: ${stream.map((r) => fmt(r.ms)).join(', ')}); copy span ${fmt(streamData)} ${gibps(bytes, streamData)} = ${((cpMs / streamData) * 100).toFixed(0)}% of cp`,
    `copy path vs cp (throughput ratio): copy span ${((cpMs / copyData) * 100).toFixed(0)}% of cp; copy + fsync ${((cpSyncMs / copyWrite) * 100).toFixed(0)}% of cp + sync; whole call (verification inside) ${((cpSyncMs / copyTotal) * 100).toFixed(0)}% of cp + sync`,
    `peak RSS (max of the process):  in place ${smallMib} MiB ${(smallInPlace.max_rss_kib / 1024).toFixed(0)} MiB, ${sizeMib} MiB ${(Math.max(...inPlace.map((r) => r.max_rss_kib)) / 1024).toFixed(0)} MiB;  copy ${smallMib} MiB ${(smallCopy.max_rss_kib / 1024).toFixed(0)} MiB, ${sizeMib} MiB ${(Math.max(...copy.map((r) => r.max_rss_kib)) / 1024).toFixed(0)} MiB`,
    '',
    `targets: in place ≤ 50 ms: ${median(inPlace.map((r) => r.ms)) <= 50 ? 'met' : 'MISSED'} (library call); copy ≥ 80% of cp: copy span vs cp ${cpMs / copyData >= 0.8 ? 'met' : 'MISSED'}, copy + fsync vs cp + sync ${cpSyncMs / copyWrite >= 0.8 ? 'met' : 'MISSED'}, whole call vs cp + sync ${cpSyncMs / copyTotal >= 0.8 ? 'met' : 'MISSED'}; memory flat: ${Math.abs(Math.max(...copy.map((r) => r.max_rss_kib)) - smallCopy.max_rss_kib) < 32 * 1024 ? 'yes' : 'NO'} (within 32 MiB between ${smallMib} MiB and ${sizeMib} MiB)`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench', 'results', 'ckpt.json'),
    `${JSON.stringify({ bytes, cp, cpSync, inPlace, cli, copy, stream, smallInPlace, smallCopy, smallMib, sizeMib }, null, 2)}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
