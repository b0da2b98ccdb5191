import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diagnoseLogFile } from '../../../src/diagnose/file/diagnose-file.ts';
import { readLines } from '../fixture-logs.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-diagnose-file-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

// Noise of the shapes a long-running SGLang writes: health polls, metrics scrapes and decode-batch lines (of one
// request: a batch of several shows clients were served, which would make the start one that got through).
const NOISE = [
  '[2025-09-11 11:00:00] INFO:     127.0.0.1:60028 - "GET /health HTTP/1.1" 200 OK',
  '[2025-09-11 11:00:00 TP0] Decode batch. #running-req: 1, #token: 20480, token usage: 0.02, cuda graph: True, gen throughput (token/s): 1510.52, #queue-req: 0',
  '[2025-09-11 11:00:01] INFO:     10.0.0.7:51234 - "GET /metrics HTTP/1.1" 200 OK',
].join('\n');

// Writes head lines, then noise up to `bytes`, then tail lines; returns the line number of the first tail line.
const writeLog = async (path: string, head: string[], bytes: number, tail: string[]): Promise<number> => {
  const out = createWriteStream(path);
  let lines = 0;
  const write = (text: string) => {
    lines += text.split('\n').length;
    return out.write(`${text}\n`);
  };
  for (const line of head) write(line);
  const block = Array.from({ length: 200 }, () => NOISE).join('\n');
  for (let written = 0; written < bytes; written += block.length + 1) {
    if (!write(block))
      await new Promise<void>((resolve) =>
        out.once('drain', () => {
          resolve();
        }),
      );
  }
  const first = lines + 1;
  for (const line of tail) write(line);
  out.end();
  await finished(out);
  return first;
};

describe('diagnoseLogFile', () => {
  // 18 MB: more than a file read whole (16 MB) and more than the search back for the last start (16 MB, in 1 MB steps).
  it('finds the failure at the end of an 18 MB log, with its file line number', async () => {
    const path = join(dir, 'big.log');
    const startup = readLines('sglang-ready-01.log')
      .slice(0, 40)
      .map((l) => l.text);
    const crash = readLines('sglang-cuda-oom-01.log').map((l) => l.text);
    const first = await writeLog(path, startup, 18 * 1024 * 1024, crash);
    const diagnosis = await diagnoseLogFile(path, { engine: 'sglang' });
    expect(diagnosis.class).toBe('cuda-oom');
    expect(diagnosis.evidence.map((e) => e.line)).toContain(first + crash.length - 1);
  });

  it("reads past a serving server's batch lines once its start got through, and still finds a restart after them", async () => {
    const path = join(dir, 'big.log');
    const ready = readLines('sglang-ready-01.log').map((l) => l.text);
    const restart = [
      "[2025-09-12 08:00:00] server_args=ServerArgs(model_path='m', tp_size=1)",
      ...readLines('sglang-cuda-oom-01.log').map((l) => l.text),
    ];
    const first = await writeLog(path, ready, 18 * 1024 * 1024, restart);
    const diagnosis = await diagnoseLogFile(path, { engine: 'auto' });
    expect(diagnosis.class).toBe('cuda-oom');
    expect(diagnosis.evidence.every((e) => (e.line ?? 0) >= first)).toBe(true);
  });

  it('finds a root cause at the start of an 18 MB log whose process then kept printing', async () => {
    const path = join(dir, 'big.log');
    await writeLog(
      path,
      [
        '[2025-08-08 09:09:09 TP3] RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)',
      ],
      18 * 1024 * 1024,
      ['[2025-08-08 10:09:09 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=True)'],
    );
    // SGLang: its own warm-up is a /generate request, so the ones in the noise do not make it a start that got through.
    const diagnosis = await diagnoseLogFile(path, { engine: 'sglang' });
    expect(diagnosis.class).toBe('nccl');
    expect(diagnosis.evidence[0]?.line).toBe(1);
  });

  it("finds a shell's report in Chinese of a killed server (naming no engine) well above the log's last lines", async () => {
    const path = join(dir, 'translated.log');
    const lines = [
      ...readLines('sglang-hang-01.log').map((l) => l.text),
      '/bin/bash: 行 1: 118001 已杀死 ./serve.sh',
      ...Array.from({ length: 40 }, (_, i) => `monitor: sample ${String(i)} gpu0 util 0%`),
    ];
    writeFileSync(path, `${lines.join('\n')}\n`);
    const diagnosis = await diagnoseLogFile(path);
    expect(diagnosis.class).toBe('killed');
    expect(diagnosis.evidence.some((item) => item.text.includes('已杀死'))).toBe(true);
  });

  // Every evidence line quoted is the file's own line of that number.
  const expectFileLines = (path: string, diagnosis: { evidence: { line?: number; text: string }[] }) => {
    const lines = readFileSync(path, 'utf8').split('\n');
    for (const item of diagnosis.evidence)
      expect(lines[(item.line ?? 0) - 1]).toContain(item.text.slice(-40));
  };

  it('reads only the last start of a log written by launch after launch, with file line numbers', async () => {
    const path = join(dir, 'restarts.log');
    const served = readLines('sglang-ready-01.log').map((l) => l.text);
    const second = readLines('sglang-ready-02.log').map((l) => l.text);
    // The first start crashed after serving; then the server was started again, and this start hangs.
    const crash = readLines('sglang-cuda-oom-01.log').map((l) => l.text);
    const hang = readLines('sglang-hang-01.log').map((l) => l.text);
    const first = await writeLog(path, [...served, ...second.slice(40)], 20 * 1024 * 1024, [
      ...crash,
      ...hang,
    ]);
    const diagnosis = await diagnoseLogFile(path);
    expect(diagnosis.class).toBe('hang');
    expect(diagnosis.summary).toContain('distributed');
    expect(Math.min(...diagnosis.evidence.map((e) => e.line ?? 0))).toBe(first + crash.length);
    expectFileLines(path, diagnosis);
  });

  it("starts a new start at another engine's first line, even right after a start that printed no phase", async () => {
    const path = join(dir, 'two-engines.log');
    const failed = readLines('vllm-dependency-01.log').map((l) => l.text);
    const hang = readLines('sglang-hang-01.log').map((l) => l.text);
    writeFileSync(path, `${[...failed, ...hang].join('\n')}\n`);
    const diagnosis = await diagnoseLogFile(path);
    expect(diagnosis.class).toBe('hang');
    expectFileLines(path, diagnosis);
    // With the first start alone, its own failure is found.
    writeFileSync(path, `${failed.join('\n')}\n`);
    expect((await diagnoseLogFile(path)).class).toBe('dependency');
  });

  it("keeps the lines above a log's only start (nothing there belongs to another start)", async () => {
    const path = join(dir, 'one-start.log');
    const hang = readLines('sglang-hang-01.log').map((l) => l.text);
    const preamble = '[2025-06-04 07:49:50] RuntimeError: NCCL error: unhandled system error';
    writeFileSync(path, `${[preamble, ...hang].join('\n')}\n`);
    const diagnosis = await diagnoseLogFile(path);
    expect(diagnosis.class).toBe('nccl');
    expect(diagnosis.evidence[0]?.line).toBe(1);
  });

  it('reads a log with one line longer than its search chunk, ending just before the last lines (no hang)', async () => {
    const path = join(dir, 'long-line.log');
    // A 1.1 MB error line (a copy error listing every file), its newline inside the last MiB of the file.
    const entry =
      "('/opt/ck/include/a.hpp', '/opt/build/ck/a.hpp', \"[Errno 13] Permission denied: '/opt/build/ck/a.hpp'\"), ";
    const lines = [
      'INFO 03-05 03:58:49 __init__.py:179] Automatically detected platform rocm.',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.12/shutil.py", line 600, in copytree',
      `shutil.Error: [${entry.repeat(Math.ceil(1_100_000 / entry.length))}]`,
      'INFO 03-05 03:59:00 launch.py:10] cleaning up',
    ];
    writeFileSync(path, `${lines.join('\n')}\n`);
    const started = Date.now();
    const diagnosis = await diagnoseLogFile(path);
    expect(diagnosis.class).toBe('unknown');
    // Well under the suite's timeout: the search back stops at a chunk where no line starts.
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
