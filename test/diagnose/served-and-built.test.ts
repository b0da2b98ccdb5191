// Starts shown through by what only a serving server gets (a person reading its API docs, a client's request that
// failed, a benchmark's test request, a prefix cache mostly hit), and compilers run at start that fail.
import { describe, expect, it } from 'vitest';
import { frameOf } from '../../src/diagnose/signature-index.ts';
import { diagnoseLines } from './feed.ts';

describe('starts shown through by what a serving server gets', () => {
  it("reads a person fetching the API's docs as the server up, but not uvicorn's start lines alone", () => {
    const start = ['INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)'];
    expect(
      diagnoseLines('auto', [...start, 'INFO:     127.0.0.1:49758 - "GET /docs HTTP/1.1" 200 OK']).class,
    ).toBe('ready');
    expect(
      diagnoseLines('auto', [...start, 'INFO:     127.0.0.1:49758 - "GET /openapi.json HTTP/1.1" 200 OK'])
        .class,
    ).toBe('ready');
    expect(
      diagnoseLines('auto', [...start, 'INFO:     127.0.0.1:49758 - "GET /health HTTP/1.1" 200 OK']).class,
    ).not.toBe('ready');
  });

  it("reads an SGLang client's request answered with an error as serving, its request's own error as later", () => {
    const result = diagnoseLines('auto', [
      '[2025-07-15 23:47:06] INFO:     59.82.59.90:0 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error',
      '[2025-07-15 23:47:06] Error in request: ',
      'Traceback (most recent call last):',
      '  File "/sgl-workspace/sglang/python/sglang/srt/entrypoints/openai/serving_base.py", line 35, in handle_request',
      'NotImplementedError',
    ]);
    expect(result.class).toBe('ready');
  });

  it("reads early SGLang's prefill with a prefix cache mostly hit as serving, and a first one as not", () => {
    const fill = (rate: string) =>
      `new fill batch. #seq: 1. #cached_token: 9. #new_token: 8. #remaining_req: 0. #running_req: 0. tree_cache_hit_rate: ${rate}%.`;
    const assert =
      '../aten/src/ATen/native/cuda/Indexing.cu:1236: indexSelectSmallIndex: block: [40,0,0], thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.';
    expect(diagnoseLines('auto', [fill('49.92'), assert]).class).toBe('ready');
    expect(diagnoseLines('auto', [fill('0.00'), assert]).class).not.toBe('ready');
  });

  it("reads a serving benchmark's test request come back as the server up", () => {
    const result = diagnoseLines('auto', [
      "[2025-06-10 09:59:00] server_args=ServerArgs(model_path='m', tp_size=4)",
      '[2025-06-10 10:00:00 TP0] Capture cuda graph end. Time elapsed: 12.31 s',
      'Starting initial single prompt test run...',
      'Initial test run completed. Starting main benchmark run...',
    ]);
    expect(result.class).toBe('ready');
  });
});

describe('compilers run at start', () => {
  it("reads a C compiler's failed run as the toolchain, naming the compiler", () => {
    const result = diagnoseLines('auto', [
      '  File "/venv/lib/python3.10/site-packages/triton/runtime/build.py", line 48, in _build',
      '    ret = subprocess.check_call(cc_cmd)',
      "subprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpx4yubctp/main.c', '-O3', '-shared', '-fPIC', '-o', '/tmp/tmpx4yubctp/cuda_utils.so', '-lcuda']' returned non-zero exit status 1.",
    ]);
    expect(result.class).toBe('dependency');
    expect(result.summary).toMatch(/\(gcc\)/);
    // Any other program's failure is not a build.
    expect(
      diagnoseLines('auto', [
        "subprocess.CalledProcessError: Command '['nvidia-smi', '-L']' returned non-zero exit status 9.",
      ]).class,
    ).not.toBe('dependency');
  });

  it("reads Triton's refusal of an FP8 type on this GPU in either case, its message alone", () => {
    for (const word of ['type', 'Type'])
      expect(
        diagnoseLines('auto', [
          `${word} fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e5')`,
        ]).class,
      ).toBe('invalid-value');
  });

  it('shortens a frame of a package installed in place from its source checkout (`X/src/X/`)', () => {
    expect(
      frameOf(
        'File "/home/u/lib/transformers/src/transformers/configuration_utils.py", line 265, in __getattribute__',
      ),
    ).toBe('transformers/configuration_utils.py');
  });
});
