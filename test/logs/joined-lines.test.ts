// A log whose lines a page joined into one is read as the lines it held.
import { describe, expect, it } from 'vitest';
import { createDiagnoser } from '../../src/diagnose/diagnoser.ts';
import { splitJoinedLine } from '../../src/logs/joined-lines.ts';

// A Hugging Face Space's runtime-error banner: the end of the container's log, its lines joined by spaces.
const BANNER = [
  'Exit code: 1. Reason: INFO 08-03 08:33:38 [__init__.py:239] No platform detected, vLLM is running on UnspecifiedPlatform',
  "WARNING 08-03 08:33:39 [_custom_ops.py:20] Failed to import from vllm._C with ImportError('libcuda.so.1: cannot open shared object file')",
  'Traceback (most recent call last):',
  'File "/home/user/app/app.py", line 5, in <module> llm = vllm.LLM(',
  'File "/usr/local/lib/python3.10/site-packages/vllm/config.py", line 2591, in __post_init__ self.device = torch.device(self.device_type) RuntimeError: Device string must not be empty',
].join(' ');

describe('joined lines', () => {
  it("splits a page's joined log at its records' starts, frames from their source lines, the error from its code", () => {
    expect(splitJoinedLine(BANNER)).toEqual([
      'Exit code: 1. Reason:',
      'INFO 08-03 08:33:38 [__init__.py:239] No platform detected, vLLM is running on UnspecifiedPlatform',
      "WARNING 08-03 08:33:39 [_custom_ops.py:20] Failed to import from vllm._C with ImportError('libcuda.so.1: cannot open shared object file')",
      'Traceback (most recent call last):',
      'File "/home/user/app/app.py", line 5, in <module>',
      'llm = vllm.LLM(',
      'File "/usr/local/lib/python3.10/site-packages/vllm/config.py", line 2591, in __post_init__',
      'self.device = torch.device(self.device_type)',
      'RuntimeError: Device string must not be empty',
    ]);
  });

  it('splits at vLLM process tags with their level, and at bracketed stamps', () => {
    const joined = [
      '(EngineCore_DP0 pid=216) INFO 06-27 01:52:10 [core.py:70] Initializing a V1 LLM engine (v0.10.1) with config: model=m',
      '(EngineCore_DP0 pid=216) ERROR 06-27 01:53:00 [core.py:1006] EngineCore failed to start.',
      '[2025-09-11 10:25:43 TP0] Load weight begin. avail mem=78.5 GB',
      '[2025-09-11 10:26:05] The server is fired up and ready to roll!',
    ].join(' ');
    expect(splitJoinedLine(joined)).toHaveLength(4);
  });

  it('leaves a long line of one record alone, and one with fewer than three starts inside', () => {
    const serverArgs = `[2025-09-11 10:25:40] server_args=ServerArgs(model_path='m', ${'x=1, '.repeat(200)}tp_size=1)`;
    expect(splitJoinedLine(serverArgs)).toBeNull();
    const two = `${'word '.repeat(50)}INFO 08-03 08:33:38 [a.py:1] one INFO 08-03 08:33:39 [a.py:2] two`;
    expect(splitJoinedLine(two)).toBeNull();
    // A start inside a record's message (no space before it) is not one.
    expect(splitJoinedLine(`${'a'.repeat(300)}'Traceback (most recent call last):'`)).toBeNull();
  });

  it('reads the joined log as it reads the lines: the warning is no cause, the error that follows is', () => {
    const diagnoser = createDiagnoser({ engine: 'auto' });
    diagnoser.push({ line: 1, text: BANNER });
    const diagnosis = diagnoser.finish({});
    expect(diagnosis.class).toBe('dependency');
    expect(diagnosis.summary).toContain('found no GPU or other accelerator');
    expect(diagnosis.evidence.map((e) => e.text)).toContain('RuntimeError: Device string must not be empty');
  });

  it("splits at vLLM's process tags (also coloured) before frames and exceptions, NCCL's debug lines and torch's warnings", () => {
    const tag = '(EngineCore_DP0 pid=5132)';
    const tagged = [
      `${tag}   File "/venv/aiter/aiter/jit/core.py", line 1209, in custom_wrapper`,
      `${tag}     return wrapper(*args, **kwargs)`,
      `${tag}   File "/venv/aiter/aiter/jit/core.py", line 1205, in wrapper`,
      `${tag}     return op(*args, **kwargs)`,
      `${tag} RuntimeError: invalid argument for fmha_v3_varlen_fwd`,
    ];
    expect(splitJoinedLine(tagged.join(' '))).toEqual(tagged);
    // A worker's tag that names its rank (vLLM 0.9's `(VllmWorker rank=0 pid=790)`).
    const ranked = tagged.map((line) => line.replace(tag, '(VllmWorker rank=0 pid=790)'));
    expect(splitJoinedLine(ranked.join(' '))).toEqual(ranked);
    const diagnoser = createDiagnoser({ engine: 'auto' });
    diagnoser.push({ line: 1, text: tagged.join(' ') });
    expect(diagnoser.finish({}).summary).toContain('invalid argument for fmha_v3_varlen_fwd');

    const coloured = Array.from(
      { length: 3 },
      () =>
        '\u001b[1;36m(APIServer pid=1288829)\u001b[0;0m INFO:     172.18.0.3:38234 - "GET /metrics HTTP/1.1" 200 OK',
    );
    expect(splitJoinedLine(coloured.join(' '))).toEqual(coloured);

    const native = [
      'Traceback (most recent call last):',
      "worker-6:56890:56890 [0] enqueue.cc:267 NCCL WARN Cuda failure 'dependency created on uncaptured work in another stream'",
      '[rank0]:[W1203 10:00:00.123456 ProcessGroupNCCL.cpp:1250] Warning: process group has NOT been destroyed',
    ];
    expect(splitJoinedLine(native.join(' '))).toEqual(native);
  });

  it('counts a record that opens the line toward the starts', () => {
    const frames = [
      'File "/opt/sglang/srt/model_loader/loader.py", line 437, in load_model',
      'self.load_weights_and_postprocess(',
      'File "/opt/sglang/srt/model_loader/loader.py", line 445, in load_weights_and_postprocess',
      'model.load_weights(weights)',
      'File "/opt/sglang/srt/models/qwen3.py", line 493, in load_weights',
      'param = params_dict[name]',
      "KeyError: 'midlayer.self_attn.qkv_proj.weight'",
    ];
    expect(splitJoinedLine(frames.join(' '))).toEqual(frames);
  });

  it('takes the exception off the end of a traceback whose frames have no record starts (IPython)', () => {
    const lines = [
      "INFO 06-04 05:35:54 [core.py:309] Initializing a V1 LLM engine (v0.10.1) with config: model='m'",
      'INFO 06-04 05:35:55 [parallel_state.py:1134] rank 0 in world size 1 is assigned as DP rank 0',
      'INFO 06-04 05:35:56 [gpu_model_runner.py:1913] Starting to load model m...',
      '-> 1785     raise RuntimeError(error)',
      'RuntimeError: Duplicate layer name: model.layers.0.self_attn.attn',
    ];
    const pieces = splitJoinedLine(lines.join(' '));
    expect(pieces?.at(-1)).toBe(lines.at(-1));
    expect(pieces?.at(-2)).toMatch(/raise RuntimeError\(error\)$/);
  });
});
