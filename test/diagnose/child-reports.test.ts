// SGLang's launcher reporting that a child process failed: the exit code, the SIGQUIT a failing child sends, and the
// pipe to a scheduler closing. Each is the child's failure when the child's own error is in the log, above or below.
import { describe, expect, it } from 'vitest';
import { diagnoseLines } from './feed.ts';

const diagnose = (lines: string[]) => diagnoseLines('auto', lines);

const SIGQUIT =
  '[2025-12-25 20:56:41] Received sigquit from a child process. It usually means the child failed.';
const died = (code: string) =>
  `RuntimeError: Rank 0 scheduler died during initialization (exit code: ${code}). If exit code is -9 (SIGKILL), a common cause is the OS OOM killer. Run \`dmesg -T | grep -i oom\` to check.`;

describe("SGLang's reports of a child's failure", () => {
  it('reads a scheduler that exited with a code as another process failing, and one killed by a signal as killed', () => {
    const exited = diagnose([died('255')]);
    expect(exited.class).toBe('peer-rank-failed');
    expect(exited.summary).toMatch(/exit code 255/);
    expect(diagnose([died('-9')]).class).toBe('killed');
  });

  it("gives way to the scheduler's own error above the report", () => {
    expect(
      diagnose([
        '[2026-01-01 00:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):',
        'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.11 GiB',
        died('1'),
      ]).class,
    ).toBe('cuda-oom');
  });

  it("reads the SIGQUIT report alone as another process failing, and gives way to the child's error below it", () => {
    expect(diagnose([SIGQUIT]).class).toBe('peer-rank-failed');
    expect(
      diagnose([
        '[2024-11-01 10:00:00] Received sigquit from a child proces. It usually means the child failed.',
      ]).class,
    ).toBe('peer-rank-failed');
    const below = diagnose([
      SIGQUIT,
      '[2025-12-25 20:56:41 TP0] Scheduler hit an exception: Traceback (most recent call last):',
      '  File "/home/ai/sglang/python/sglang/srt/model_executor/model_runner.py", line 2670, in init_device_graphs',
      '    self.graph_runner = graph_runners[self.device](self)',
    ]);
    expect(below.class).toBe('graph-capture-failed');
    expect(
      diagnose([
        SIGQUIT,
        'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 42.00 MiB. GPU 0 has a total capacity of 23.49 GiB',
      ]).class,
    ).toBe('cuda-oom');
  });

  it("reads the launcher's EOFError from a scheduler's pipe as that scheduler's death", () => {
    const result = diagnose([
      'Traceback (most recent call last):',
      '  File "/sgl-workspace/sglang/python/sglang/srt/entrypoints/engine.py", line 1340, in _wait_for_scheduler_ready',
      '    data = scheduler_pipe_readers[i].recv()',
      '  File "/usr/lib/python3.10/multiprocessing/connection.py", line 383, in _recv',
      '    raise EOFError',
      'EOFError',
    ]);
    expect(result.class).toBe('peer-rank-failed');
    expect(result.summary).toMatch(/lost its pipe to a scheduler/);
  });

  it("reads a rank's store connection closed by the store's side as its host's death, and gives way to that death", () => {
    const closed =
      '[rank1]:[W1119 17:59:26.271588084 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=61, addr=[localhost]:33850, remote=[localhost]:30005): Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?';
    expect(
      diagnose([
        closed,
        'Exception raised from recvBytes at /pytorch/torch/csrc/distributed/c10d/Utils.hpp:682 (most recent call first):',
      ]).class,
    ).toBe('peer-rank-failed');
    expect(
      diagnose([
        '[2026-01-23 09:10:40] Rank 0 scheduler is dead. Please check if there are relevant logs.',
        closed,
      ]).class,
    ).toBe('killed');
  });

  it("finds the child's error on the report's own line where a page joined the log's lines into one", () => {
    const joined = [
      '[2025-11-06 02:10:00 TP0] Scheduler hit an exception: Traceback (most recent call last):',
      '  File "/sgl-workspace/sglang/python/sglang/srt/models/qwen2.py", line 420, in load_weights',
      '    param = params_dict[name]',
      "KeyError: 'lm_head.weight'",
      SIGQUIT,
      '[2025-11-06 02:10:01] Rank 0 scheduler is dead. Please check if there are relevant logs.',
    ].join(' ');
    expect(diagnose([joined]).class).toBe('weight-mismatch');
  });

  it("reads an error raised inside the launcher's SIGQUIT handler as the report, giving way to the child's error", () => {
    const handler = [
      'Traceback (most recent call last):',
      '  File "/sgl-workspace/sglang/python/sglang/srt/entrypoints/engine.py", line 403, in sigquit_handler',
      '    kill_process_tree(os.getpid())',
      '  File "/usr/local/lib/python3.10/dist-packages/psutil/_common.py", line 802, in cat',
      '    with _open(fname) as f:',
      'RecursionError: maximum recursion depth exceeded while calling a Python object',
    ];
    expect(diagnose(handler).class).toBe('peer-rank-failed');
    expect(
      diagnose([
        '[2025-03-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call last):',
        'ValueError: Unsupported quantization method: foo8',
        ...handler,
      ]).summary,
    ).toMatch(/foo8/);
  });
});
