// A page that joined a log's lines into one: the pieces share a line number, and their order on the line still
// tells what came first (a phase before a traceback, a frame above its error).
import { describe, expect, it } from 'vitest';
import { diagnoseLines } from './feed.ts';

const capture = [
  '[23:17:01 TP0] Load weight end. type=DeepseekV2ForCausalLM, dtype=torch.bfloat16, avail mem=22.01 GB',
  '[23:17:01 TP0] Memory pool end. avail mem=18.61 GB',
  '[23:17:01 TP0] Capture cuda graph begin. This can take up to several minutes.',
];
const cutTraceback = [
  'Traceback (most recent call last):',
  '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2266, in run_scheduler_process',
  '    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, pp_rank, dp_rank)',
];
const frameAboveError = [
  'Scheduler hit an exception: Traceback (most recent call last):',
  '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 405, in capture',
  '    ) = self.capture_one_batch_size(bs, forward)',
  '  File "/usr/local/lib/python3.10/dist-packages/torch/cuda/__init__.py", line 985, in synchronize',
  '    return torch._C._cuda_synchronize()',
  'RuntimeError: CUDA error: an illegal memory access was encountered',
];

describe('pieces of a joined line, in their order', () => {
  it('a traceback cut after the capture phase began, on the same line, is a capture failure', () => {
    const lines = [...capture, ...cutTraceback];
    expect(diagnoseLines('auto', lines).class).toBe('graph-capture-failed');
    expect(diagnoseLines('auto', [lines.join(' ')]).class).toBe('graph-capture-failed');
  });

  it('a traceback cut before the capture phase began on the same line is not where the log ends', () => {
    const lines = [...cutTraceback, ...capture];
    expect(diagnoseLines('auto', lines).class).toBe('hang');
    expect(diagnoseLines('auto', [lines.join(' ')]).class).toBe('hang');
  });

  it("a step's frame above an unnamed error on the same line gives the error the step's class", () => {
    expect(diagnoseLines('auto', frameAboveError).class).toBe('graph-capture-failed');
    const joined = diagnoseLines('auto', [frameAboveError.join(' ')]);
    expect(joined.class).toBe('graph-capture-failed');
    expect(joined.summary).toContain('illegal memory access');
  });

  it("a step's frame below the error on the same line (another traceback) does not", () => {
    const [header = '', ...rest] = frameAboveError;
    const error = rest.at(-1) ?? '';
    const joined = [header, error, ...rest.slice(0, -1)].join(' ');
    expect(diagnoseLines('auto', [joined]).class).not.toBe('graph-capture-failed');
  });
});
