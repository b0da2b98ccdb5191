// A log pasted newest line first (a log console's copy) is read in time order, with the file's own line numbers.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diagnoseLogFile } from '../../../src/diagnose/file/diagnose-file.ts';
import { isNewestFirst, timeOrder } from '../../../src/diagnose/file/time-order.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-time-order-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

// An SGLang start that died in NCCL's setup, as Google Cloud Logging's explorer stamps each entry (oldest first).
const START = [
  "[2025-04-05 00:00:52] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-70B-Instruct', tp_size=8)",
  '[2025-04-05 00:01:05 TP0] Init torch distributed begin.',
  'Traceback (most recent call last):',
  'File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 328, in init_torch_distributed',
  'torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details)',
  '[2025-04-05 00:01:19] Received sigquit from a child process. It usually means the child failed.',
  './entrypoint.sh: line 48: 28 Killed python3 -m sglang.launch_server --host 0.0.0.0',
].map((line, i) => `ERROR 2025-04-05T00:01:${String(10 + i).padStart(2, '0')}.20910${i}Z ${line}`);

describe('a log pasted newest line first', () => {
  it('is diagnosed in time order, quoting the file line numbers', async () => {
    const path = join(dir, 'console.log');
    writeFileSync(path, `${[...START].reverse().join('\n')}\n`);
    const diagnosis = await diagnoseLogFile(path);
    expect(diagnosis.class).toBe('nccl');
    expect(diagnosis.summary).toMatch(/newest line first/);
    // The NCCL error is the 5th entry in time order, the 3rd line of the file.
    expect(diagnosis.evidence).toContainEqual(expect.objectContaining({ line: 3, text: START[4] }));
  });

  it('keeps an entry with lines below its stamp together, and leaves a log in time order as it is', () => {
    const stamped = (second: number, text: string) =>
      `2025-04-05T00:01:${String(second).padStart(2, '0')}.000Z ${text}`;
    const lines = [stamped(30, 'c'), stamped(20, 'b'), '  continued', stamped(10, 'a'), stamped(9, 'z')];
    // Three steps back and none forward decide a short log; two do not, nor three with one forward.
    expect(isNewestFirst(lines)).toBe(true);
    expect(isNewestFirst(lines.slice(0, 4))).toBe(false);
    expect(isNewestFirst([...lines, stamped(40, 'late')])).toBe(false);
    const many = Array.from({ length: 8 }, (_, i) => stamped(50 - i, `line ${String(i)}`));
    expect(isNewestFirst(many)).toBe(true);
    expect(isNewestFirst([...many].reverse())).toBe(false);
    expect(timeOrder(lines)).toEqual([5, 4, 2, 3, 1]);
  });

  it("reads vLLM's stamps without a year, and a short console copy behind an unknown prefix", () => {
    const vllm = (time: string, text: string) =>
      `pod-1[info]INFO 03-24 18:13:${time} model_runner.py:1] ${text}`;
    const lines = [
      "pod-1[error]Uncaught exception | <class 'ValueError'>; the model has no implementation",
      vllm('28', 'Starting to load model m...'),
      vllm('27', 'Using Flash Attention backend.'),
      vllm('18', 'This model supports multiple tasks.'),
      vllm('17', 'Automatically detected platform cuda.'),
    ];
    expect(isNewestFirst(lines)).toBe(true);
    expect(timeOrder(lines)).toEqual([5, 4, 3, 2, 1]);
  });

  it('is not turned round for a few late stamps in a log in time order', () => {
    const lines = Array.from(
      { length: 40 },
      (_, i) => `2025-04-05T00:01:${String(10 + i).padStart(2, '0')}.000Z x`,
    );
    lines.splice(10, 0, '2025-04-05T00:00:01.000Z a line stamped late by another process');
    expect(isNewestFirst(lines)).toBe(false);
  });
});
