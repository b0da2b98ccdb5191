import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnoseLogFile } from '../../src/diagnose/file/diagnose-file.ts';
import { findWrapWidth, unwrapLines } from '../../src/logs/hard-wrap.ts';

// Breaks each line at `width` columns, as a terminal window or a fixed-width viewer shows it.
const wrap = (lines: string[], width: number): string[] =>
  lines.flatMap((line) =>
    Array.from({ length: Math.max(1, Math.ceil(line.length / width)) }, (_, i) =>
      line.slice(i * width, (i + 1) * width),
    ),
  );

const LOG = [
  'INFO 05-12 10:00:01 [api_server.py:1043] vLLM API server version 0.9.0',
  "INFO 05-12 10:00:02 [api_server.py:1044] args: Namespace(model='Qwen/Qwen3-8B', tensor_parallel_size=2, gpu_memory_utilization=0.95, max_model_len=32768)",
  'Traceback (most recent call last):',
  '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 400, in run_engine_core',
  '    engine_core = EngineCoreProc(*args, **kwargs)',
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.02 GiB is free.',
];

describe('hard-wrapped logs', () => {
  it('finds the width a window broke the lines at, and joins the pieces again', () => {
    const wrapped = wrap(LOG, 80);
    expect(findWrapWidth(wrapped)).toBe(80);
    const joined = unwrapLines(wrapped, 80);
    expect(joined.map((line) => line.text)).toEqual(LOG);
    // Each joined line keeps the file line of its first piece.
    expect(joined.map((line) => line.line)).toEqual([1, 2, 4, 5, 7, 8]);
  });

  it('leaves a log that no window broke alone', () => {
    expect(findWrapWidth(LOG)).toBeNull();
  });

  it('does not take lines that fill the window by design for broken ones', () => {
    const bars = Array.from(
      { length: 4 },
      (_, i) =>
        `Loading safetensors checkpoint shards:  ${String(90 + i)}% Completed | ${String(112 + i)}/118 [00:56<00:02,  2.08it/s]`,
    );
    const progress = bars.flatMap((bar) => [bar, 'model.safetensors: 100%|██████████| 4.99G/4.99G']);
    expect(findWrapWidth(progress)).toBeNull();
    const padded = LOG.map((line) => line.padEnd(160)).concat(['plain text after', 'more']);
    expect(findWrapWidth(padded)).toBeNull();
    const boxed = ['│ ' + 'a'.repeat(76) + ' │', '│ ' + 'b'.repeat(76) + ' │', '│ end'];
    expect(findWrapWidth(boxed)).toBeNull();
  });

  it('counts a repeated message once, and a line after which a record begins as whole', () => {
    const repeated = [1, 2, 3].flatMap((n) => [
      `host:2032:2032 [${String(n)}] NCCL INFO Init timings: rank ${String(n)} nranks 8 total 0.31 (kernels 0.0${String(n)}, alloc 0.01)`,
      'and a line of plain text that follows it',
    ]);
    expect(findWrapWidth(repeated)).toBeNull();
    const compose = [
      'app  |   File "/usr/local/lib/python3.12/site-packages/vllm/model_executor/layers/linear.py", line 1336, in wl',
      'app  |     assert param_data.shape == loaded_weight.shape',
      'app  |   File "/usr/local/lib/python3.12/site-packages/vllm/engine/multiprocessing/engine.py", line 469, in x',
      'app  |     raise e from None',
    ];
    expect(findWrapWidth(compose)).toBeNull();
    // A C++ stack's frames, each a line of its own.
    const native = [
      `frame #1: c10::Error::Error(c10::SourceLocation) + 0x96 (${'a'.repeat(50)} in libc10.so)`,
      `frame #2: c10d::ProcessGroupNCCL::watchdog() + 0x1f (${'b'.repeat(52)} in libtorch.so)`,
      'frame #3: <unknown function> + 0xdc253 (0x7f0a in /usr/lib/libstdc++.so.6)',
    ];
    expect(native[0]?.length).toBe(native[1]?.length);
    expect(findWrapWidth(native)).toBeNull();
  });

  it('is diagnosed from a file with its lines joined, quoting the line its first piece is on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-hard-wrap-'));
    try {
      const path = join(dir, 'terminal.log');
      writeFileSync(path, `${wrap(LOG, 80).join('\n')}\n`);
      const diagnosis = await diagnoseLogFile(path);
      expect(diagnosis.class).toBe('cuda-oom');
      expect(diagnosis.summary).toMatch(/broken at 80 columns: read joined again/);
      expect(diagnosis.evidence).toContainEqual(expect.objectContaining({ line: 8, text: LOG[5] }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
