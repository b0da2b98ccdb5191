// Message shapes read by what they say, wherever they come from: the second half of torch's out-of-memory message,
// a compiled extension a build lacks, a setting named by an environment variable, Ray's autoscaler finding no node
// for the GPUs asked, transformers' backend mapping, a vLLM process tag with only a level after it, and
// compressed-tensors' capability check.
import { describe, expect, it } from 'vitest';
import { diagnoseLines } from './feed.ts';

const diagnose = (lines: string[]) => diagnoseLines('auto', lines);

describe('message shapes', () => {
  it("reads the second half of torch's out-of-memory message alone as out of memory", () => {
    expect(
      diagnose([
        'ess has 0 bytes memory in use. Of the allocated memory 21.48 GiB is allocated by PyTorch, and 10.95 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.',
        'Traceback (most recent call last):',
        '  File "/usr/local/bin/vllm", line 8, in <module>',
      ]).class,
    ).toBe('cuda-oom');
  });

  it('reads a compiled extension the build lacks as dependency, also relayed by the process that waited for it', () => {
    expect(
      diagnose([
        "(EngineCore pid=4) ERROR 06-03 17:19:18 [core.py:1140] RuntimeError: Worker failed with error 'vllm.vllm_flash_attn requires the CUDA flash attention extensions (_vllm_fa2_C or _vllm_fa3_C). On ROCm, use upstream flash_attn.', please check the stack trace above for the root cause",
      ]).class,
    ).toBe('dependency');
  });

  it('reads a check that asks for an environment variable as a refused setting, but not a hint to turn on logging', () => {
    expect(
      diagnose([
        'AssertionError: 3-read Mamba conv transfer requires DS conv state layout. Set VLLM_SSM_CONV_STATE_LAYOUT=DS',
      ]).class,
    ).toBe('invalid-value');
    expect(
      diagnose(['RuntimeError: worker crashed; set VLLM_LOGGING_LEVEL=DEBUG to turn on verbose logging'])
        .class,
    ).toBe('unknown');
  });

  it("reads Ray's autoscaler finding no node for the resources asked as a setting the cluster cannot meet", () => {
    const result = diagnose([
      '2025-03-03 22:56:06,190 INFO worker.py:1821 -- Connected to Ray cluster.',
      "(autoscaler +13s) Error: No available node types can fulfill resource request {'node:10.0.0.2': 0.001, 'GPU': 1.0}. Add suitable node types to this cluster to resolve this issue.",
    ]);
    expect(result.class).toBe('invalid-value');
    expect(result.summary).toMatch(/'GPU': 1\.0/);
  });

  it("reads transformers' unknown optional backend as releases that do not fit", () => {
    expect(
      diagnose([
        'ValueError: Backend should be defined in the BACKENDS_MAPPING. Offending backend: torchvision',
      ]).class,
    ).toBe('dependency');
  });

  it("reads a vLLM process tag with only a level after it, as a post that cut vLLM's stamp shows it", () => {
    const result = diagnose([
      '(Worker_PP1) ERROR Traceback (most recent call last):',
      '(Worker_PP1) ERROR   File "vllm/model_executor/models/granitemoehybrid.py", line 561, in load_weights',
      '(Worker_PP1) ERROR     param = params_dict[n]',
      "(Worker_PP1) ERROR KeyError: 'layers.0.block_sparse_moe.gate.weight'",
    ]);
    expect(result.class).toBe('weight-mismatch');
    expect(result.evidence.map((evidence) => evidence.line)).toContain(4);
  });

  it("reads a traceback cut inside compressed-tensors' capability check as a GPU below the scheme's needs", () => {
    const tag = '(EngineCore pid=19780) ERROR 07-01 23:16:22 [core.py:1266] ';
    const result = diagnose([
      `${tag}  File "/envs/vllm/lib/python3.12/site-packages/vllm/model_executor/layers/quantization/compressed_tensors/compressed_tensors.py", line 757, in get_scheme`,
      `${tag}    self._check_scheme_supported(scheme.get_min_capability())`,
      `${tag}  File "/envs/vllm/lib/python3.12/site-packages/vllm/model_executor/layers/quantization/compressed_tensors/compressed_tensors.py", line 354, in _check_scheme_supported`,
      `${tag}    raise RuntimeError(`,
    ]);
    expect(result.class).toBe('invalid-value');
  });

  it("reads a relay's default INFO before a child's line that names no level as no level, and a kernel check naming only its source", () => {
    const relayed = (text: string) =>
      `2025-04-23T03:35:43.390Z  INFO dynamo_engine_vllm::worker: VLLM: ${text}`;
    const result = diagnose([
      relayed('INFO 04-23 03:34:26 [model_runner.py:1] Capturing cudagraphs for decoding.'),
      relayed("Failed: /workspace/csrc/custom_all_reduce.cuh:368 'invalid argument'"),
      'Capturing CUDA graph shapes: 100%|██████████| 35/35 [01:17<00:00,  2.20s/it]',
      relayed("Failed: /workspace/csrc/custom_all_reduce.cuh:368 'invalid argument'"),
    ]);
    expect(result.class).toBe('graph-capture-failed');
    expect(result.summary).toContain('invalid argument (at /workspace/csrc/custom_all_reduce.cuh:368)');
    // The relay's own INFO line, with no child named, stays a notice.
    expect(
      diagnose([
        "2025-04-23T03:35:43.390Z  INFO dynamo_engine_vllm::worker: Failed: /workspace/csrc/custom_all_reduce.cuh:368 'invalid argument'",
        'INFO 04-23 03:36:00 [model_runner.py:1] Graph capturing finished in 77 secs.',
      ]).class,
    ).not.toBe('graph-capture-failed');
  });

  it("reads Ascend's transfer layer naming HCCL's error code as distributed setup failing", () => {
    expect(
      diagnose([
        '(Worker_TP0 pid=74487) ERROR 03-01 20:55:34 [multiproc_executor.py:671] RuntimeError: Failed to register memory | HCCL Error Code: 19',
      ]).class,
    ).toBe('nccl');
  });

  it("reads an access line of one of vLLM's several API servers as a start that got through", () => {
    const result = diagnose([
      '(ApiServer_7 pid=172807) INFO:     127.0.0.1:44928 - "GET /metrics HTTP/1.1" 200 OK',
      '!!!!!!! Segfault encountered !!!!!!!',
      '  File "<unknown>", line 0, in _PyEval_EvalFrameDefault',
    ]);
    expect(result.class).toBe('ready');
    expect(result.summary).toMatch(/later the server crashed with SIGSEGV/);
  });

  it('reads an error in a cleanup Python runs at exit as no cause, also without its `Exception ignored` line', () => {
    const result = diagnose([
      'Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.12/weakref.py", line 666, in _exitfunc',
      '    f()',
      '  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/multiproc_executor.py", line 228, in shutdown',
      '    for w in self.workers:',
      "AttributeError: 'MultiprocExecutor' object has no attribute 'workers'",
    ]);
    expect(result.class).toBe('peer-rank-failed');
  });

  it("reads a TPU backend's device mesh larger than the devices found as parallel sizes the host cannot meet", () => {
    const result = diagnose([
      '(EngineCore pid=289) ValueError: Insufficient devices for 2D mesh: found 1, expected 8 for mesh shape (1, 8).',
    ]);
    expect(result.class).toBe('invalid-value');
    expect(result.summary).toContain('8 ranks, 1 GPUs');
  });

  it("reads pydantic's report of an assert in a configuration validator as a refused setting", () => {
    const result = diagnose([
      '(APIServer pid=1060454) pydantic_core._pydantic_core.ValidationError: 1 validation error for VllmConfig',
      '(APIServer pid=1060454)   Assertion failed, Tensor parallelism is set when compiled in optimum-rbln. [type=assertion_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]',
    ]);
    expect(result.class).toBe('invalid-value');
    expect(result.summary).toContain('Tensor parallelism is set when compiled in optimum-rbln');
  });
});
