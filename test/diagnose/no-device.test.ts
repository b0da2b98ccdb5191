// A start on a host where no GPU is visible: the engines' and torch's notices of it give a later failure that names
// nothing itself its class (dependency), and torch's empty device string is that condition in its own words.
import { describe, expect, it } from 'vitest';
import { diagnoseLines } from './feed.ts';
import { ALWAYS_NEEDLES, ERROR_NEEDLES } from '../../src/diagnose/needles.ts';
import { NOTICE_CONTEXTS } from '../../src/diagnose/signatures.ts';

const diagnose = diagnoseLines;

const NO_PLATFORM =
  'INFO 06-21 10:31:43 [__init__.py:239] No platform detected, vLLM is running on UnspecifiedPlatform';
const CUT_TRACEBACK = [
  'Traceback (most recent call last):',
  '  File "/usr/local/lib/python3.12/dist-packages/vllm/engine/arg_utils.py", line 1002, in create_engine_config',
  '    device_config = DeviceConfig(',
];

describe('a host where no GPU is visible', () => {
  it("has notices whose samples match and that the prefilter's needles find", () => {
    for (const context of NOTICE_CONTEXTS)
      for (const sample of context.samples) {
        expect(context.pattern.test(sample), sample).toBe(true);
        expect(sample).toContain(context.needle);
        expect(
          [...ERROR_NEEDLES, ...ALWAYS_NEEDLES].some((needle) => sample.includes(needle)),
          sample,
        ).toBe(true);
      }
  });

  it("takes vLLM's `No platform detected` as the cause of a traceback cut before its error line", () => {
    const result = diagnose('auto', [NO_PLATFORM, ...CUT_TRACEBACK]);
    expect(result.class).toBe('dependency');
    expect(result.summary).toMatch(/no device platform/);
    expect(result.evidence.map((evidence) => evidence.line)).toContain(1);
  });

  it("takes torch's `No CUDA runtime is found` as the cause of an unnamed error", () => {
    const result = diagnose('auto', [
      "W0621 10:31:44.373000 1 torch/utils/cpp_extension.py:140] No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'",
      'Traceback (most recent call last):',
      '  File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/cli/main.py", line 85, in main',
      'AssertionError',
    ]);
    expect(result.class).toBe('dependency');
  });

  it('leaves a failure with a class of its own, a failure above the notice, and a start that got through alone', () => {
    expect(
      diagnose('auto', [
        NO_PLATFORM,
        'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.65 GiB',
      ]).class,
    ).toBe('cuda-oom');
    expect(diagnose('auto', ['AssertionError: bad layer count', NO_PLATFORM]).class).toBe('unknown');
    expect(
      diagnose('vllm', [
        NO_PLATFORM,
        'INFO 06-21 10:32:43 [launcher.py:29] Available routes are:',
        'INFO:     Application startup complete.',
      ]).class,
    ).toBe('ready');
  });

  it("reads torch's empty device string as no device found", () => {
    const result = diagnose('auto', ['RuntimeError: Device string must not be empty']);
    expect(result.class).toBe('dependency');
    expect(result.summary).toMatch(/no GPU or other accelerator/);
  });

  it("reads vLLM 0.6's `Failed to infer device type`, logged above a traceback cut in the config's frames, as no device", () => {
    const result = diagnose('auto', [
      'INFO 05-05 00:55:20 api_server.py:585] vLLM API server version 0.6.4.post1',
      'ERROR 05-05 00:55:28 engine.py:366] Failed to infer device type',
      'ERROR 05-05 00:55:28 engine.py:366] Traceback (most recent call last):',
      'ERROR 05-05 00:55:28 engine.py:366]   File "/venv/lib/python3.11/site-packages/vllm/config.py", line 1208, in __init__',
    ]);
    expect(result.class).toBe('dependency');
  });
});
