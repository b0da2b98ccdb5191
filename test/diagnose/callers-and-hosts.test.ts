// Failures from around the engine: a caller written for another release, and a cluster's own memory monitor.
import { describe, expect, it } from 'vitest';
import { diagnoseLines } from './feed.ts';

describe('failures from around the engine', () => {
  it("reads a caller reaching for an engine object's attribute the release lacks as releases that do not fit", () => {
    const result = diagnoseLines('auto', [
      '2025-03-24 22:04:27 | ERROR | stderr |   File "/p/FastChat/fastchat/serve/vllm_worker.py", line 57, in __init__',
      '2025-03-24 22:04:27 | ERROR | stderr |     self.tokenizer = llm_engine.engine.tokenizer',
      "2025-03-24 22:04:27 | ERROR | stderr | AttributeError: 'AsyncLLM' object has no attribute 'engine'",
    ]);
    expect(result.class).toBe('dependency');
    expect(result.summary).toMatch(/AsyncLLM\.engine/);
    // Another object's missing attribute says nothing of releases.
    expect(diagnoseLines('auto', ["AttributeError: 'NoneType' object has no attribute 'engine'"]).class).toBe(
      'unknown',
    );
  });

  it("reads Ray's memory monitor killing a worker as killed, not as the GPU's memory", () => {
    const result = diagnoseLines('auto', [
      "INFO 06-30 09:24:54 llm_engine.py:59] Initializing an LLM engine with config: model='/opt/m', tensor_parallel_size=4, seed=0)",
      '  File "/usr/local/lib/python3.8/dist-packages/ray/_private/worker.py", line 2542, in get',
      '    raise value',
      'ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.',
      'Memory on the node (IP: 10.30.192.36, ID: 17400c6c) where the task (name=Worker.__init__, pid=26332, memory used=4.54GB) was running was 31.27GB / 32.00GB (0.977188), which exceeds the memory usage threshold of 0.95.',
    ]);
    expect(result.class).toBe('killed');
    expect(result.summary).toMatch(/host ran low on RAM/);
  });

  it("reads a cluster refusing a placement group's index or a reserved environment variable as a setting", () => {
    expect(
      diagnoseLines('auto', [
        'ValueError: placement group bundle index 6 is invalid. Valid placement group indexes: 0-4',
      ]).class,
    ).toBe('invalid-value');
    // An index inside the range it names was refused for a reason the message does not give.
    expect(
      diagnoseLines('auto', [
        'ValueError: placement group bundle index 4 is invalid. Valid placement group indexes: 0-4',
      ]).class,
    ).toBe('unknown');
    expect(
      diagnoseLines('auto', [
        '(EngineCore_DP0 pid=1279235) ERROR 03-18 23:23:32 [core.py:1006] AssertionError: The env var, __RAY_WORKER_PROCESS_SETUP_HOOK_ENV_VAR, is not permitted because it is reserved for the internal use.',
        'RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
      ]).class,
    ).toBe('invalid-value');
  });

  it('reads a missing module logged as its message alone, and an early release finding no device, as the install', () => {
    const module = diagnoseLines('auto', [
      'INFO 07-08 11:49:03 [parallel_state.py:1065] rank 0 in world size 1 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0',
      "ERROR 07-08 11:49:03 [engine.py:458] No module named 'lmcache.experimental'",
      'ERROR 07-08 11:49:03 [engine.py:458] Traceback (most recent call last):',
    ]);
    expect(module.class).toBe('dependency');
    expect(module.summary).toMatch(/lmcache\.experimental/);
    expect(diagnoseLines('auto', ['RuntimeError: No supported device detected.']).class).toBe('dependency');
    // The message alone for an engine's own module is its notice of a source build without a version file.
    expect(
      diagnoseLines('auto', ["(pid=19740) No module named 'vllm._version'", 'ValueError: bad setting'])
        .summary,
    ).toMatch(/bad setting/);
  });
});
