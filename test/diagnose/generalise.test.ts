// Rules that name general shapes, not single files: notices never outrank a later error, capture failures of
// every kind, uvicorn's start line is not SGLang's ready line, TGI's launcher and shard failures.
import { describe, expect, it } from 'vitest';
import { createEngineGuess } from '../../src/diagnose/detect-engine.ts';
import { createDiagnoser } from '../../src/diagnose/diagnoser.ts';
import { diagnoseLines } from './feed.ts';
import { NAMED_ENGINES } from '../../src/engines/index.ts';

const diagnose = diagnoseLines;

describe('general failure shapes', () => {
  it('a WARNING-level error is not the root cause when an error follows', () => {
    const result = diagnose('tgi', [
      '2025-01-01T00:00:00.000000Z  WARN text_generation_launcher: ImportError: cannot import name flash_attn_2_cuda',
      '2025-01-01T00:00:09.000000Z ERROR text_generation_launcher: Shard process was signaled to shutdown with signal 9',
    ]);
    expect(result.class).toBe('killed');
    expect(result.evidence.map((e) => e.line)).toContain(2);
  });

  it('keeps a warning as the cause when nothing fatal follows it', () => {
    const result = diagnose('vllm', ['WARNING 01-01 00:00:00 [x.py:1] ImportError: libcudart.so.12'], {
      exitCode: 1,
    });
    expect(result.class).toBe('dependency');
  });

  it('reads stream-capture errors without an engine wrapper as graph-capture-failed, OOM as cuda-oom', () => {
    expect(
      diagnose('vllm', ['RuntimeError: CUDA error: operation not permitted when stream is capturing']).class,
    ).toBe('graph-capture-failed');
    expect(
      diagnose('sglang', [
        '[2026-01-01 00:00:00 TP0] Capture target decode CUDA graph begin. backend=full, num_tokens_per_req=1, bs=[1], avail mem=1 GB',
        'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.1 GiB',
        'RuntimeError: CUDA error: operation not permitted when stream is capturing',
      ]).class,
    ).toBe('cuda-oom');
  });

  it('reads a failure that names no cause during CUDA graph capture as graph-capture-failed', () => {
    const capture = [
      '(EngineCore_0 pid=1) INFO 09-29 05:54:47 [kv_cache_utils.py:849] GPU KV cache size: 305,808 tokens',
      'Capturing CUDA graphs (decode, FULL):   0%|          | 0/5 [00:01<?, ?it/s]',
    ];
    const failed = diagnose('vllm', [
      ...capture,
      '(VllmWorker PP0_TP0 pid=2) ERROR 09-29 05:54:49 [multiproc_executor.py:596] WorkerProc hit an exception.',
    ]);
    expect(failed.class).toBe('graph-capture-failed');
    // The same worker error before capture stays a failure of unknown cause; an OOM during capture stays cuda-oom.
    expect(
      diagnose('vllm', [
        '(VllmWorker pid=2) ERROR 09-29 05:54:49 [multiproc_executor.py:596] WorkerProc hit an exception.',
      ]).class,
    ).toBe('unknown');
    expect(
      diagnose('vllm', [
        ...capture,
        'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.1 GiB',
      ]).class,
    ).toBe('cuda-oom');
  });

  it("lets a specific shape inside pydantic's `Value error,` decide the class", () => {
    expect(
      diagnose('vllm', [
        "(APIServer pid=1)   Value error, Model architectures ['XForCausalLM'] are not supported for now. Supported architectures: dict_keys([])",
      ]).class,
    ).toBe('weight-mismatch');
    expect(
      diagnose('vllm', ['(APIServer pid=1)   Value error, max_num_batched_tokens must be >= max_num_seqs'])
        .class,
    ).toBe('invalid-value');
  });

  it('takes a refused setting value over the scheduler death it causes', () => {
    const result = diagnose('sglang', [
      "ValueError: Attention backend 'sage_attn' is not supported by this attention layer;",
      "supported backends: ['fa', 'torch_sdpa']",
      '[2026-08-20 10:00:00] Rank 0 scheduler is dead. Please check if there are relevant logs.',
    ]);
    expect(result.class).toBe('invalid-value');
    expect(result.summary).toContain('sage_attn');
  });

  it("counts TGI's unreachable-shard request error only before the ready line", () => {
    const error =
      '2025-08-29T14:40:17.288163Z ERROR text_generation_router_v3::backend: backends/v3/src/backend.rs:546: Request failed during generation: Server error: error trying to connect: No such file or directory (os error 2)';
    expect(diagnose('tgi', [error]).class).toBe('unknown');
    expect(
      diagnose('tgi', [
        '2024-09-23T12:10:56.485234Z  INFO text_generation_router::server: router/src/server.rs:2477: Connected',
        error,
      ]).class,
    ).toBe('ready');
  });

  it("does not take uvicorn's Application startup complete. as SGLang's ready line", () => {
    const lines = [
      "[2026-01-01 00:00:00] server_args=ServerArgs(model_path='m', tp_size=1)",
      '[2026-01-01 00:00:09] INFO:     Application startup complete.',
      '[2026-01-01 00:00:09] INFO:     Uvicorn running on http://127.0.0.1:30000 (Press CTRL+C to quit)',
    ];
    expect(diagnose('sglang', lines, { reason: 'timeout' }).class).toBe('hang');
    expect(diagnose('auto', lines, { reason: 'timeout' }).class).toBe('hang');
  });

  it("reads the TGI launcher's own argument errors and warm-up out of memory", () => {
    expect(diagnose('auto', ["error: unexpected argument '--max-input-lenght' found"]).class).toBe(
      'unknown-flag',
    );
    expect(diagnose('auto', ["error: invalid value 'int9' for '--quantize <QUANTIZE>'"]).class).toBe(
      'invalid-value',
    );
    // A shard's check that it has a GPU of its own: more shards than the GPUs it sees.
    const shards = diagnose('tgi', [
      '2023-06-02T09:00:01.000000Z ERROR shard-manager: text_generation_launcher: Shard complete standard error output:',
      'AssertionError: Each process is one gpu',
    ]);
    expect(shards.class).toBe('invalid-value');
    expect(shards.advice.join(' ')).toContain('--num-shard');
    // After a wrapper's words on the same line (an entrypoint's notice; a page that joined the lines).
    const joined = diagnose('auto', [
      "Exit code: 2. Reason: unable to refresh ld cache, not a big deal in most cases error: unexpected argument 'serve' found Usage: text-generation-launcher [OPTIONS]",
    ]);
    expect(joined.class).toBe('unknown-flag');
    expect(joined.summary).toContain('serve');
    expect(diagnose('auto', ["the launcher said no terror: unexpected argument 'x' found"]).class).not.toBe(
      'unknown-flag',
    );
    expect(
      diagnose('tgi', [
        '2025-01-01T00:00:00.000000Z ERROR warmup{max_input_length=4095}: text_generation_router_v3::client: backends/v3/src/client/mod.rs:45: Server error: CUDA out of memory.',
        'RuntimeError: Not enough memory to handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`',
      ]).class,
    ).toBe('cuda-oom');
  });

  it('names the SGLang ≥ 0.5.10 scheduler death with its signal', () => {
    const result = diagnose('sglang', [
      'RuntimeError: Rank 0 scheduler died during initialization (exit code: -9). If exit code is -9 (SIGKILL), a common cause is the OS OOM killer.',
    ]);
    expect(result.class).toBe('killed');
    expect(result.summary).toContain('signal 9');
  });

  it('reads an older release banner and uses that release rules', () => {
    // `Rank N scheduler is dead` is printed up to 0.5.9 only: under a 0.5.18 banner it does not decide.
    const dead = 'Rank 0 scheduler is dead. Please check if there are relevant logs.';
    expect(diagnose('sglang', ['sglang_version=0.5.9', dead], { exitCode: 1 }).class).toBe('killed');
    expect(createDiagnoserFor('0.5.18', [dead]).class).not.toBe('killed');
  });

  describe('a stop asked for after the start got through', () => {
    const served = [
      "[2026-08-02 00:00:00] server_args=ServerArgs(model_path='m', tp_size=1)",
      '[2026-08-02 00:01:00] The server is fired up and ready to roll!',
      '[2026-08-02 00:02:00] INFO:     127.0.0.1:43920 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
    ];
    const shutdown = [
      '[2026-08-02 00:17:43] SIGTERM received. signum=None frame=None. Draining requests and shutting down...',
      '[2026-08-02 00:17:43] Subprocess detokenizer (pid=31379) crashed with exit code -15. Triggering SIGQUIT for cleanup...',
    ];

    it('is ready: what fails below the stop is the shutdown', () => {
      const result = diagnose('auto', [...served, ...shutdown], { exitCode: 143 });
      expect(result.class).toBe('ready');
      expect(result.summary).toContain('stopped as asked (line 4)');
    });

    it('still reports a failure between the ready line and the stop', () => {
      const result = diagnose('auto', [
        ...served,
        '[2026-08-02 00:03:00 TP0] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.',
        ...shutdown,
      ]);
      expect(result.class).toBe('ready');
      expect(result.summary).toContain('later the GPU ran out of memory');
    });

    it('is no stop before the ready line, and Ctrl-C counts in any engine', () => {
      expect(diagnose('auto', [served[0] ?? '', ...shutdown]).class).not.toBe('ready');
      const vllm = [
        '(APIServer pid=1) INFO 08-01 23:19:54 [api_server.py:1] vLLM API server version 0.11.0',
        '(APIServer pid=1) INFO:     Application startup complete.',
        '(APIServer pid=1) INFO:     127.0.0.1:34148 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
        'KeyboardInterrupt',
        '(APIServer pid=1) ERROR 08-01 23:37:28 [async_llm.py:704] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue.',
      ];
      expect(diagnose('auto', vllm).class).toBe('ready');
      expect(diagnose('auto', vllm).summary).toContain('stopped as asked');
      // Without the Ctrl-C, the start still got through, and the engine's death after serving is told.
      const died = diagnose(
        'auto',
        vllm.filter((line) => line !== 'KeyboardInterrupt'),
      );
      expect(died.class).toBe('ready');
      expect(died.summary).toContain('later the server raised EngineDeadError');
    });
  });

  it("reads a start stopped as asked before it got through as stopped in its phase, not as the stop's traceback", () => {
    const start = [
      'INFO 05-26 18:53:37 [api_server.py:1043] vLLM API server version 0.8.5.post1',
      'INFO 05-26 18:53:50 [llm_engine.py:240] Initializing a V0 LLM engine (v0.8.5.post1) with config: model=m',
      'INFO 05-26 18:54:03 [ray_utils.py:233] Waiting for creating a placement group of specs for 10 seconds.',
    ];
    const interrupted = diagnose('auto', [
      ...start,
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.10/asyncio/runners.py", line 44, in run',
      '    raise KeyboardInterrupt("terminated")',
      'KeyboardInterrupt: terminated',
    ]);
    expect(interrupted.class).toBe('hang');
    expect(interrupted.summary).toContain('stopped as asked (line 7)');
    // An error before the stop is still the cause.
    const failed = diagnose('auto', [
      ...start,
      'RuntimeError: NCCL error: unhandled system error',
      '*** SIGTERM received at time=1748300290 on cpu 8 ***',
    ]);
    expect(failed.class).toBe('nccl');
  });

  it("reads a shell's bare Killed after a fatal error as that failure's cleanup", () => {
    const failed = [
      "[2026-02-27 11:31:10] server_args=ServerArgs(model_path='m', tp_size=16)",
      '[2026-02-27 11:31:26 TP13] Scheduler hit an exception: Traceback (most recent call last):',
      'RuntimeError: open: Address family not supported by protocol',
      'Killed',
    ];
    const result = diagnose('sglang', failed);
    expect(result.class).toBe('unknown');
    expect(result.summary).toContain('Address family not supported');
    // Without an error above it, the kill is the cause.
    expect(diagnose('sglang', [failed[0] ?? '', 'Killed']).class).toBe('killed');
  });

  it("never reads a failure in a logged request's text", () => {
    const lines = [
      '(APIServer pid=1) INFO 08-01 23:19:54 [api_server.py:1] vLLM API server version 0.11.0',
      '(APIServer pid=1) INFO:     Application startup complete.',
      "INFO 08-16 01:51:32 [logger.py:41] Received request chatcmpl-4bb3: prompt: 'whose sum is not divisible by n', params: SamplingParams(n=1), prompt_token_ids: None, lora_request: None.",
    ];
    const result = diagnose('auto', lines);
    expect(result.class).toBe('ready');
    expect(result.summary).not.toContain('later');
  });

  it('reads the same kind of error logged first as a warning, then for real, by the real one', () => {
    const result = diagnose('vllm', [
      '(EngineCore pid=1) WARNING 06-23 15:43:18 [import_utils.py:408] AssertionError',
      '(EngineCore pid=1) ERROR 06-23 15:43:19 [core.py:1195] EngineCore failed to start.',
      '(EngineCore pid=1) ERROR 06-23 15:43:19 [core.py:1195] RuntimeError: the real failure',
    ]);
    expect(result.summary).toContain('the real failure');
    expect(result.evidence.map((e) => e.line)).toContain(3);
  });

  it('reads a traceback logged under a WARN line as part of that warning', () => {
    const warned = [
      '2023-07-05T19:53:48.448329Z  WARN shard-manager: text_generation_launcher: Could not import Flash Attention enabled models',
      'Traceback (most recent call last):',
      '  File "/opt/conda/lib/python3.9/site-packages/text_generation_server/models/__init__.py", line 56, in <module>',
      '    raise ImportError("CUDA is not available")',
      'ImportError: CUDA is not available',
      '2023-07-05T19:53:56.977961Z  INFO text_generation_launcher: Waiting for shard 0 to be ready...',
      '2023-07-05T19:55:21.347050Z ERROR text_generation_launcher: Shard process was signaled to shutdown with signal 9',
    ];
    expect(diagnose('tgi', warned).class).toBe('killed');
    // The same traceback under an ERROR line is the failure.
    expect(diagnose('tgi', [warned[0]?.replace(' WARN ', ' ERROR ') ?? '', ...warned.slice(1)]).class).toBe(
      'dependency',
    );
  });

  it("reads an error below a frame of torch's graph capture as graph-capture-failed, without the capture phase", () => {
    const frames = [
      '  File "/venv/lib/python3.12/site-packages/torch/cuda/graphs.py", line 268, in __exit__',
      '    self.cuda_graph.capture_end()',
      '  File "/venv/lib/python3.12/site-packages/torch/cuda/graphs.py", line 130, in capture_end',
      '    super().capture_end()',
    ];
    const error = 'torch.AcceleratorError: CUDA error: operation not permitted';
    expect(diagnose('vllm', [...frames, error]).class).toBe('graph-capture-failed');
    // The same error with no capture frame above it names no cause; an OOM below one stays cuda-oom.
    expect(diagnose('vllm', [error]).class).toBe('unknown');
    expect(
      diagnose('vllm', [...frames, 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'])
        .class,
    ).toBe('cuda-oom');
  });

  it('reads a configuration check that refuses a combination of settings as invalid-value', () => {
    for (const line of [
      'ValueError: torch.bfloat16 is not supported for quantization method awq. Supported dtypes: [torch.float16]',
      'ValueError: Speculative decoding for X is not compatible with radix cache when using --mamba-scheduler-strategy no_buffer.',
      'ValueError: quantization is not available on CPU',
      'ValueError: Prequant BitsAndBytes models with TP is not supported.Please try with PP.',
      'NotImplementedError: Chunked prefill when using sliding window is not supported yet',
      'ValueError: Quantization method specified in the model config (compressed-tensors) does not match the quantization method specified in the `quantization` argument (awq).',
    ])
      expect(diagnose('auto', [line]).class, line).toBe('invalid-value');
    // The code line that raises it is not the error, and an error of another shape keeps its class.
    expect(diagnose('auto', ['    raise ValueError("quantization is not available on CPU")']).class).not.toBe(
      'invalid-value',
    );
    expect(diagnose('auto', ['ValueError: Unsupported architecture: Qwen2ForCausalLM']).class).toBe(
      'weight-mismatch',
    );
    // A setting's name after `with` is what makes it a combination: a bare `X is not supported` is not one.
    expect(diagnose('auto', ['ValueError: This checkpoint format is not supported.']).class).toBe('unknown');
  });

  it("reads transformers' unknown model type and a repository without loadable weights", () => {
    expect(
      diagnose('sglang', [
        '  File "/usr/lib/python3/dist-packages/transformers/models/auto/configuration_auto.py", line 1360, in from_pretrained',
        '    config_class = CONFIG_MAPPING[config_dict["model_type"]]',
        "KeyError: 'glm_moe_dsa'",
      ]).class,
    ).toBe('dependency');
    const noWeights = diagnose('tgi', [
      'huggingface_hub.utils._errors.EntryNotFoundError: No .bin weights found for model Qwen/X-GGUF and revision None.',
      'Error: DownloadError',
    ]);
    expect(noWeights.class).toBe('model-not-found-or-auth');
    expect(noWeights.summary).toContain('Qwen/X-GGUF');
    // TGI's notice before it downloads .bin weights instead is no failure.
    expect(
      diagnose('tgi', [
        '2023-12-07T11:20:00.000000Z  WARN text_generation_launcher: No safetensors weights found for model m at revision None. Downloading PyTorch weights.',
      ]).class,
    ).toBe('hang');
  });

  it("reads an error below a frame of an engine's own step (SGLang's warm-up) as that step's failure", () => {
    const warmup = [
      'Traceback (most recent call last):',
      '  File "/env/lib/python3.11/site-packages/sglang/srt/server.py", line 410, in _wait_and_warmup',
      '    model_info = res.json()',
      'requests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)',
    ];
    const result = diagnose('auto', warmup);
    expect(result.class).toBe('warmup-failed');
    expect(result.summary).toContain('JSONDecodeError');
    // The same error raised elsewhere names no cause; an error with a class of its own keeps it.
    expect(diagnose('auto', [warmup[0] ?? '', warmup[3] ?? '']).class).toBe('unknown');
    expect(
      diagnose('auto', [
        ...warmup.slice(0, 3),
        'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB',
      ]).class,
    ).toBe('cuda-oom');
    for (const engine of NAMED_ENGINES)
      for (const context of engine.frameContexts ?? [])
        for (const sample of context.samples) {
          expect(context.pattern.test(sample), sample).toBe(true);
          expect(sample, 'the needle finds every frame').toContain(context.needle);
        }
  });

  it('reads packages that do not fit together, and a launcher that cannot import its engine, as dependency', () => {
    expect(
      diagnose('auto', [
        "TypeError: [address=0.0.0.0:1, pid=2] AsyncEngineArgs.__init__() got an unexpected keyword argument 'limit_mm_per_prompt'",
      ]).class,
    ).toBe('dependency');
    expect(
      diagnose('auto', [
        "thread 'tokio-runtime-worker' panicked at lib/llm/src/engines/vllm/worker.rs:247:17:",
        "Failed to import python 'vllm' module. Are we running in the correct venv? AttributeError: class must define a '_type_' attribute",
      ]).class,
    ).toBe('dependency');
  });

  it("reads Triton's glog lines and its failed model load as an error of unknown kind", () => {
    const result = diagnose('auto', [
      'INFO 11-15 02:58:48 llm_engine.py:205] # GPU blocks: 2361, # CPU blocks: 512',
      "I1115 02:58:49.477216 1 pb_stub.cc:325] Failed to initialize Python stub: TypeError: 'NoneType' object is not subscriptable",
      "E1115 02:58:51.162838 1 model_lifecycle.cc:621] failed to load 'vllm_model' version 1: Internal: TypeError: 'NoneType' object is not subscriptable",
    ]);
    expect(result.class).toBe('unknown');
    expect(result.summary).toContain('vllm_model');
  });

  it('counts a warning only when the start did not go on past it into a later phase', () => {
    const warning =
      "(APIServer pid=13) WARNING 06-29 18:27:06 [interface.py:225] Failed to import from vllm._C: ImportError('libcuda.so.1: cannot open shared object file: No such file or directory')";
    expect(diagnose('vllm', [warning]).class).toBe('dependency');
    const after = diagnose('vllm', [
      warning,
      '(EngineCore_DP0 pid=43) INFO 06-29 18:27:16 [core.py:97] Initializing a V1 LLM engine (v0.16.0) with config: model=m',
    ]);
    expect(after.class).toBe('hang');
    // From 0.19 the memory profiling's own lines are such a later phase (KV cache sizing).
    const kernelWarning =
      '(EngineCore pid=126) WARNING 05-09 22:59:35 [gdn_linear_attn.py:733] tvm.error.InternalError: Get different layout for p_fragment';
    const profiled = diagnose('vllm', [
      '(EngineCore pid=126) INFO 05-09 22:58:40 [core.py:97] Initializing a V1 LLM engine (v0.20.1) with config: model=m',
      kernelWarning,
      '(EngineCore pid=126) INFO 05-09 22:59:36 [monitor.py:81] Initial profiling/warmup run took 34.55 s',
      '(EngineCore pid=126) INFO 05-09 22:59:36 [gpu_model_runner.py:6021] Profiling CUDA graph memory: PIECEWISE=2 (largest=2), FULL=1 (largest=1)',
    ]);
    expect(profiled.class).toBe('hang');
    expect(profiled.summary).toContain('kv-cache');
  });

  it('reads a native crash whose faulthandler dump shows the capture loop as graph-capture-failed', () => {
    const crash = [
      "terminate called after throwing an instance of 'deep_gemm::DGException'",
      'Fatal Python error: Aborted',
      '',
      'Current thread 0x00007ffff7ec0740 (most recent call first):',
      '  File "/env/lib/python3.12/site-packages/sgl_kernel/flash_mla.py", line 112 in flash_mla_with_kvcache',
      '  File "/src/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 741 in capture_one_batch_size',
    ];
    expect(diagnose('auto', crash).class).toBe('graph-capture-failed');
    // Without the capture frame it is an uncaught C++ exception of unknown cause.
    expect(diagnose('auto', crash.slice(0, 5)).class).toBe('unknown');
  });

  it("reads an unnamed error during SGLang's warm-up requests as warmup-failed", () => {
    const up = [
      '[2025-12-25 13:03:31] server_args=ServerArgs(model_path=m)',
      '[2025-12-25 13:13:38] INFO:     Uvicorn running on http://192.168.0.234:8000 (Press CTRL+C to quit)',
    ];
    const crash = [
      '[2025-12-25 13:14:16 TP11] Scheduler hit an exception: Traceback (most recent call last):',
      'RuntimeError: call aclnnCamMoeCombineNormal failed, detail:EZ9999: Inner Error!',
    ];
    const warm = '[2025-12-25 13:13:39] INFO:     192.168.0.234:55736 - "GET /model_info HTTP/1.1" 200 OK';
    expect(diagnose('sglang', [...up, warm, ...crash]).class).toBe('warmup-failed');
    // Before the first warm-up request was answered the same crash names no step.
    expect(diagnose('sglang', [...up, ...crash]).class).toBe('unknown');
  });

  it("reads an unnamed error during one of SGLang's named warm-ups (DeepGEMM's compile) as warmup-failed", () => {
    const head = [
      '[2025-06-27 19:02:09] max_total_num_tokens=1107402, chunked_prefill_size=8192, context_len=1024',
      '[2025-06-27 19:02:10] INFO:     Started server process [2122]',
    ];
    const crash = [
      '[2025-06-27 19:02:10] Scheduler hit an exception: Traceback (most recent call last):',
      'RuntimeError: Assertion error (csrc/jit/compiler.cuh:91): false',
    ];
    const named = '[2025-06-27 19:02:10] Running warmup compile-deep-gemm';
    expect(diagnose('sglang', [...head, named, ...crash]).class).toBe('warmup-failed');
    expect(diagnose('sglang', [...head, ...crash]).class).toBe('unknown');
  });

  it('reads a disaggregated prefill or decode worker whose own warm-up failed as warmup-failed, also where it carried on', () => {
    const result = diagnose('auto', [
      '[2026-03-31 02:32:49] Start of prefill disaggregation warmup ...',
      "[2026-03-31 02:32:49] Prefill warmup failed: 'SamplingParams' object is not subscriptable",
      '[2026-03-31 02:32:49] Prefill worker handler initialized - bootstrap host: 192.168.95.12, bootstrap port: 57563',
    ]);
    expect(result.class).toBe('warmup-failed');
    expect(result.evidence.map((e) => e.line)).toContain(2);
  });

  it("does not read the SGLang watchdog's missing stack-dump tool as the failure: the watchdog saw a hang", () => {
    const lines = [
      '[2025-06-22 16:08:50 TP0] Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=60.09 GB',
      '[2025-06-22 16:13:55 TP0] Watchdog timeout (self.watchdog_timeout=300)',
      '[2025-06-22 16:13:55 TP0] Pyspy failed to dump PID 63217.   Error: /bin/sh: py-spy: command not found',
      '[2025-06-22 16:14:00] Received sigquit from a child process.   It usually means the child failed.',
    ];
    expect(diagnose('auto', lines).class).toBe('hang');
    // The same shell error on a line of its own is a missing command.
    const bare = [...lines.slice(0, 1), '/bin/sh: py-spy: command not found'];
    expect(diagnose('auto', bare).class).toBe('dependency');
  });

  it("reads vLLM's base platform refusing a call (no device platform detected) as dependency, not a setting", () => {
    const head = [
      'INFO 05-24 17:15:25 [__init__.py:243] No platform detected, vLLM is running on UnspecifiedPlatform',
      'INFO 05-24 17:15:30 [api_server.py:1043] vLLM API server version 0.9.0',
      'Traceback (most recent call last):',
      '  File "/usr/local/lib/python3.11/dist-packages/vllm/config.py", line 3848, in __post_init__',
      '    self.model_config.verify_async_output_proc(self.parallel_config,',
    ];
    const platform = [
      '  File "/usr/local/lib/python3.11/dist-packages/vllm/platforms/interface.py", line 214, in is_async_output_supported',
      '    raise NotImplementedError',
    ];
    expect(diagnose('auto', [...head, ...platform, 'NotImplementedError']).class).toBe('dependency');
    // The same error raised by the config check itself refuses a setting, on a host where vLLM found a platform; after
    // its notice that it found none, the missing device is the cause wherever the start broke.
    expect(diagnose('auto', [...head.slice(1), 'NotImplementedError']).class).toBe('invalid-value');
    expect(diagnose('auto', [...head, 'NotImplementedError']).class).toBe('dependency');
  });

  it("reads a request handler of vLLM's OpenAI server failing as a start that got through, with no uvicorn line", () => {
    const lines = [
      '(ServeReplica:default:LLMServer:llama pid=126216) INFO 10-15 11:52:56 [core.py:97] Initializing a V1 LLM engine (v0.11.0) with config: model=m',
      '(ServeReplica:default:LLMServer:llama pid=126216) ERROR 10-15 11:58:26 [serving_chat.py:256] Error in preprocessing prompt inputs',
      '(ServeReplica:default:LLMServer:llama pid=126216) ERROR 10-15 11:58:26 [serving_chat.py:256] Traceback (most recent call last):',
      '(ServeReplica:default:LLMServer:llama pid=126216) ERROR 10-15 11:58:26 [serving_chat.py:256]   File "/repo/vllm/vllm/entrypoints/openai/serving_chat.py", line 234, in create_chat_completion',
      '(ServeReplica:default:LLMServer:llama pid=126216) ERROR 10-15 11:58:26 [serving_chat.py:256] ValueError: As of transformers v4.44, default chat template is no longer allowed',
    ];
    const result = diagnose('auto', lines);
    expect(result.class).toBe('ready');
    expect(result.summary).toContain('later');
  });

  it('reads a child process the start waited on ended by SIGTERM or SIGKILL as killed, a crash signal as its parent says', () => {
    const report = (signal: string) => [
      "ERROR 07-17 12:40:25 registry.py:321] Error in inspecting model architecture 'Qwen2ForCausalLM'",
      "ERROR 07-17 12:40:25 registry.py:321] subprocess.CalledProcessError: Command '['/venv/bin/python', '-m', 'vllm.model_executor.models.registry']' died with <Signals." +
        signal +
        '>.',
    ];
    expect(diagnose('auto', report('SIGTERM: 15')).class).toBe('killed');
    expect(diagnose('auto', report('SIGKILL: 9')).class).toBe('killed');
    expect(diagnose('auto', report('SIGSEGV: 11')).class).toBe('dependency');
  });

  it('reads SentencePiece failing to load the tokenizer file as a model folder that lacks it', () => {
    const lines = (error: string) => [
      'INFO 01-10 10:00:00 [llm_engine.py:230] Initializing a V0 LLM engine (v0.6.6) with config: model=m',
      'Traceback (most recent call last):',
      '  File "/opt/venv/lib/python3.12/site-packages/transformers/models/llama/tokenization_llama.py", line 198, in get_spm_processor',
      '    tokenizer.Load(self.vocab_file)',
      '  File "/opt/venv/lib/python3.12/site-packages/sentencepiece/__init__.py", line 316, in LoadFromFile',
      '    return _sentencepiece.SentencePieceProcessor_LoadFromFile(self, arg)',
      error,
    ];
    expect(diagnose('auto', lines('TypeError: not a string')).class).toBe('model-not-found-or-auth');
    // Without the frame the same bare error names no class.
    expect(
      diagnose('auto', [...lines('TypeError: not a string').slice(0, 4), 'TypeError: not a string']).class,
    ).toBe('unknown');
  });

  it('keeps a missing library and a driver CUDA refuses as dependency, during capture too', () => {
    expect(
      diagnose('sglang', [
        '[2026-01-01 00:00:00 TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=10.00 GB',
        '/usr/bin/ld: cannot find -lcudart: No such file or directory',
        'collect2: error: ld returned 1 exit status',
      ]).class,
    ).toBe('dependency');
    expect(
      diagnose('vllm', [
        'ERROR 03-26 05:25:01 engine.py:389] Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW',
      ]).class,
    ).toBe('dependency');
  });

  it('reads a report that a process died after an error as that error, not as killed', () => {
    const error =
      "(Worker_TP0 pid=1) ERROR 07-16 18:21:23 [multiproc_executor.py:1007] torch._inductor.exc.InductorError: RuntimeError: Failed to run autotuning code block: [Errno 122] Disk quota exceeded: '/home/u/.cache'";
    const died =
      '(EngineCore pid=2) ERROR 07-16 18:21:45 [multiproc_executor.py:284] Worker proc VllmWorker-1 died unexpectedly (exit code: None), shutting down executor.';
    expect(diagnose('vllm', [error, died]).class).toBe('unknown');
    expect(diagnose('vllm', [died]).class).toBe('killed');
  });

  it("reads NCCL's own INFO lines as notices, and a kernel no GPU here can run as invalid-value", () => {
    const notice =
      'gx10-3fe8:462:462 [0] NCCL INFO ncclOsDlopen(libnccl-env.so) failed: libnccl-env.so: cannot open shared object file: No such file or directory';
    const refused =
      '(Worker_TP1 pid=462) ERROR 07-18 21:14:17 [multiproc_executor.py:898] ValueError: Unsupported mxfp4_backend for Mxfp4MoEMethod: Mxfp4MoeBackend.FLASHINFER_CUTLASS_MXFP4_MXFP8. Expected TRTLLM, Triton, AITER, or XPU backend.';
    expect(diagnose('vllm', [notice, refused]).class).toBe('invalid-value');
    expect(
      diagnose('vllm', [
        '(EngineCore pid=119) ERROR 06-06 03:41:48 [core.py:1165] ValueError: Failed to find a kernel that can implement the WNA16 linear layer. Reasons: ',
        'MacheteLinearKernel requires capability 90, current 89',
      ]).class,
    ).toBe('invalid-value');
    expect(
      diagnose('vllm', [
        'AssertionError: In Mamba cache align mode, block_size (2096) must be <= max_num_batched_tokens (2048).',
      ]).class,
    ).toBe('invalid-value');
    expect(
      diagnose('sglang', [
        "RuntimeError: nvidia-smi error: nvidia-smi: /lib64/libc.so.6: version `GLIBC_ABI_DT_RELR' not found (required by nvidia-smi)",
      ]).class,
    ).toBe('dependency');
  });

  it("places an error below vLLM's capture frames in graph capture, even when later tracebacks follow", () => {
    const traceback = (rank: number) => [
      `(Worker_TP${rank} pid=1${rank}) ERROR 07-16 19:28:19 [multiproc_executor.py:1007] Traceback (most recent call last):`,
      `(Worker_TP${rank} pid=1${rank}) ERROR 07-16 19:28:19 [multiproc_executor.py:1007]   File "/opt/vllm/vllm/v1/worker/gpu_model_runner.py", line 6807, in _warmup_and_capture`,
      `(Worker_TP${rank} pid=1${rank}) ERROR 07-16 19:28:19 [multiproc_executor.py:1007] RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling cublasGemmEx`,
    ];
    const result = diagnose('vllm', [...traceback(3), ...traceback(0), ...traceback(1)]);
    expect(result.class).toBe('graph-capture-failed');
    expect(result.summary).toContain('CUBLAS_STATUS_EXECUTION_FAILED');
  });

  it('counts a module SGLang skipped only when the start did not go on past it', () => {
    const start = '[2026-03-27 09:31:17] server_args=ServerArgs(x=1)';
    const skipped =
      "[2026-03-27 09:31:24 TP1] Ignore import error when loading sglang.srt.models.glm_ocr: No module named 'transformers.models.glm_ocr'";
    expect(diagnose('sglang', [start, skipped]).class).toBe('dependency');
    const loading = '[2026-03-27 09:31:25 TP0] Load weight begin. avail mem=18.73 GB';
    expect(diagnose('sglang', [start, skipped, loading]).class).toBe('hang');
  });

  it('reads a check that finds too little memory as cuda-oom, and one that refuses a combination as invalid-value', () => {
    for (const line of [
      'RuntimeError: Out of memory. Please set a smaller number for `--max-running-requests`.',
      'ValueError: Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single token.',
      'RuntimeError: SWA pool cap (10 tokens) leaves no room for the full KV pool. Increase --mem-fraction-static.',
    ])
      expect(diagnose('auto', [line], { exitCode: 1 }).class, line).toBe('cuda-oom');
    for (const line of [
      'AssertionError: CPUGraphRunner does not support DP yet.',
      'NotImplementedError: FP8 KV cache is not yet supported with KV transfer on CPU',
      'ValueError: --enable-return-routed-experts is incompatible with KV connectors (PD disaggregation).',
    ])
      expect(diagnose('auto', [line], { exitCode: 1 }).class, line).toBe('invalid-value');
    expect(
      diagnose(
        'auto',
        [
          'ValueError: Error: --data-parallel-multi-port-external-lb requires --data-parallel-size-local >= 2',
        ],
        {
          exitCode: 1,
        },
      ).class,
    ).toBe('invalid-value');
    expect(
      diagnose('auto', ['AssertionError: Cannot set --disaggregation-decode-tp for the decode engine.'], {
        exitCode: 1,
      }).class,
    ).toBe('invalid-value');
    expect(
      diagnose(
        'auto',
        ['RuntimeError: engine_info_bootstrap_port 8998 is already in use. Use another port.'],
        {
          exitCode: 1,
        },
      ).class,
    ).toBe('port-in-use');
    // A ValueError that names no option and no known shape stays unknown.
    expect(
      diagnose('auto', ['ValueError: Chunked embedding metadata count does not match result count'], {
        exitCode: 1,
      }).class,
    ).toBe('unknown');
    // A memory hint inside an error that has its own class keeps that class.
    expect(
      diagnose('vllm', [
        'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.',
      ]).class,
    ).toBe('cuda-oom');
  });

  it('gives an unnamed error the class of the step whose phase the log is in, when the log names no engine', () => {
    const result = diagnose('auto', [
      '[2026-06-30 10:40:53] INFO:     127.0.0.1:47660 - "GET /model_info HTTP/1.1" 200 OK',
      '[2026-06-30 10:41:04 TP13 EP13] Scheduler hit an exception: Traceback (most recent call',
    ]);
    expect(result.class).toBe('warmup-failed');
  });

  it('reads a vLLM app that started as a start that got through, unless its port was then found taken', () => {
    const started = [
      '(APIServer pid=1) INFO:     Started server process [1]',
      '(APIServer pid=1) INFO:     Application startup complete.',
    ];
    const died =
      '(APIServer pid=1) ERROR 03-20 10:37:36 [core_client.py:691] Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.';
    expect(diagnose('vllm', [...started, died]).class).toBe('ready');
    // A watcher that ended the start never saw it ready: the failure stands.
    expect(diagnose('vllm', [...started, died], { reason: 'exited', exitCode: 1 }).class).not.toBe('ready');
    const bind =
      "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use";
    expect(diagnose('vllm', [...started, bind]).class).toBe('port-in-use');
  });

  it('reads an error asking to install a package as dependency, and HCCL errors as nccl', () => {
    const install = diagnose('auto', [
      'RuntimeError: call aclnnSwiGlu failed, detail:EZ1001: read binary_info_config.json failed, please check if the opp_kernel package is installed!',
    ]);
    expect(install.class).toBe('dependency');
    expect(install.advice.join(' ')).toContain('opp_kernel');
    expect(
      diagnose('auto', [
        "RuntimeError: Worker failed with error 'create_config: HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 1'",
      ]).class,
    ).toBe('nccl');
  });

  it('reads a parameter name with a doubled dot in a KeyError as weight-mismatch', () => {
    const result = diagnose('vllm', [
      '  File "/x/vllm/models/m/vision_tower.py", line 761, in load_weights',
      '    param = params_dict[name]',
      "KeyError: 'vision_model.encoder.layers.0.fc1..bias'",
    ]);
    expect(result.class).toBe('weight-mismatch');
    expect(result.summary).toContain('fc1..bias');
  });

  it('reads a required argument left out as unknown-flag: argparse refused the command line', () => {
    const result = diagnose('auto', [
      'usage: launch_server.py [-h] --model-path MODEL_PATH [--port PORT]',
      'launch_server.py: error: the following arguments are required: --model-path/--model',
    ]);
    expect(result.class).toBe('unknown-flag');
    expect(result.summary).toContain('--model-path/--model');
  });

  it('reads a log of unknown engine as ready once an API request is answered, not on health answers', () => {
    const uvicorn = ['INFO:     Started server process [5675]', 'INFO:     Application startup complete.'];
    const api = 'INFO:     10.1.2.3:10900 - "POST /v1/rerank HTTP/1.1" 200 OK';
    const health = 'INFO:     127.0.0.1:60028 - "GET /health HTTP/1.1" 200 OK';
    expect(diagnose('auto', [...uvicorn, api]).class).toBe('ready');
    // A paste of uvicorn's start lines alone shows the start got through (toolchains-and-models.test.ts); health
    // answers after them do not add an engine's word.
    expect(diagnose('auto', [...uvicorn]).class).toBe('ready');
    expect(diagnose('auto', [...uvicorn, health, health]).class).toBe('hang');
    const oom = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.';
    expect(diagnose('auto', [...uvicorn, health, oom], { exitCode: 1 }).class).toBe('cuda-oom');
  });

  it("reads an SGLang log as got through once a generation request is answered (its warm-up's too), not on a poll", () => {
    const tag = '(SGLangEngine pid=7, ip=10.0.0.2) [2026-01-29 06:53:43] INFO:     10.0.0.3:45400 - ';
    expect(diagnose('auto', [`${tag}"POST /v1/chat/completions HTTP/1.1" 200 OK`]).class).toBe('ready');
    expect(diagnose('auto', [`${tag}"POST /generate HTTP/1.1" 200 OK`]).class).toBe('ready');
    expect(diagnose('auto', [`${tag}"POST /generate HTTP/1.1" 500 Internal Server Error`]).class).toBe(
      'hang',
    );
    expect(diagnose('auto', [`${tag}"GET /v1/models HTTP/1.1" 200 OK`]).class).toBe('hang');
  });

  it("counts vLLM's process tags as vLLM's: uvicorn's start line under them is its start getting through", () => {
    const lines = [
      '(EngineCore_DP0 pid=72) INFO 01-01 00:00:00 [gpu_worker.py:1] Model loading took 14.2 GiB',
      '(APIServer pid=14) INFO:     Application startup complete.',
    ];
    expect(diagnose('auto', lines).class).toBe('ready');
  });

  it('reads a capture-status assertion as graph-capture-failed, on any accelerator', () => {
    for (const line of [
      'RuntimeError: status == aclmdlRICaptureStatus::ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE INTERNAL ASSERT FAILED at "x.cpp":93',
      'RuntimeError: status == cudaStreamCaptureStatusActive INTERNAL ASSERT FAILED at "CUDAGraph.cpp":120',
    ])
      expect(diagnose('auto', [line]).class, line).toBe('graph-capture-failed');
  });

  it("reads ROCm's GPU memory access fault as a crash, with advice that is not about host memory", () => {
    const result = diagnose('vllm', [
      'Memory access fault by GPU node-1 (Agent handle: 0x3d1bda20) on address 0x7fa18d83f000. Reason: Page not present or supervisor privilege.',
      '(APIServer pid=562) Traceback (most recent call last):',
    ]);
    expect(result.class).toBe('killed');
    expect(result.advice.join(' ')).toContain('--enforce-eager');
    expect(result.advice.join(' ')).not.toContain('OOM killer');
  });

  it('reads vLLM reporting negative KV cache memory at INFO as out of memory, also when the log stops in the traceback', () => {
    const result = diagnose('auto', [
      '(EngineCore_DP0 pid=563) INFO 12-23 23:34:23 [gpu_worker.py:298] Available KV cache memory: -2.77 GiB',
      '(EngineCore_DP0 pid=563) ERROR 12-23 23:34:23 [core.py:708] EngineCore failed to start.',
      '(EngineCore_DP0 pid=563) ERROR 12-23 23:34:23 [core.py:708] Traceback (most recent call last):',
    ]);
    expect(result.class).toBe('cuda-oom');
    expect(result.summary).toContain('-2.77 GiB');
    expect(
      diagnose('auto', ['INFO 12-23 23:34:23 [gpu_worker.py:298] Available KV cache memory: 2.77 GiB']).class,
    ).toBe('hang');
  });

  it("reads ModelScope's missing model as model-not-found-or-auth", () => {
    const result = diagnose('vllm', [
      'modelscope.hub.errors.NotExistError: The model: Qwen/Qwen2.5-VL-7B-Instruct has no revision: main !',
    ]);
    expect(result.class).toBe('model-not-found-or-auth');
    expect(result.summary).toContain('Qwen/Qwen2.5-VL-7B-Instruct');
  });

  it("reads an unnamed error from the engine's own settings checks as invalid-value, not an environment failure there", () => {
    const vllm = (error: string) =>
      diagnose('auto', [
        'Traceback (most recent call last):',
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/engine/arg_utils.py", line 1289, in create_engine_config',
        '    config = VllmConfig(',
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/config/compilation.py", line 512, in __post_init__',
        '    raise ValueError(msg)',
        error,
      ]);
    expect(
      vllm(
        'ValueError: cudagraph_capture_sizes and compilation_config.cudagraph_capture_sizes are mutually exclusive',
      ).class,
    ).toBe('invalid-value');
    expect(vllm('RuntimeError: the compilation state is inconsistent').class).toBe('unknown');
    const sglang = diagnose('auto', [
      'Traceback (most recent call last):',
      '  File "/sgl-workspace/sglang/python/sglang/srt/server_args.py", line 612, in __post_init__',
      '    self._handle_attention_backend_compatibility()',
      '  File "/sgl-workspace/sglang/python/sglang/srt/server_args.py", line 1403, in _handle_attention_backend_compatibility',
      '    assert self.page_size == 1',
      'AssertionError: FlashMLA only supports page_size=64',
    ]);
    expect(sglang.class).toBe('invalid-value');
  });

  it('reads a plugin registry refusing a name as invalid-value, naming the option', () => {
    const result = diagnose('vllm', [
      "(APIServer pid=966592) KeyError: 'invalid tool call parser: openai (chose from { deepseek_v3, glm45, hermes })'",
    ]);
    expect(result.class).toBe('invalid-value');
    expect(result.summary).toContain('--tool-call-parser');
    expect(result.summary).toContain('hermes');
  });

  it("reads Ray's report of a dead actor process as killed, unless an error came before it", () => {
    const died =
      'The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file.';
    expect(diagnose('auto', [died]).class).toBe('killed');
    expect(
      diagnose('auto', ['torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.', died])
        .class,
    ).toBe('cuda-oom');
  });

  it("reads torch's c10 log prefix as the line's level: a rendezvous warning is the cause only when nothing follows", () => {
    const warning =
      '[W socket.cpp:601] [c10d] The client socket has failed to connect to [localhost]:29500 (errno: 99 - Cannot assign requested address).';
    expect(diagnose('tgi', [warning], { exitCode: 1 }).class).toBe('nccl');
    expect(
      diagnose('tgi', [warning, 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.'])
        .class,
    ).toBe('cuda-oom');
  });

  it("reads SGLang's warm-up request refused by an HTTP proxy as warmup-failed", () => {
    const result = diagnose('sglang', [
      '[2025-08-13 11:01:02] INFO:     Uvicorn running on http://0.0.0.0:25600 (Press CTRL+C to quit)',
      '[2025-08-13 11:01:03] http://172.16.37.200:3138 "GET http://0.0.0.0:25600/get_model_info HTTP/1.1" 403 3582',
    ]);
    expect(result.class).toBe('warmup-failed');
    expect(result.advice.join(' ')).toContain('no_proxy');
  });

  it('reads a process group without a backend for a device as a distributed setup failure', () => {
    expect(diagnose('auto', ['RuntimeError: No backend type associated with device type cpu']).class).toBe(
      'nccl',
    );
  });

  it("never takes asyncio's CancelledError for the cause: the engine's own line stays the evidence", () => {
    const result = diagnose('auto', [
      '(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
      'asyncio.exceptions.CancelledError',
    ]);
    expect(result.class).toBe('unknown');
    expect(result.evidence.map((e) => e.text)).toEqual([
      '(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
    ]);
  });

  it("reads SGLang's capture wrapper without its message as graph-capture-failed, with the error printed above it", () => {
    const result = diagnose('auto', [
      'RuntimeError: Runtime check failed at /sgl-workspace/sglang/x/custom_all_reduce.cuh:37: CUDA error: invalid argument',
      'Exception: Capture cuda graph failed',
    ]);
    expect(result.class).toBe('graph-capture-failed');
  });

  it("reads SGLang's process tree ending after an error as that error's consequence, past a skipped import", () => {
    const result = diagnose('sglang', [
      "[2026-03-31 15:03:48] Ignore import error when loading sglang.srt.multimodal.processors.glmasr: cannot import name 'GlmAsrConfig' from 'transformers'",
      'ValueError: layer_id=0 not in full attention layers: dict_keys([3, 7, 11])',
      '[2026-03-31 15:04:15] Rank 0 scheduler is dead. Please check if there are relevant logs.',
      '[2026-03-31 15:04:15] Exit code: -3',
    ]);
    expect(result.class).toBe('unknown');
    expect(result.summary).toContain('layer_id=0 not in full attention layers');
    expect(diagnose('sglang', ['[2026-03-31 15:04:15] Exit code: -9']).class).toBe('killed');
  });

  it("places an uncaught C++ exception in graph capture by torch's CUDAGraph in the native stack below it", () => {
    const crash = [
      "terminate called after throwing an instance of 'c10::Error'",
      '  what():  The graph should be registered to the state',
      'frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x9d (0x7e6d7b37305d in /x/libc10.so)',
      'frame #3: at::cuda::CUDAGraph::~CUDAGraph() + 0x4c (0x7e6cc6ab2acc in /x/libtorch_cuda.so)',
    ];
    expect(diagnose('vllm', crash).class).toBe('graph-capture-failed');
    expect(diagnose('vllm', crash.slice(0, 3)).class).toBe('unknown');
  });

  it("reads vLLM's loader finding parameters no checkpoint tensor filled as weight-mismatch", () => {
    const result = diagnose('auto', [
      "(EngineCore_DP0 pid=1) ValueError: Following weights were not initialized from checkpoint: {'visual.blocks.23.norm1.weight', 'visual.blocks.15.norm2.bias'}",
    ]);
    expect(result.class).toBe('weight-mismatch');
    expect(result.summary).toContain('visual.blocks.23.norm1.weight');
  });

  it("reads other accelerators' collective libraries failing as nccl, also when the log stops in the traceback", () => {
    for (const line of [
      '2024:09:13-11:21:50:(31157) |CCL_ERROR| exchange_utils.cpp:202 sendmsg_fd: condition !check_msg_retval("sendmsg") failed',
      'ERROR 12-17 09:31:58 [engine.py:458] [ERROR] 2025-12-17-09:31:53 (PID:53769, Device:0, RankID:-1) ERR02200 DIST call hccl api failed.',
    ])
      expect(diagnose('vllm', [line, 'Traceback (most recent call last):']).class, line).toBe('nccl');
  });

  it("reads an exception's message that a logger printed alone at error level, without the exception's type", () => {
    const result = diagnose('vllm', [
      "ERROR 04-03 06:51:54 [engine.py:448] There is no module or parameter named 'language_model' in Gemma3ForCausalLM",
      'ERROR 04-03 06:51:54 [engine.py:448] Traceback (most recent call last):',
    ]);
    expect(result.class).toBe('weight-mismatch');
  });

  it("reads dash's command-not-found (a build tool's /bin/sh) as dependency, naming the command", () => {
    const result = diagnose('auto', [
      "kserve-container (EngineCore_0 pid=58) RuntimeError: Error building extension 'sampling':",
      '  [1/4] /usr/local/cuda/bin/nvcc -c sampling.cu -o sampling.cuda.o',
      '  FAILED: sampling.cuda.o',
      '  /bin/sh: 1: /usr/local/cuda/bin/nvcc: not found',
      '  ninja: build stopped: subcommand failed.',
    ]);
    expect(result.class).toBe('dependency');
    expect(result.summary).toContain('/usr/local/cuda/bin/nvcc');
  });

  it('reads two ranks on one GPU as nccl, before the EOFError of the process that waited for them', () => {
    const result = diagnose('auto', [
      'node-07:2353883:2353883 [0] init.cc:943 NCCL WARN Duplicate GPU detected : rank 2 and rank 0 both on CUDA device f000',
      'ERROR:    Traceback (most recent call last):',
      '  File "/usr/lib/python3.11/multiprocessing/connection.py", line 399, in _recv',
      '    raise EOFError',
      'EOFError',
      'ERROR:    Application startup failed. Exiting.',
    ]);
    expect(result.class).toBe('nccl');
    expect(result.advice.join(' ')).toContain('CUDA_VISIBLE_DEVICES');
  });

  it("reads an NCCL error whose last CUDA error was 'out of memory' as cuda-oom", () => {
    const result = diagnose('vllm', [
      'torch.distributed.DistBackendError: NCCL error in: NCCLUtils.cpp:133, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5',
      'ncclUnhandledCudaError: Call to CUDA function failed.',
      'Last error:',
      "Cuda failure 'out of memory'",
    ]);
    expect(result.class).toBe('cuda-oom');
  });

  it("reads a device runtime's 'lack of device memory' as cuda-oom", () => {
    expect(
      diagnose('vllm', [
        "torch._dynamo.exc.BackendCompilerFailed: backend='_rbln_backend' raised:",
        'RuntimeError: SYS_EBUSY: Lack of device memory. (code: -16)',
      ]).class,
    ).toBe('cuda-oom');
  });

  it('reads NVSHMEM failing to reach a peer GPU as nccl, also during capture, not its transports falling back', () => {
    const prefix = '/dvs/p4/build/sw/rel/gpgpu/toolkit/r13.0/main_nvshmem/src/host';
    const result = diagnose('sglang', [
      '[2026-08-19 05:29:12 DP0 TP0 EP0] Capture target decode CUDA graph begin. backend=full, num_tokens_per_req=1, bs=[1, 2], avail mem=40.47 GB',
      `${prefix}/transport/transport.cpp:nvshmemi_transport_init:282: init failed for transport: IBGDA`,
      `${prefix}/topo/topo.cpp:469: [GPU 1] Peer GPU 8 is not accessible, exiting ... `,
      `${prefix}/init/init.cu:1037: non-zero status: 3 building transport map failed `,
      '[2026-08-19 05:29:34] DataParallelController hit an exception: Traceback (most recent call last):',
      '    raise EOFError',
      'EOFError',
      '[2026-08-19 05:29:34] Received sigquit from a child process. It usually means the child failed.',
    ]);
    expect(result.class).toBe('nccl');
    expect(result.summary).toContain('Peer GPU 8 is not accessible');
  });

  it('reads a request vLLM took as a start that got through, behind a front end that prints no access line', () => {
    const result = diagnose('auto', [
      '(ServeReplica:default:LLMServer:llama pid=279575) INFO 10-15 14:57:01 [fused_moe.py:863] Using configuration from /repo/vllm/model_executor/layers/fused_moe/configs/E=128.json',
      "(ServeReplica:default:LLMServer:llama pid=279575) INFO 10-15 14:59:44 [api_server.py:1629] Supported tasks: ['generate']",
      '(ServeReplica:default:LLMServer:llama pid=279575) INFO 10-15 14:59:46 [async_llm.py:344] Added request chatcmpl-631bfe71-c4a8-465a-a9b5-0491f5b40ab6.',
      '(ServeReplica:default:LLMServer:llama pid=279575) (EngineCore_DP0 pid=279992) INFO 10-15 14:59:46 [ray_distributed_executor.py:570] RAY_CGRAPH_get_timeout is set to 300',
    ]);
    expect(result.class).toBe('ready');
  });

  it('reads two packages of one release at different versions as dependency, also without an exception type', () => {
    const result = diagnose('vllm', [
      'flashinfer-cubin version (0.6.13) does not match flashinfer version (0.6.14). Please install the same version of both packages. Set FLASHINFER_DISABLE_VERSION_CHECK=1 to bypass this check.',
    ]);
    expect(result.class).toBe('dependency');
    expect(result.summary).toContain('flashinfer-cubin 0.6.13 with flashinfer 0.6.14');
    // A shape that does not match is not a version.
    expect(
      diagnose('vllm', [
        'INFO 01-01 00:00:00 [a.py:1] The tokenizer does not match the model; using the slow one.',
      ]).class,
    ).toBe('hang');
  });

  it('reads a model neither found locally nor downloaded as model-not-found-or-auth, naming the model', () => {
    const result = diagnose('sglang', [
      `ValueError: Could not find model locally at black-forest-labs/FLUX.1-dev and failed to download model_index.json/config.json from HF Hub: (MaxRetryError("HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /black-forest-labs/FLUX.1-dev/resolve/main/config.json (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed')))"))`,
    ]);
    expect(result.class).toBe('model-not-found-or-auth');
    expect(result.summary).toContain('could not be reached');
  });

  it('reads a traceback cut off below a step of the start as that step failing, and one with no such frame as unknown', () => {
    const frames = [
      '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 351, in capture',
      '    ) = self.capture_one_batch_size(bs, forward)',
      '  File "/usr/local/lib/python3.10/dist-packages/torch/_dynamo/eval_frame.py", line 465, in _fn',
      '    return fn(*args, **kwargs)',
    ];
    const header = '[2025-04-01 04:49:35 TP3] Scheduler hit an exception: Traceback (most recent call last):';
    expect(diagnose('sglang', [header, ...frames]).class).toBe('graph-capture-failed');
    expect(diagnose('auto', ['Traceback (most recent call last):', ...frames]).class).toBe(
      'graph-capture-failed',
    );
    // With its error line the traceback is no longer cut: the error decides.
    expect(
      diagnose('sglang', [
        header,
        ...frames,
        'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB',
      ]).class,
    ).toBe('cuda-oom');
    expect(
      diagnose('sglang', [
        header,
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 240, in __init__',
      ]).class,
    ).toBe('unknown');
  });

  it("reads a weight loader's size check by its message alone as weight-mismatch", () => {
    expect(
      diagnose('auto', [
        '(EngineCore pid=1) ERROR 07-23 21:03:03 [core.py:1231] AssertionError: Tried to load weights of size torch.Size([2048, 10240])to a parameter of size torch.Size([2048, 4096])',
      ]).class,
    ).toBe('weight-mismatch');
  });

  it("reads a collective library's own port already bound as port-in-use, with advice about that library", () => {
    const result = diagnose('vllm', [
      '[rank0]: RuntimeError: createHCCLComm:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:1479 HCCL function error: HcclGetRootInfo(&hcclID), error code is 11',
      '[rank0]: [ERROR] 2025-03-26-17:01:03 (PID:159, Device:0, RankID:-1) ERR02200 DIST call hccl api failed.',
      '[rank0]: EJ0003: [PID: 159] 2025-03-26-17:01:02.816.428 Failed to bind the IP port. Reason: The IP address and port have been bound already.',
    ]);
    expect(result.class).toBe('port-in-use');
    expect(result.advice.join(' ')).toContain('HCCL_IF_BASE_PORT');
  });

  it("reads an HCCL error code's line as nccl", () => {
    expect(
      diagnose('auto', [
        '[PID: 749] 2025-12-29-03:16:15.787.356 Get_Socket_Timeout(EI0006): Getting socket times out. Reason: 1. The remote does not initiate a connect request.',
      ]).class,
    ).toBe('nccl');
  });

  it("reads a launcher's own timeout as hang, and an error of the server's before it as the cause", () => {
    const harness = [
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.11/site-packages/sglang/test/test_utils.py", line 687, in popen_launch_server',
      '    raise TimeoutError("Server failed to start within the timeout period.")',
      'TimeoutError: Server failed to start within the timeout period.',
      'RuntimeError: Failed to start prefill node on 10.0.0.1: Server failed to start within the timeout period.',
    ];
    expect(diagnose('sglang', ['[Gloo] Rank 8 is NOT connected to: [1]', ...harness]).class).toBe('hang');
    expect(
      diagnose('sglang', [
        'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79 GiB',
        ...harness,
      ]).class,
    ).toBe('cuda-oom');
  });

  it('reads an error that names an option as its remedy as invalid-value, but leaves memory messages to cuda-oom', () => {
    const result = diagnose('vllm', [
      '(APIServer pid=1) RuntimeError: NUMA binding was requested, but the GPU-to-NUMA topology could not be detected automatically. Pass --numa-bind-nodes explicitly or disable --numa-bind.',
    ]);
    expect(result.class).toBe('invalid-value');
    expect(result.summary).toContain('--numa-bind-nodes');
    expect(
      diagnose('sglang', ['RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.'])
        .class,
    ).toBe('cuda-oom');
  });

  it("reads a native kernel's failed GPU call as the cause over the worker's death, and as graph-capture-failed during capture", () => {
    const capture = [
      'Capturing CUDA graphs (FULL): 100%|██████████| 2/2 [00:00<00:00, 6.11it/s]',
      "Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:164 'invalid argument'",
      '(EngineCore pid=1) ERROR 09-10 09:37:41 [multiproc_executor.py:314] Worker proc VllmWorker-0 died unexpectedly (exit code: None), shutting down executor.',
    ];
    expect(diagnose('vllm', capture).class).toBe('graph-capture-failed');
    const alone = diagnose('vllm', ['ERROR 11-29 09:36:15 engine.py:366] HIP error: invalid argument']);
    expect(alone.class).toBe('unknown');
    expect(alone.summary).toContain('invalid argument');
  });

  it("reads XLA's RESOURCE_EXHAUSTED as cuda-oom and a library without this GPU's architecture as dependency", () => {
    expect(
      diagnose('vllm', [
        'RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: Error loading program: Attempting to reserve 1.04G at the bottom of memory. That was not possible.',
      ]).class,
    ).toBe('cuda-oom');
    const arch = diagnose('vllm', ["vllm-server  | (APIServer pid=1) KeyError: 'gfx1151'"]);
    expect(arch.class).toBe('dependency');
    expect(arch.advice.join(' ')).toContain('gfx1151');
    // A parameter's name is a weight's key, not an architecture.
    expect(diagnose('vllm', ["KeyError: 'model.layers.0.mlp.gate_proj.weight'"]).class).toBe(
      'weight-mismatch',
    );
  });

  it("reads vLLM's free-memory check wrapped after `is less than` as cuda-oom", () => {
    expect(
      diagnose('auto', [
        'ValueError: Free memory on device cuda:0 (36.75/121.63 GiB) on startup is less than',
        'desired GPU memory utilization (0.85, 103.38 GiB).',
      ]).class,
    ).toBe('cuda-oom');
  });

  it("reads TGI's router answering a request as a start that got through, and vLLM's route list behind a path tag", () => {
    expect(
      diagnose('auto', [
        'tgi-1-1         | 2025-05-29T20:53:02.886748Z  INFO completions{total_time="101.78s"}: text_generation_router::server: router/src/server.rs:637: Success',
      ]).class,
    ).toBe('ready');
    expect(
      diagnose('auto', [
        '[0;36m(APIServer pid=2362917) INFO 08-19 00:16:07 [entrypoints/launcher.py:46] Route: /v1/audio/speech, Methods: POST',
      ]).class,
    ).toBe('ready');
  });

  it('quotes an exception whose class comes from a module of exceptions, whatever its name ends in', () => {
    const result = diagnose('auto', [
      'Traceback (most recent call last):',
      '  File "/venv/lib/python3.12/site-packages/torch/_dynamo/convert_frame.py", line 1318, in _fullgraph_capture_frame',
      'torch._dynamo.exc.Unsupported: Attempted to inline function marked as skipped',
      '  Explanation: Dynamo developers have intentionally marked that the function should not be traced.',
    ]);
    expect(result.class).toBe('unknown');
    expect(result.evidence.map((e) => e.text)).toContain(
      'torch._dynamo.exc.Unsupported: Attempted to inline function marked as skipped',
    );
    expect(diagnose('auto', ['asyncio.exceptions.CancelledError: cancelled']).class).toBe('hang');
  });

  it('reads a GPU runtime that could not be loaded as dependency, at any logger', () => {
    const result = diagnose('auto', [
      '(EngineCore_DP0 pid=7) ERROR 03-05 12:36:31 [core.py:1006] hip runtime failed to load.',
      '(EngineCore_DP0 pid=7) ERROR 03-05 12:36:31 [core.py:1006] Error: Please provide architecture for which code is to be generated.',
    ]);
    expect(result.class).toBe('dependency');
    expect(result.summary).toContain('hip runtime');
    expect(diagnose('auto', ['RuntimeError: CUDA runtime library could not be loaded']).class).toBe(
      'dependency',
    );
  });

  it("quotes a program's bare `Error: …` line rather than the stack under it, but not a launcher's one-word kind", () => {
    const node = diagnose('auto', [
      "Error: Cannot find module '/srv/server.mjs'",
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)',
      "  code: 'MODULE_NOT_FOUND',",
      'Node.js v20.20.2',
    ]);
    expect(node.class).toBe('unknown');
    expect(node.evidence.map((e) => e.line)).toEqual([1]);
    expect(diagnose('auto', ['Error: WebserverFailed']).class).toBe('hang');
    // TGI's download step failing is read by TGI's own rule, with its exit line quoted.
    const download = diagnose('tgi', ['Error: DownloadError']);
    expect(download.class).toBe('unknown');
    expect(download.evidence.map((e) => e.line)).toEqual([1]);
  });

  it("reads a CUDA compiler that does not know the GPU's architecture as dependency", () => {
    const ptxas = diagnose('auto', [
      "(EngineCore_DP0 pid=1477831) ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'",
    ]);
    expect(ptxas.class).toBe('dependency');
    expect(ptxas.summary).toContain('sm_121a');
    expect(diagnose('auto', ["nvcc fatal   : Unsupported gpu architecture 'compute_121a'"]).class).toBe(
      'dependency',
    );
  });

  it("reads TGI's router logging inside a request's span as a start that got through", () => {
    const result = diagnose('auto', [
      '2024-08-30T02:09:47.969705Z ERROR batch{batch_size=1}:prefill:clear_cache{batch_id=Some(76)}: text_generation_client: router/client/src/lib.rs:33: Server error: error trying to connect: Connection refused (os error 111)',
    ]);
    expect(result.class).toBe('ready');
    // The same with the time a paste dropped.
    expect(
      diagnose('auto', [
        'ERROR batch{batch_size=1}:prefill:prefill{id=0 size=1}: text_generation_client: router/client/src/lib.rs:33: Server error: CANCELLED',
      ]).class,
    ).toBe('ready');
    // A warm-up span is not a request.
    expect(
      diagnose('auto', [
        '2024-08-30T02:09:47.969705Z ERROR warmup{max_input_length=1024}:warmup: text_generation_client: router/client/src/lib.rs:33: Server error: error trying to connect: Connection refused (os error 111)',
      ]).class,
    ).not.toBe('ready');
  });

  it("reads a shell's report of a killed child in Chinese as killed, with the signal", () => {
    const segv = diagnose('auto', ['Started engine process with PID 118001', '段错误 (核心已转储)']);
    expect(segv.class).toBe('killed');
    expect(segv.summary).toContain('SIGSEGV');
    expect(diagnose('auto', ['./serve.sh: 行 3: 12345 已杀死 python3 -m server']).summary).toContain(
      'SIGKILL',
    );
    // The words inside other text are not a report.
    expect(diagnose('auto', ['说明：段错误通常来自驱动']).class).toBe('hang');
  });

  it('quotes the message a logger printed above a traceback the log cuts off', () => {
    const result = diagnose('auto', [
      "ERROR 05-26 00:17:47 [engine.py:448] 'ColumnParallelLinear' object has no attribute 'input_scale'",
      'ERROR 05-26 00:17:47 [engine.py:448] Traceback (most recent call last):',
      'ERROR 05-26 00:17:47 [engine.py:448]   File "/venv/vllm/engine/multiprocessing/engine.py", line 436, in run_mp_engine',
    ]);
    expect(result.class).toBe('unknown');
    expect(result.evidence.map((e) => e.line)).toEqual([1, 2]);
    expect(result.summary).toContain("'ColumnParallelLinear' object has no attribute 'input_scale'");
    // An info line above the header is not the error.
    const quiet = diagnose('auto', [
      'INFO 05-26 00:17:47 [engine.py:448] loading',
      'ERROR 05-26 00:17:47 [engine.py:448] Traceback (most recent call last):',
    ]);
    expect(quiet.evidence.map((e) => e.line)).toEqual([2]);
  });

  it("reads vLLM's free-memory check as quoted by hand, with the spaces dropped", () => {
    expect(
      diagnose('auto', [
        'Free memory on device (0.75/14.57GiB) on startup is less than desired GPU memory utilization(0.4,5.83GiB).',
      ]).class,
    ).toBe('cuda-oom');
  });

  it('reads a class the engine has no code for as weight-mismatch, and a size a message blames as invalid-value', () => {
    expect(
      diagnose('auto', [
        'ERROR 05-21 18:19:15 [engine.py:448] ValueError: Qwen2_5OmniForConditionalGeneration has no vLLM implementation and the Transformers implementation is not compatible with vLLM.',
      ]).class,
    ).toBe('weight-mismatch');
    expect(
      diagnose('auto', [
        'ValueError: The input size is not aligned with the quantized weight shape. This can be caused by too large tensor parallel size.',
      ]).class,
    ).toBe('invalid-value');
    // A size named without blame is not a setting refused.
    expect(diagnose('auto', ['ValueError: the input size is too large']).class).toBe('unknown');
  });

  it("reads Ray's ActorDiedError as the death it reports, not as the cause", () => {
    const result = diagnose('auto', [
      'ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.',
      '        class_name: AsyncvLLMServer',
      'The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file.',
    ]);
    expect(result.class).toBe('killed');
    expect(result.evidence[0]?.line).toBe(3);
  });

  it('reads a dump of the requests a failed step scheduled, and V0 engine classes, as vLLM serving', () => {
    const dump = diagnose('auto', [
      "(EngineCore pid=59445) ERROR 08-23 17:24:52 [dump_input.py:79] Dumping scheduler output for model execution: SchedulerOutput(scheduled_new_reqs=[], scheduled_cached_reqs=CachedRequestData(req_ids=['chatcmpl-1'])",
      '(Worker_TP0 pid=59500) ERROR 08-23 17:24:52 [multiproc_executor.py:945] torch.AcceleratorError: CUDA error: an illegal memory access was encountered',
    ]);
    expect(dump.class).toBe('ready');
    expect(dump.summary).toContain('illegal memory access');
    const v0 = diagnose('auto', [
      'INFO 12-13 17:31:41 engine.py:267] Added request chatcmpl-5b79409428c54c9083f984162792c2f1.',
      'CRITICAL 12-13 17:31:42 launcher.py:99] MQLLMEngine is already dead, terminating server process',
    ]);
    expect(v0.class).toBe('ready');
  });

  it('reads a message naming a package as missing or too old as dependency', () => {
    const missing = diagnose('auto', [
      '(Worker_TP0 pid=43972) ERROR 05-02 04:19:47 [multiproc_executor.py:870] RuntimeError: Sparse Attention Indexer CUDA op requires DeepGEMM to be installed.',
    ]);
    expect(missing.class).toBe('dependency');
    expect(missing.summary).toContain('DeepGEMM');
    expect(
      diagnose('auto', [
        'RuntimeError: Format of weight in npu_grouped_matmul is FRACTAL_NZ, current CANN version do not support with this format. Please try to update the version of CANN.',
      ]).class,
    ).toBe('dependency');
  });

  it("reads a failure below a vLLM platform plugin's capture frame as graph-capture-failed", () => {
    const result = diagnose('auto', [
      'ERROR 01-21 02:34:16 [multiproc_executor.py:824] Traceback (most recent call last):',
      'ERROR 01-21 02:34:16 [multiproc_executor.py:824]   File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 3037, in _capture_model',
      'ERROR 01-21 02:34:16 [multiproc_executor.py:824]     self._capture_aclgraphs(',
      'ERROR 01-21 02:34:16 [multiproc_executor.py:824] NotImplementedError: Currently we only support building dummy metadata for DecodeOnly state',
    ]);
    expect(result.class).toBe('graph-capture-failed');
  });

  it("reads SGLang's piecewise graph wrapper as its capture wrapper: graph-capture-failed, or out of memory", () => {
    const failed = diagnose('auto', [
      "[2026-06-10 13:08:34 TP7] Piecewise CUDA Graph failed with error: 'TcPiecewiseForwardContext' object has no attribute 'num_tokens'",
      '[2026-06-10 13:08:34 TP5] Scheduler hit an exception: Traceback (most recent call last):',
    ]);
    expect(failed.class).toBe('graph-capture-failed');
    expect(failed.evidence[0]?.line).toBe(1);
    expect(
      diagnose('auto', [
        'Piecewise CUDA Graph failed with error: CUDA out of memory. Tried to allocate 2.00 GiB.',
      ]).class,
    ).toBe('cuda-oom');
  });

  it('reads a kernel without a build for this GPU, a compiler older than it, and an outdated backend as dependency', () => {
    expect(diagnose('auto', ['RuntimeError: HIP error: invalid device function']).class).toBe('dependency');
    const ptxas = diagnose('auto', [
      '[rank0]:E0701 14:28:21.083000 911603 torch/_inductor/runtime/triton_heuristics.py:539] [0/0] ptxas /tmp/tmpmwke15zw.ptx, line 6; error   : PTX .version 8.4 does not support .target sm_120a',
    ]);
    expect(ptxas.class).toBe('dependency');
    expect(ptxas.summary).toContain('sm_120a');
    expect(diagnose('auto', ['RuntimeError: DeepGEMM backend is not available or outdated.']).class).toBe(
      'dependency',
    );
  });

  it("reads SGLang's check of unequal free memory across GPUs as cuda-oom, with advice to free them", () => {
    const result = diagnose('auto', [
      '[2026-01-02 10:00:00 TP1] Scheduler hit an exception: Traceback (most recent call last):',
      'RuntimeError: The memory capacity is unbalanced. Some GPUs may be occupied by other processes.',
    ]);
    expect(result.class).toBe('cuda-oom');
    expect(result.advice.join(' ')).toContain('nvidia-smi');
  });

  it("reads Ascend's coded errors: HCCL's socket timeout as nccl, the runtime's failed allocation as cuda-oom", () => {
    expect(
      diagnose('auto', [
        '(Worker_TP12 pid=15619) ERROR 10-11 11:32:59 [model_runner_v1.py:3556] EI0006: [PID: 15619] 2025-10-11-11:32:29.342.650 Getting socket times out. Reason: Remote Rank did not send the data in time.',
      ]).class,
    ).toBe('nccl');
    expect(
      diagnose('auto', [
        '(EngineCore_DP0 pid=3132) ERROR 10-15 16:32:16 [core.py:708] RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:508 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507899',
        '(EngineCore_DP0 pid=3132) ERROR 10-15 16:32:16 [core.py:708] EL0004: [PID: 3132] 2025-10-15-16:32:16.417.528 Failed to allocate memory.',
      ]).class,
    ).toBe('cuda-oom');
  });

  it('reads a compiled operator library without the operator called as dependency, also during capture', () => {
    const result = diagnose('auto', [
      'ERROR 09-18 10:34:29 [core.py:718]   File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 3037, in _capture_model',
      "ERROR 09-18 10:34:29 [core.py:718] AttributeError: '_OpNamespace' '_C_ascend' object has no attribute 'weak_ref_tensor'",
    ]);
    expect(result.class).toBe('dependency');
    expect(result.summary).toContain('_C_ascend');
  });

  it("reads pybind11 refusing a call's arguments as dependency, also below a settings frame", () => {
    const result = diagnose('auto', [
      '(EngineCore_1 pid=382) ERROR 05-22 11:41:54 [core.py:396]   File "/usr/local/lib/python3.10/dist-packages/vllm/config.py", line 4166, in __post_init__',
      '(EngineCore_1 pid=382) ERROR 05-22 11:41:54 [core.py:396] TypeError: __init__(): incompatible constructor arguments. The following argument types are supported:',
    ]);
    expect(result.class).toBe('dependency');
  });

  it('reads a kernel build that failed as dependency, and as graph-capture-failed while capturing', () => {
    const build =
      "subprocess.CalledProcessError: Command '['ninja', '-v', '-C', '/root/.cache/flashinfer/86/cached_ops']' returned non-zero exit status 1.";
    const outside = diagnose('auto', [build]);
    expect(outside.class).toBe('dependency');
    expect(outside.advice.join(' ')).toContain('CUDA toolkit');
    const capturing = diagnose('auto', [
      '  File "/venv/lib/python3.12/site-packages/torch/cuda/graphs.py", line 130, in capture_end',
      build,
    ]);
    expect(capturing.class).toBe('graph-capture-failed');
  });

  it("reads an engine's own module missing what its own code calls as a bug, not as packages that do not fit", () => {
    const own = diagnose('auto', [
      '  File "/sgl-workspace/sglang/python/sglang/srt/managers/tp_worker.py", line 84, in __init__',
      '    self.model_runner = ModelRunner(',
      "AttributeError: module 'sglang.srt.layers.quantization.deep_gemm_wrapper' has no attribute 'get_col_major_tma_aligned_tensor'",
    ]);
    expect(own.class).toBe('unknown');
    // Called from another package, or a compiled module, it is still a release mismatch.
    const other = diagnose('auto', [
      '  File "/venv/lib/python3.12/site-packages/my_plugin/model.py", line 12, in load',
      "AttributeError: module 'transformers.utils' has no attribute 'is_flash_attn_greater_or_equal_2_10'",
    ]);
    expect(other.class).toBe('dependency');
    const compiled = diagnose('auto', [
      '  File "/venv/lib/python3.12/site-packages/vllm/_custom_ops.py", line 40, in rms_norm',
      "AttributeError: module 'vllm._C' has no attribute 'rms_norm'",
    ]);
    expect(compiled.class).toBe('dependency');
  });

  it("strips vLLM's prefix with the year in its date", () => {
    const result = diagnose('auto', [
      "(Worker_DP0_TP8_EP8 pid=844) ERROR 2025-10-25 15:32:13.272 [multiproc_executor.py:597] KeyError: 'model.layers.1.mlp.experts.weight'",
    ]);
    expect(result.class).toBe('weight-mismatch');
  });

  it("reads SGLang's decode batches as serving only in an excerpt that begins while the server runs", () => {
    const decode =
      '[2025-12-12 08:43:59 TP0] Decode batch, #running-req: 6, #token: 1920, token usage: 0.94, cuda graph: True, gen throughput (token/s): 446.45, #queue-req: 5,';
    expect(diagnose('auto', [decode, decode]).class).toBe('ready');
    // After a start's phases, a decode batch may be the warm-up's own request.
    const warmup = diagnose('auto', [
      '[2026-06-11 05:43:00] Load weight begin. avail mem=78.00 GB',
      '[2026-06-11 05:43:09 TP0] Decode batch, #running-req: 1, #token: 9, token usage: 0.00, cuda graph: True, gen throughput (token/s): 0.00, #queue-req: 0',
    ]);
    expect(warmup.class).toBe('hang');
    // After a failure, a small one does not rescue the start (a batch of many requests and tokens is clients' work,
    // whatever came before it: see below).
    const failed = diagnose('auto', [
      '[2025-08-08 09:09:09 TP3] RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)',
      '[2025-12-12 08:43:59 TP0] Decode batch, #running-req: 1, #token: 920, token usage: 0.04, cuda graph: True, gen throughput (token/s): 46.45, #queue-req: 0,',
    ]);
    expect(failed.class).toBe('nccl');
  });

  it('reads a model or feature that needs another attention backend as invalid-value, not a notice of one', () => {
    expect(
      diagnose('auto', [
        '[2026-06-16 11:23:51] INFO:     127.0.0.1:55342 - "GET /model_info HTTP/1.1" 200 OK',
        '[2026-06-16 11:23:51] Bidirectional attention for image tokens requires TritonAttnBackend.',
      ]).class,
    ).toBe('invalid-value');
    expect(
      diagnose('sglang', [
        "AssertionError: GptOssForCausalLM requires one of ['triton', 'trtllm_mha'] attention backend, but got 'fa3'",
      ]).class,
    ).toBe('invalid-value');
    // The engine saying which backend it uses, or that it falls back to one, is no failure.
    const notice = diagnose(
      'vllm',
      [
        'INFO 01-01 00:00:00 [cuda.py:1] Using Flash Attention backend on V1 engine.',
        'WARNING 01-01 00:00:01 [x.py:2] FlexAttention requires FlashAttention backend for this model, falling back to TRITON_ATTN.',
      ],
      { exitCode: 1 },
    );
    expect(notice.class).not.toBe('invalid-value');
  });

  it('reads a failure the message says the program survives (what it uses instead) as no cause', () => {
    const fatal = 'ValueError: Chunked prefill when using sliding window is not supported';
    for (const survived of [
      '[2026-06-11 00:55:17] KV cache calibration warmup failed; first real prefill will remain the fallback. Error: CUDA out of memory. Tried to allocate 2.00 GiB',
      '[2026-06-11 00:55:17] Custom all-reduce failed: CUDA out of memory. Tried to allocate 2.00 GiB; falls back to NCCL',
    ]) {
      const result = diagnose('sglang', [survived, fatal]);
      expect(result.class, survived).toBe('invalid-value');
      expect(result.evidence.map((e) => e.line)).not.toContain(1);
    }
    // Without such words the out-of-memory line is the failure.
    expect(
      diagnose('sglang', [
        '[2026-06-11 00:55:17] Error: CUDA out of memory. Tried to allocate 2.00 GiB',
        fatal,
      ]).class,
    ).toBe('cuda-oom');
  });

  it("reads vLLM's kernel JIT monitor compiling during inference as a start that got through", () => {
    const start = [
      "INFO 06-22 21:17:28 [api_utils.py:273] non-default args: {'max_model_len': 2048}",
      '(EngineCore pid=1) INFO 06-22 21:21:34 [jit_monitor.py:60] Kernel JIT monitor activated — Triton JIT compilations during inference will be logged as warnings.',
    ];
    const inference =
      '(EngineCore pid=1) WARNING 06-22 21:21:35 [jit_monitor.py:106] Triton kernel JIT compilation during inference: _fwd_kernel_stage2. This causes a latency spike; consider extending warmup to cover this shape/config.';
    const crash = 'torch.AcceleratorError: CUDA error: out of memory';
    expect(diagnose('vllm', [...start, inference, crash]).class).toBe('ready');
    // The monitor's own start line says only that it watches from now on.
    expect(diagnose('vllm', [...start, crash]).class).toBe('cuda-oom');
  });

  it("reads vLLM's word that a worker failed in a background process, with no worker's error, as peer-rank-failed", () => {
    const start = [
      '(EngineCore pid=7) INFO 08-01 01:16:30 [gpu_model_runner.py:5248] Starting to load model /m...',
      '(EngineCore pid=7) WARNING 08-01 01:16:43 [multiproc_executor.py:441] [shutdown] Executor: workers still running after grace period; sending SIGTERM count=1',
      '(EngineCore pid=7) ERROR 08-01 01:16:47 [core.py:1330] EngineCore failed to start.',
    ];
    const wrapper =
      '(EngineCore pid=7) ERROR 08-01 01:16:47 [core.py:1330] Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.';
    const alone = diagnose('vllm', [...start, wrapper]);
    expect(alone.class).toBe('peer-rank-failed');
    expect(alone.summary).toContain('its own error is not in this log');
    // The worker's own error, where the log holds it, is the cause.
    const worker =
      '(Worker_TP1 pid=9) ERROR 08-01 01:16:44 [multiproc_executor.py:901] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB';
    expect(diagnose('vllm', [...start.slice(0, 2), worker, start[2]!, wrapper]).class).toBe('cuda-oom');
  });

  it("reads an error below torch_npu's graph capture frame as graph-capture-failed, as below torch's own", () => {
    const frame = (path: string): string =>
      `(EngineCore_0 pid=5) ERROR 08-05 11:23:25 [core.py:632]   File "/env/lib/python3.10/site-packages/${path}/graphs.py", line 210, in capture_begin`;
    const error =
      '(EngineCore_0 pid=5) ERROR 08-05 11:23:25 [core.py:632] RuntimeError: capture_begin:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:156 NPU function error: c10_npu::acl::AclmdlRICaptureBegin(capture_stream_, capture_mode), error code is 207005';
    expect(diagnose('vllm', [frame('torch_npu/npu'), error]).class).toBe('graph-capture-failed');
    expect(diagnose('vllm', [frame('torch/cuda'), error]).class).toBe('graph-capture-failed');
    expect(diagnose('vllm', [error]).class).toBe('unknown');
  });

  it('reads a rank opening a GPU the process cannot see as invalid-value', () => {
    const result = diagnose('auto', [
      '(VllmWorker rank=1 pid=839) ERROR 10-24 13:48:14 [multiproc_executor.py:514] torch.AcceleratorError: HIP error: invalid device ordinal',
    ]);
    expect(result.class).toBe('invalid-value');
    expect(result.summary).toContain('more GPUs than are visible');
  });

  it("reads a traceback through SGLang's graph-runner setup whose error names no class as graph-capture-failed", () => {
    const result = diagnose('auto', [
      '[2025-12-25 20:56:41 TP0] Scheduler hit an exception: Traceback (most recent call last):',
      '  File "/home/ai/sglang/python/sglang/srt/model_executor/model_runner.py", line 584, in initialize',
      '    self.init_device_graphs()',
      '  File "/home/ai/sglang/python/sglang/srt/model_executor/model_runner.py", line 2670, in init_device_graphs',
      '    self.graph_runner = graph_runners[self.device](self)',
    ]);
    expect(result.class).toBe('graph-capture-failed');
  });

  it("reads vLLM's offline progress over the prompts as a start that got through, with no error after it", () => {
    const result = diagnose('vllm', [
      'INFO 03-01 10:00:00 [gpu_model_runner.py:1] Graph capturing finished in 12 secs, took 0.54 GiB',
      'Capturing CUDA graphs (decode, FULL): 100%|##########| 35/35 [00:03<00:00, 10.1it/s]',
      'Processed prompts: 100%|##########| 1/1 [00:08<00:00,  8.19s/it, est. speed input: 9.65 toks/s, output: 62.52 toks/s]',
    ]);
    expect(result.class).toBe('ready');
    expect(result.summary).toContain('no error follows');
  });

  it("reads TGI's shard failing a request's batch as serving, its exit error as a shard failure, and ESC[ as colour", () => {
    const served = diagnose('auto', [
      '2024-06-03T07:12:22.339414Z ERROR text_generation_launcher: Method Decode encountered an error.',
      'SystemExit: 1 rank=0',
      '2024-06-03T07:12:23.785971Z ERROR text_generation_launcher: Shard 0 crashed',
    ]);
    expect(served.class).toBe('ready');
    expect(served.summary).toContain('a TGI shard crashed');
    // The same report during warm-up is a failed start.
    expect(
      diagnose('tgi', [
        '2024-12-11T18:26:38.576677Z ERROR text_generation_launcher: Method Warmup encountered an error.',
        '2024-12-11T18:26:40.832001Z  INFO shard-manager: text_generation_launcher: shard terminated rank=2',
      ]).class,
    ).not.toBe('ready');
    const exit = diagnose('tgi', [
      '2024-07-22T19:57:06.504541Z  INFO shard-manager: text_generation_launcher: shard terminated rank=2',
      'Error: ShardFailed',
    ]);
    expect(exit.class).toBe('unknown');
    expect(exit.summary).toContain('a TGI shard failed');
    const coloured = diagnose('auto', [
      'ESC[2m2024-04-07T02:20:36.588030ZESC[0m ESC[31mERRORESC[0m ESC[1mgenerate_streamESC[0mESC[1m{ESC[0mESC[3mparametersESC[0mESC[2m=ESC[0mGenerateParameters { best_of: None }}ESC[2m:ESC[0m ESC[2mtext_generation_router::inferESC[0mESC[2m:ESC[0m Request failed during generation: Server error: error trying to connect: No such file or directory (os error 2)',
    ]);
    expect(coloured.class).toBe('ready');
  });

  it("reads an engine's own module without a name its own code imports as a bug, another package's as dependency", () => {
    const own = diagnose('auto', [
      '  File "python/sglang/srt/layers/cp/utils.py", line 91, in get_glm_dsa_layer_split_effective_num_layers',
      '    from sglang.srt.layers.dp_attention import get_attention_cp_size',
      "ImportError: cannot import name 'get_attention_cp_size' from 'sglang.srt.layers.dp_attention'",
    ]);
    expect(own.class).toBe('unknown');
    const other = diagnose('auto', [
      '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/layers/attention/flashinfer_backend.py", line 20, in <module>',
      "ImportError: cannot import name 'BatchPrefillWithPagedKVCacheWrapper' from 'flashinfer.prefill'",
    ]);
    expect(other.class).toBe('dependency');
  });

  it('reads a log that ends among traceback frames as a failure, of the step a frame names', () => {
    const warmup = diagnose('tgi', [
      '2025-07-08T00:24:36.289120Z  INFO text_generation_launcher: Server started at unix:///tmp/text-generation-server-0',
      '  File "/usr/src/server/text_generation_server/server.py", line 142, in Warmup',
      '    self.model.warmup(batch, max_input_tokens, max_total_tokens)',
      '  File "/usr/src/server/text_generation_server/models/flash_causal_lm.py", line 1548, in warmup',
      '    _, _batch, _ = self.generate_token(batch)',
    ]);
    expect(warmup.class).toBe('warmup-failed');
    expect(warmup.summary).toContain('ends inside a traceback');
    const dtype = diagnose('vllm', [
      '  File "/usr/local/lib/python3.10/dist-packages/vllm/worker/worker.py", line 71, in init_model',
      '    _check_if_gpu_supports_dtype(self.model_config.dtype)',
      '  File "/usr/local/lib/python3.10/dist-packages/vllm/worker/worker.py", line 231, in _check_if_gpu_supports_dtype',
    ]);
    expect(dtype.class).toBe('invalid-value');
    const plain = diagnose('vllm', [
      'INFO 01-01 00:00:00 [loader.py:1] Loading weights took 4.12 seconds',
      '  File "/usr/local/lib/python3.12/dist-packages/mylib/x.py", line 3, in f',
      '    g()',
    ]);
    expect(plain.class).toBe('unknown');
  });

  it("does not read an access line after the engine's word that its start failed as the start coming up", () => {
    const result = diagnose('auto', [
      '  File "/root/.xinference/virtualenv/v4/qwen3/vllm/3.12.13/lib/python3.12/site-packages/vllm/v1/engine/utils.py", line 1272, in wait_for_engine_startup',
      '    raise RuntimeError(',
      'RuntimeError: [address=0.0.0.0:36797, pid=6075] Engine core initialization failed. See root cause above. Failed core proc(s): {}',
      '2026-08-07T18:25:43.679Z INFO uvicorn.access pid:1 role:local address:0.0.0.0:9997 node:3d67e2e62a71 172.19.0.1:34608 - "POST /v1/models HTTP/1.1" 503',
    ]);
    expect(result.class).toBe('unknown');
  });

  it("reads the CUDA driver's out-of-memory code as cuda-oom", () => {
    expect(
      diagnose('auto', [
        '(SGLangHttpServer pid=250977) [torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/utils.h func=cu_mem_create line=194',
      ]).class,
    ).toBe('cuda-oom');
  });

  it("reads an attention backend's refusal of the settings as invalid-value, however it is worded", () => {
    const framed = diagnose('vllm', [
      '[rank0]:   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/attention/backends/flash_attn.py", line 181, in __init__',
      '[rank0]:     raise ValueError(',
      '[rank0]: ValueError: AoT scheduling is required for full cuda graph.',
    ]);
    expect(framed.class).toBe('invalid-value');
    expect(
      diagnose('vllm', [
        "(EngineCore pid=149) ValueError: Selected backend AttentionBackendEnum.FLASHINFER is not valid for this configuration. Reason: ['attention sinks not supported']",
      ]).class,
    ).toBe('invalid-value');
  });

  it("reads vLLM's busy-loop failure and its scheduler stats dump as serving, its failed start as not", () => {
    const serving = diagnose('auto', [
      '(EngineCore pid=196) ERROR 05-13 10:46:44 [dump_input.py:81] Dumping scheduler stats: SchedulerStats(num_running_reqs=5, num_waiting_reqs=0)',
      '(EngineCore pid=196) ERROR 05-13 10:46:44 [core.py:1138] EngineCore encountered a fatal error.',
      '(EngineCore pid=196) ERROR 05-13 10:46:44 [core.py:1138] RuntimeError: CUDA error: an illegal memory access was encountered',
    ]);
    expect(serving.class).toBe('ready');
    const failed = diagnose('auto', [
      '(EngineCore_DP0 pid=1) ERROR 05-13 10:46:44 [core.py:700] EngineCore failed to start.',
      '(EngineCore_DP0 pid=1) ERROR 05-13 10:46:44 [core.py:700] RuntimeError: CUDA error: an illegal memory access was encountered',
    ]);
    expect(failed.class).not.toBe('ready');
  });

  it('reads lines a paste cut short: a compiler older than the GPU, a parameter name without its closing quote', () => {
    expect(
      diagnose('vllm', ["(EngineCore_DP0 pid=73) ptxas fatal   : Value 'sm_121a' is not defined for"]).class,
    ).toBe('dependency');
    expect(
      diagnose('vllm', [
        "(EngineCore_DP0 pid=273616) ERROR 01-07 13:43:31 [core.py:867] KeyError: 'layers.27.self_attn.q",
      ]).class,
    ).toBe('weight-mismatch');
  });

  it('reads a kernel library built without what the model needs as dependency', () => {
    const result = diagnose('vllm', [
      "RuntimeError: Worker failed with error 'This flash attention build does not support headdim not being a multiple of 32.'",
    ]);
    expect(result.class).toBe('dependency');
    expect(result.summary).toContain('flash attention build does not support headdim');
  });

  it("reads a traceback cut inside SGLang's settings checks as invalid-value, the same with its error as unknown", () => {
    const frames = [
      'Traceback (most recent call last):',
      '  File "/sgl-workspace/sglang/python/sglang/launch_server.py", line 32, in <module>',
      '    server_args = prepare_server_args(sys.argv[1:])',
      '  File "/sgl-workspace/sglang/python/sglang/srt/server_args.py", line 733, in __post_init__',
    ];
    const cut = diagnose('auto', frames);
    expect(cut.class).toBe('invalid-value');
    expect(cut.summary).toContain('the settings were rejected');
    // With its error line, only the errors a setting's check raises count.
    expect(
      diagnose('auto', [...frames, 'RuntimeError: No accelerator (CUDA, XPU, HPU) is available.']).class,
    ).not.toBe('invalid-value');
  });

  it("does not read a traceback cut while vLLM builds its parser (the configs' defaults) as a rejected setting", () => {
    const frames = [
      'Traceback (most recent call last):',
      '  File "/usr/local/lib/python3.12/site-packages/vllm/entrypoints/openai/cli_args.py", line 359, in make_arg_parser',
      '  File "/usr/local/lib/python3.12/site-packages/vllm/engine/arg_utils.py", line 1371, in add_cli_args',
      '  File "/usr/local/lib/python3.12/site-packages/vllm/engine/arg_utils.py", line 399, in get_kwargs',
      '  File "/usr/local/lib/python3.12/site-packages/vllm/engine/arg_utils.py", line 309, in _compute_kwargs',
    ];
    expect(diagnose('auto', frames).class).toBe('unknown');
    const checking = [
      frames[0] ?? '',
      '  File "/usr/local/lib/python3.12/site-packages/vllm/engine/arg_utils.py", line 1289, in create_engine_config',
    ];
    expect(diagnose('auto', checking).class).toBe('invalid-value');
  });

  it("reads vLLM's EngineDeadError as an engine core that died after its start, not as a failed start", () => {
    const dead = diagnose('auto', [
      '(APIServer pid=433) ERROR 05-04 08:51:40 [entrypoints/.../chat_completion/serving.py:1267]     raise self._format_exception(outputs) from None',
      '(APIServer pid=433) ERROR 05-04 08:51:40 [entrypoints/.../chat_completion/serving.py:1267] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.',
    ]);
    expect(dead.class).toBe('ready');
    expect(dead.summary).toContain('EngineDeadError');
    const failedStart = diagnose('auto', [
      '(EngineCore_DP0 pid=7) ERROR 05-04 08:50:01 [core.py:708] EngineCore failed to start.',
      "(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore_DP0': 1}",
    ]);
    expect(failedStart.class).not.toBe('ready');
  });

  it("reads SGLang's offline Engine as up once its caller's own progress finished after the model was set up", () => {
    const start = (logLevel: string) => [
      `[2025-11-23 23:34:08] INFO engine.py:123: server_args=ServerArgs(model_path='Qwen/Qwen2.5-7B-Instruct', log_level='${logLevel}', tp_size=1)`,
      'Loading safetensors checkpoint shards: 100% Completed | 4/4 [00:06<00:00,  1.60s/it]',
      'Capturing batches (bs=1 avail_mem=14.64 GB): 100%|██████████| 8/8 [00:01<00:00,  7.80it/s]',
    ];
    const callerBar = '100%|██████████| 26/26 [08:19<00:00, 19.20s/it]';
    const offline = diagnose('auto', [...start('error'), callerBar]);
    expect(offline.class).toBe('ready');
    expect(offline.summary).toContain('caller, whose own progress finished (line 4)');
    // A server that logs at info level prints its own lines after capture: a bare bar there is no caller's.
    expect(diagnose('auto', [...start('info'), callerBar]).class).toBe('hang');
    // Before the weights, a finished bar is no sign the engine returned; nor is one that has not finished.
    expect(diagnose('auto', [start('error')[0]!, callerBar]).class).toBe('hang');
    expect(
      diagnose('auto', [...start('error'), ' 50%|█████     | 13/26 [04:09<04:09, 19.20s/it]']).class,
    ).toBe('hang');
  });

  it("reads vLLM's supported tasks as a start that got through: the engine client is up by then", () => {
    const result = diagnose('auto', [
      '(EngineCore_DP0 pid=45) INFO 01-29 05:21:46 [core.py:272] init engine (profile, create kv cache, warmup model) took 18.51 seconds',
      "INFO 01-29 05:21:47 [llm.py:343] Supported tasks: ['generate']",
      '[2026-01-29 05:21:48] INFO evaluator.py:202: Setting random seed to 0',
    ]);
    expect(result.class).toBe('ready');
  });

  it("reads a layer an engine's config looks up among the model's modules as no checkpoint key", () => {
    const frames = (file: string) => [
      'Traceback (most recent call last):',
      `  File "/usr/local/lib/python3.12/site-packages/vllm/${file}", line 1786, in get_layers_from_vllm_config`,
      '    if isinstance(forward_context[layer_name], layer_type)',
      "KeyError: 'language_model.model.layers.30.self_attn.attn'",
    ];
    expect(diagnose('vllm', frames('config/vllm.py')).class).toBe('unknown');
    expect(diagnose('vllm', frames('model_executor/models/mistral.py')).class).toBe('weight-mismatch');
  });

  it("reads AWS Neuron's runtime failing to place a tensor as out of memory", () => {
    const result = diagnose('vllm', [
      'ERROR 02-11 14:20:32 engine.py:389] RuntimeError: nrt_tensor_allocate status=4 message="Allocation Failure"',
    ]);
    expect(result.class).toBe('cuda-oom');
  });

  it('reads a report of a killed process that the start went on past as no cause', () => {
    const result = diagnose('auto', [
      'WARNING 04-04 21:50:03 [interface.py:226] Failed to import from vllm._C: ModuleNotFoundError("No module named \'vllm._C\'")',
      'Check failed with unknown exit code: -6.',
      "INFO 04-04 21:50:06 [utils.py:253] non-default args: {'model': 'm'}",
      '(EngineCore_DP0 pid=9) ERROR 04-04 21:50:30 [core.py:1111] ValueError: Resource axis: attn_dp is not found in mesh',
    ]);
    expect(result.class).toBe('unknown');
    expect(result.summary).toContain('Resource axis');
    // A report with no start after it is still the death it reports, also before a stop asked for.
    expect(
      diagnose('auto', ['Server process exited with code -9.', 'SIGTERM received, shutting down']).class,
    ).toBe('killed');
  });

  it("reads vLLM's API server starting on its address as a start that got through, in every wording", () => {
    for (const line of [
      '(APIServer pid=2520) INFO 09-24 11:04:27 [api_server.py:1019] Starting vLLM API server 0 on http://0.0.0.0:8000',
      'INFO 05-05 15:26:17 [api_server.py:1028] Starting vLLM API server on http://0.0.0.0:8000',
      '(APIServer pid=9) INFO 03-24 13:28:31 [api_server.py:581] Starting vLLM server on http://0.0.0.0:6006',
    ]) {
      const result = diagnose('auto', [
        '(EngineCore_0 pid=1) INFO 09-24 11:04:20 [core.py:210] init engine (profile, create kv cache, warmup model) took 30.1 seconds',
        line,
      ]);
      expect(result.class, line).toBe('ready');
    }
  });
  it('reads a launcher that found no engine executable at its path as a missing dependency', () => {
    const result = diagnose('auto', [
      'gpustack.worker.backends.vllm - INFO - Starting vllm server',
      "gpustack.worker.backends.vllm - ERROR - Failed to run the vllm server: [Errno 2] No such file or directory: '/opt/envs/serve/bin/vllm'",
    ]);
    expect(result.class).toBe('dependency');
    // A model file that is missing stays the model's problem.
    expect(
      diagnose('auto', ["FileNotFoundError: [Errno 2] No such file or directory: '/models/m/config.json'"])
        .class,
    ).toBe('model-not-found-or-auth');
  });

  it("reads SGLang's dead scheduler as the consequence of the error its process raised first", () => {
    const result = diagnose('auto', [
      "[2025-05-19 08:01:20] server_args=ServerArgs(model_path='m')",
      'Traceback (most recent call last):',
      '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2238, in run_scheduler_process',
      '    faulthandler.enable()',
      'OSError: [Errno 12] Cannot allocate memory',
      '[2025-05-19 08:01:31] Rank 0 scheduler is dead. Please check if there are relevant logs.',
    ]);
    expect(result.class).toBe('unknown');
    expect(result.evidence.map((e) => e.line)).toContain(5);
    // Alone, it is still a process killed.
    expect(
      diagnose('sglang', [
        '[2025-05-19 08:01:31] Rank 0 scheduler is dead. Please check if there are relevant logs.',
      ]).class,
    ).toBe('killed');
  });

  it('reads a message that says what the program does instead as a notice, whatever its level', () => {
    const result = diagnose('auto', [
      "[2025-04-20 14:03:03] server_args=ServerArgs(model_path='m')",
      '[2025-04-20 14:03:12 TP0] Skipping import of cpp extensions: /x/torchao/_C.abi3.so: undefined symbol: _ZN3c105ErrorC2E',
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 114.00 MiB. GPU 0 has a total capacity of 15.58 GiB',
    ]);
    expect(result.class).toBe('cuda-oom');
  });

  it("reads a V1 engine core's traceback through its busy loop, or a failed call on the running core, as serving", () => {
    const busy = diagnose('auto', [
      'INFO 04-15 08:10:42 [core.py:61] Initializing a V1 LLM engine (v0.8.5) with config: model=m',
      'ERROR 04-15 08:11:37 [core.py:387] EngineCore hit an exception: Traceback (most recent call last):',
      'ERROR 04-15 08:11:37 [core.py:387]   File "/opt/vllm/vllm/v1/engine/core.py", line 402, in run_busy_loop',
      'ERROR 04-15 08:11:37 [core.py:387]     self._process_engine_step()',
      'ERROR 04-15 08:11:37 [core.py:387] RuntimeError: The expanded size of the tensor (58) must match the existing size (3)',
    ]);
    expect(busy.class).toBe('ready');
    const utility = diagnose('auto', [
      'INFO 06-13 03:51:20 [core.py:61] Initializing a V1 LLM engine (v0.8.5) with config: model=m',
      'INFO 06-13 03:51:26 [core.py:159] init engine (profile, create kv cache, warmup model) took 7.22 seconds',
      'ERROR 06-13 03:53:12 [core.py:459] Invocation of sleep method failed',
      'ERROR 06-13 03:53:12 [core.py:459] RuntimeError: No active exception to reraise',
    ]);
    expect(utility.class).toBe('ready');
    // The same error while the core starts is a failed start.
    expect(
      diagnose('auto', [
        'INFO 04-15 08:10:42 [core.py:61] Initializing a V1 LLM engine (v0.8.5) with config: model=m',
        'ERROR 04-15 08:11:37 [core.py:387] RuntimeError: The expanded size of the tensor (58) must match the existing size (3)',
      ]).class,
    ).toBe('unknown');
  });

  it("reads Ray giving up on a placement group's GPUs as parallel sizes the cluster cannot hold", () => {
    for (const line of [
      "(EngineCore_DP0 pid=89) ERROR 04-20 18:08:14 [core.py:1100] ValueError: Cannot provide a placement group requiring 4.0 GPUs (placement_group_specs=[{'GPU': 1.0}, {'GPU': 1.0}]) within 1800 seconds.",
      "ValueError: Cannot provide a placement group of placement_group_specs=[{'GPU': 1.0}] within 1800 seconds. See `ray status` and `ray list nodes` to make sure the cluster has enough resources.",
    ])
      expect(diagnose('vllm', [line]).class, line).toBe('invalid-value');
  });

  it('reads checkpoint files and configs that do not fit the model as weight-mismatch', () => {
    for (const line of [
      "(APIServer pid=1) TypeError: Invalid type of HuggingFace config. Expected type: <class 'vllm.transformers_utils.configs.qwen3_5.Qwen3_5Config'>, but found type: <class 'transformers.models.qwen3_5.configuration_qwen3_5.Qwen3_5TextConfig'>",
      'ValueError: base_model.model.lm_head.weight is unsupported LoRA weight',
      'ERROR 03-10 21:30:59 engine.py:400] safetensors_rust.SafetensorError: Error while deserializing header: InvalidHeaderDeserialization',
    ])
      expect(diagnose('auto', [line]).class, line).toBe('weight-mismatch');
  });

  it("reads a port variable that holds a Kubernetes service's URL as a bad setting", () => {
    for (const line of [
      "ERROR 02-10 09:39:12 [engine.py:458] ValueError: VLLM_PORT 'tcp://169.169.193.120:6785' appears to be a URI. This may be caused by a Kubernetes service discovery issue",
      "ERROR 03-27 03:12:01 engine.py:400] invalid literal for int() with base 10: 'tcp://10.43.1.39:8000'",
    ]) {
      const result = diagnose('auto', [line]);
      expect(result.class, line).toBe('invalid-value');
      expect(result.summary).toMatch(/Kubernetes/);
    }
  });

  it('reads a file name an editor turned into a link, with colour codes a shipper wrote out, as plain text', () => {
    const result = diagnose('tgi', [
      '2024-04-18T18:45:31.064-04:00   #033[2m2024-04-18T22:45:31.006845Z#033[0m #033[32m INFO#033[0m #033[2mtext_generation_router#033[0m#033[2m:#033[0m #033[2mrouter/src/[main.rs#033[0m#033[2m:#033[0m#033[2m329:#033[0m](http://main.rs/%23033[2m:%23033[0m%23033[2m329:%23033[0m) Connected',
    ]);
    expect(result.class).toBe('ready');
  });

  it("reads IPython's marked source line as the line that raised", () => {
    const result = diagnose('auto', [
      'File ~/lib/python3.12/site-packages/vllm/model_executor/layers/linear.py:1228, in RowParallelLinear.weight_loader(self, param, loaded_weight)',
      '\u001b[0;32m-> 1228\u001b[0m \u001b[38;5;28;01massert\u001b[39;00m param_data.shape == loaded_weight.shape',
      '\u001b[0;31mAssertionError\u001b[0m: ',
    ]);
    expect(result.class).toBe('weight-mismatch');
  });

  it("reads a traceback under Python's 'Exception ignored' as a notice, and no notice outranks an earlier error", () => {
    const result = diagnose('auto', [
      "[2025-11-21 16:07:13] server_args=ServerArgs(model_path='m')",
      'AssertionError: FlashAttention v3 Backend requires SM>=80 and SM<=90. Please use `--attention-backend flashinfer`.',
      'Exception ignored in atexit callback: <function move_cutlass_compiled_cache at 0x7004eda2d080>',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3/torch/_inductor/codegen/cuda/cutlass_utils.py", line 39, in move_cutlass_compiled_cache',
      "AttributeError: module 'cutlass' has no attribute 'CACHE_FILE'",
    ]);
    expect(result.class).toBe('invalid-value');
    expect(result.evidence.map((e) => e.line)).toContain(2);
    const warningAfter = diagnose('vllm', [
      'ERROR 01-01 00:00:00 [x.py:1] ValueError: bad value',
      'WARNING 01-01 00:00:01 [x.py:1] ImportError: libcudart.so.12',
    ]);
    expect(warningAfter.class).toBe('unknown');
  });

  it('reads two features the server has not implemented together as a refused combination of settings', () => {
    const result = diagnose('tgi', [
      'NotImplementedError: Vlm do not work with prefix caching yet rank=0',
      '2025-03-13T13:55:25.723052Z ERROR text_generation_launcher: Shard 0 failed to start',
    ]);
    expect(result.class).toBe('invalid-value');
  });

  it("reads HIP's loader missing a kernel as no build for this GPU, and the abort after it as its consequence", () => {
    const result = diagnose('auto', [
      '[2025-04-22 21:29:09 TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=7.45 GB',
      ':0:/src/clr/hipamd/src/hip_global.cpp:117 : 6190051732 us:  Cannot find Symbol with name: _ZN7ck_tile6kentryILi256E',
      'Fatal Python error: Aborted',
    ]);
    expect(result.class).toBe('dependency');
    const alone = diagnose('sglang', [
      "[2025-04-22 21:28:53] server_args=ServerArgs(model_path='m')",
      'Fatal Python error: Aborted',
    ]);
    expect(alone.class).toBe('killed');
    expect(alone.summary).toMatch(/SIGABRT/);
  });

  it("reads a launcher's word that the server it started is up at its URL as a start that got through", () => {
    for (const line of [
      '2025-11-12T20:32:03.405677747Z 20251112-20:32:03.405 SGLangServer Wrapper INFO: SGLang server launched at: http://172.21.0.2:23239',
      'INFO 2024-11-14 20:24:26,485 instructlab.model.backends.vllm:143: vLLM engine successfully started at http://127.0.0.1:56677/v1',
    ])
      expect(
        diagnose('auto', ["[2025-11-12 20:31:34] server_args=ServerArgs(model_path='m')", line]).class,
        line,
      ).toBe('ready');
    // Said before the server is up, it is no such word.
    expect(
      diagnose('auto', [
        "[2025-11-12 20:31:34] server_args=ServerArgs(model_path='m')",
        'INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)',
      ]).class,
    ).toBe('hang');
  });

  it("reads vLLM's V0 engine run in the caller's process as up at its last start line, unless its API server ran", () => {
    const start = [
      'INFO 09-18 03:52:48 [llm_engine.py:230] Initializing a V0 LLM engine (v0.9.2) with config: model=m',
      'INFO 09-18 03:55:44 [model_runner.py:1671] Graph capturing finished in 6 secs, took 0.04 GiB',
      'INFO 09-18 03:55:45 [llm_engine.py:428] init engine (profile, create kv cache, warmup model) took 70.40 seconds',
    ];
    expect(diagnose('auto', start).class).toBe('ready');
    expect(
      diagnose('auto', ['INFO 09-18 03:52:40 [api_server.py:1395] vLLM API server version 0.9.2', ...start])
        .class,
    ).toBe('hang');
    // Up to 0.9 V1's engine core prints in the caller's log untagged: the same reading.
    expect(
      diagnose('auto', [
        'INFO 05-03 19:08:15 [core.py:58] Initializing a V1 LLM engine (v0.8.5.post1) with config: model=m',
        'INFO 05-03 19:08:39 [core.py:159] init engine (profile, create kv cache, warmup model) took 22.11 seconds',
        'INFO 05-03 19:08:39 [core_client.py:439] Core engine process 0 ready.',
      ]).class,
    ).toBe('ready');
    // A V1 engine core in a process of its own prints the same line before its client goes on: no such reading.
    expect(
      diagnose('auto', [
        '(EngineCore_DP0 pid=1) INFO 10-21 09:11:40 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model=m',
        '(EngineCore_DP0 pid=1) INFO 10-21 09:12:04 [core.py:210] init engine (profile, create kv cache, warmup model) took 25.99 seconds',
      ]).class,
    ).toBe('hang');
  });
  it('reads a model config without a setting the server reads as a layout this release does not support', () => {
    const lines = (error: string, frame: string) => [
      'Traceback (most recent call last):',
      `  File "${frame}", line 214, in __getattribute__`,
      '    return super().__getattribute__(key)',
      error,
    ];
    expect(
      diagnose(
        'auto',
        lines(
          "AttributeError: 'Qwen2_5OmniConfig' object has no attribute 'hidden_size'",
          '/usr/lib/python3.12/site-packages/transformers/configuration_utils.py',
        ),
      ).class,
    ).toBe('weight-mismatch');
    // The server's own config objects are not the checkpoint's.
    expect(
      diagnose(
        'auto',
        lines(
          "AttributeError: 'AscendConfig' object has no attribute 'use_sfa'",
          '/opt/plugin/ascend_config.py',
        ),
      ).class,
    ).toBe('unknown');
  });

  it('reads packages that do not fit together, or are missing, as dependency', () => {
    for (const line of [
      "ValueError: '<class 'sglang.srt.configs.qwen2_5_vl_config.Qwen2_5_VLConfig'>' is already used by a Transformers model.",
      'TypeError: moe_fused_gate() takes 5 positional arguments but 7 were given',
      'RuntimeError: Form data requires "python-multipart" to be installed.',
      'RuntimeError: operator torchvision::nms does not exist',
      'RuntimeError: PassManager::run failed',
    ])
      expect(diagnose('auto', [line]).class, line).toBe('dependency');
  });

  it('reads a model with no readable config, or not in the cache in offline mode, as not found', () => {
    for (const line of [
      'ValueError: No supported config format found in mistralai/Mistral-7B-v0.1',
      'huggingface_hub.errors.OfflineModeIsEnabled: Cannot reach https://huggingface.co/org/m/resolve/main/hf_quant_config.json: offline mode is enabled. To disable it, please unset the `HF_HUB_OFFLINE` environment variable.',
    ])
      expect(diagnose('auto', [line]).class, line).toBe('model-not-found-or-auth');
  });
  it("reads SGLang's warm-up request answered as a start that got through, also without a ready line after it", () => {
    const start = [
      "[2024-04-09 10:00:00] server_args=ServerArgs(model_path='m')",
      'INFO:     Uvicorn running on http://127.0.0.1:30000 (Press CTRL+C to quit)',
      'INFO:     127.0.0.1:48684 - "GET /get_model_info HTTP/1.1" 200 OK',
    ];
    const failure = [
      'Traceback (most recent call last):',
      'RuntimeError: CUDA error: device-side assert triggered',
    ];
    expect(
      diagnose('auto', [...start, 'INFO:     127.0.0.1:48700 - "POST /generate HTTP/1.1" 200 OK', ...failure])
        .class,
    ).toBe('ready');
    // Failing before its answer, it is the warm-up that failed.
    expect(diagnose('auto', [...start, ...failure]).class).toBe('warmup-failed');
  });

  it("reads early pynccl's capitalised 'NCCL Error N' as an NCCL failure", () => {
    const result = diagnose('vllm', [
      '(RayWorkerWrapper pid=67451, ip=10.1.0.7) ERROR 06-25 15:28:30 worker_base.py:148] RuntimeError: NCCL Error 2: unhandled system error (run with NCCL_DEBUG=INFO for details)',
    ]);
    expect(result.class).toBe('nccl');
    expect(result.summary).toMatch(/unhandled system error/);
  });
  it("reads DeepEP's failed check of an NVSHMEM setup call as NVSHMEM not starting", () => {
    const result = diagnose('auto', [
      '[2025-04-09 10:35:31 TP2] Scheduler hit an exception: Traceback (most recent call last):',
      "RuntimeError: Failed: Assertion error /opt/DeepEP/csrc/kernels/runtime.cu:56 'nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, rank % NUM_MAX_NVL_PEERS, NUM_MAX_NVL_PEERS, num_ranks / NUM_MAX_NVL_PEERS, &cpu_rdma_team_config, 0, &cpu_rdma_team) == 0'",
    ]);
    expect(result.class).toBe('nccl');
    expect(result.summary).toMatch(/nvshmem_team_split_strided/);
  });
  it("does not take an environment's name for the engine that runs in it", () => {
    const frame = (file: string) =>
      `  File "/home/u/anaconda3/envs/vllm/lib/python3.10/${file}", line 1, in f`;
    const result = diagnose('auto', [
      '(vllm) user@node14:~$  python -m sglang.launch_server --model-path m --port 30000',
      "[14:39:01] server_args=ServerArgs(model_path='m', tokenizer_path='m')",
      'INFO:     Uvicorn running on http://127.0.0.1:30000 (Press CTRL+C to quit)',
      'Traceback (most recent call last):',
      frame('site-packages/requests/models.py'),
      frame('json/decoder.py'),
      'json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)',
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      'Traceback (most recent call last):',
      frame('threading.py'),
      '  File "/home/u/anaconda3/envs/vllm/lib/python3.10/site-packages/sglang/srt/server.py", line 449, in _wait_and_warmup',
      'requests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)',
    ]);
    // SGLang's, and its warm-up's: the step frame of the chain's later traceback places the first error too.
    expect(result.class).toBe('warmup-failed');
  });

  it("reads NCCL's own INFO lines as setup it reports, never a failure", () => {
    const result = diagnose('vllm', [
      'INFO 12-12 10:00:00 [parallel_state.py:1] world_size=4 rank=0 local_rank=0 distributed_init_method=tcp://x backend=nccl',
      'vllm-0:936:936 [0] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading',
    ]);
    expect(result.class).toBe('hang');
  });
  it('reads an error after a capture ended as a later step, and one in a capture begun after another as its own', () => {
    const error =
      'RuntimeError: shape mismatch: value tensor of shape [5] cannot be broadcast to indexing result';
    const vllm = [
      '(EngineCore pid=1) INFO 07-25 15:58:08 [core.py:116] Initializing a V1 LLM engine (v0.23.1) with config: model=m',
      '(Worker_TP0 pid=2) INFO 07-25 16:19:16 [model_runner.py:734] Graph capturing finished in 16 secs, took 0.13 GiB',
      `(Worker_TP0 pid=2) ERROR 07-25 16:19:29 [multiproc_executor.py:1007] ${error}`,
    ];
    expect(diagnose('auto', vllm).class).toBe('unknown');
    const sglang = [
      "[2026-01-01 00:00:00] server_args=ServerArgs(model_path='m')",
      '[2026-01-01 00:00:10 TP0] Capture target decode CUDA graph begin. backend=full, bs=[1, 2], avail mem=11.16 GB',
      '[2026-01-01 00:00:20 TP0] Capture target decode CUDA graph end. elapsed=10.1 s, mem usage=0.52 GB, avail mem=10.64 GB.',
      '[2026-01-01 00:00:21 TP0] Capture target prefill CUDA graph begin. backend=full, num_tokens=[512], avail mem=10.60 GB',
      error,
    ];
    expect(diagnose('auto', sglang).class).toBe('graph-capture-failed');
    expect(diagnose('auto', [...sglang.slice(0, 3), error]).class).toBe('unknown');
  });

  it('reads no attention backend for the settings as a refused combination', () => {
    const result = diagnose('vllm', [
      '(Worker_TP1_EP1 pid=972914) ERROR 07-25 11:23:40 [multiproc_executor.py:901] ValueError: No valid attention backend found for cuda with AttentionSelectorConfig(head_size=64, dtype=torch.bfloat16, kv_cache_dtype=fp8_ds_mla, block_size=64)',
    ]);
    expect(result.class).toBe('invalid-value');
  });

  it("reads vLLM's output handler failing, and uvicorn's shutdown, as a server that was serving", () => {
    const handler = diagnose('vllm', [
      '(APIServer pid=50) ERROR 01-30 12:13:49 [async_llm.py:546] AsyncLLM output_handler failed.',
      '(APIServer pid=50) ERROR 01-30 12:13:49 [async_llm.py:546]   File "/usr/lib/python3/dist-packages/vllm/v1/engine/core_client.py", line 899, in get_output_async',
      '(APIServer pid=50) ERROR 01-30 12:13:49 [async_llm.py:546] msgspec.ValidationError: Expected `array`, got `str`',
    ]);
    expect(handler.class).toBe('ready');
    const nccl =
      'ERROR 03-19 10:48:40 worker_base.py:467] torch.distributed.DistBackendError: NCCL error in: NCCLUtils.hpp:317, unhandled system error';
    const shutdown = diagnose('vllm', [nccl, 'INFO:     Waiting for application shutdown.']);
    expect(shutdown.class).toBe('ready');
    expect(shutdown.summary).toMatch(/NCCL/);
    // The same NCCL error without uvicorn's shutdown is the start's failure.
    expect(diagnose('vllm', [nccl]).class).toBe('nccl');
  });

  it("guesses vLLM from its logger's line shape only where no line names an engine", () => {
    const shape =
      'ERROR 03-19 10:48:40 worker_base.py:467] RuntimeError: CUDA error: an illegal memory access';
    const guessOf = (lines: string[]) => {
      const guess = createEngineGuess();
      for (const line of lines) guess.observe(line);
      return guess.best();
    };
    expect(guessOf([shape])).toBe('vllm');
    expect(guessOf(['[2026-01-01 00:00:00 TP0] Load weight begin. sglang', shape])).toBe('sglang');
    expect(guessOf(['RuntimeError: CUDA error: an illegal memory access'])).toBe('generic');
    // So a fragment in that shape alone gets vLLM's rules: uvicorn's shutdown shows it was serving.
    expect(diagnose('auto', [shape, 'INFO:     Waiting for application shutdown.']).class).toBe('ready');
  });

  it("reads torch elastic's word for a signal its agent got as a kill by that signal", () => {
    const result = diagnose('sglang', [
      '[2026-06-04 21:25:24] Init torch distributed begin.',
      'torch.distributed.elastic.multiprocessing.api.SignalException: Process 416 got signal: 15',
    ]);
    expect(result.class).toBe('killed');
    expect(result.summary).toMatch(/SIGTERM/);
  });

  it("reads Python's bare Exception with a message as the error a traceback ends in", () => {
    const result = diagnose('sglang', [
      '[2026-02-27 09:27:52] Scheduler hit an exception: Traceback (most recent call last):',
      '  File "/sgl-workspace/sglang/python/sglang/srt/lora/lora_manager.py", line 120, in init_lora_modules',
      "Exception: No corresponding LoRA layer supported for <class 'sglang.srt.layers.linear.ReplicatedLinear'>.",
    ]);
    expect(result.summary).toMatch(/raised Exception: No corresponding LoRA layer/);
    expect(result.evidence.map((e) => e.line)).toContain(3);
  });

  it('reads a LoRA adapter that lacks a tensor the server looks up as a weight mismatch', () => {
    const result = diagnose('sglang', [
      "RuntimeError: Failed to load LoRA adapter my-lora-adapter: 'base_model.model.model.layers.0.self_attn.v_proj.lora_A.weight'",
    ]);
    expect(result.class).toBe('weight-mismatch');
    expect(result.summary).toMatch(/adapter my-lora-adapter has no base_model\..*v_proj\.lora_A\.weight/);
    // Another error loading an adapter is not a missing tensor.
    expect(
      diagnose('sglang', ['RuntimeError: Failed to load LoRA adapter my-lora-adapter: connection reset'])
        .class,
    ).toBe('unknown');
  });

  it("reads an AttributeError from transformers' own attribute lookup as a transformers release the server does not support", () => {
    const below = (error: string) =>
      diagnose('vllm', [
        'Traceback (most recent call last):',
        '  File "/venv/lib/python3.12/site-packages/vllm/transformers_utils/tokenizer.py", line 92, in get_cached_tokenizer',
        '    tokenizer.all_special_tokens_extended)',
        '  File "/venv/lib/python3.12/site-packages/transformers/tokenization_utils_base.py", line 1291, in __getattr__',
        error,
      ]);
    const missing = below(
      "AttributeError: TokenizersBackend has no attribute all_special_tokens_extended. Did you mean: 'num_special_tokens_to_add'?",
    );
    expect(missing.class).toBe('dependency');
    expect(missing.summary).toMatch(/^the installed transformers lacks what the server uses/);
    // Another error raised there is not a missing attribute.
    expect(below('ValueError: bad token').class).toBe('unknown');
  });

  it('reads a kernel build that finds no C header as a missing toolchain, and inside a capture as its failure', () => {
    const header = '/usr/include/stdlib.h:31:10: fatal error: stddef.h: No such file or directory';
    const built = diagnose('vllm', [
      header,
      "torch._inductor.exc.InductorError: CalledProcessError: Command '['/usr/bin/gcc', '/tmp/t/main.c', '-O3']' returned non-zero exit status 1.",
    ]);
    expect(built.class).toBe('dependency');
    expect(built.summary).toMatch(/stddef\.h/);
    expect(diagnose('vllm', ["/tmp/t/main.c:1:10: fatal error: 'cuda.h' file not found"]).class).toBe(
      'dependency',
    );
    expect(
      diagnose('sglang', [
        '[2026-01-01 00:00:00 TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=60.00 GB',
        header,
      ]).class,
    ).toBe('graph-capture-failed');
  });

  it('reads a check that free GPU memory is below what the start needs as out of memory', () => {
    expect(
      diagnose('vllm', [
        'RuntimeError: Tiered MoE observed free HBM is below the runtime reserve: 13330546688 bytes available, 15000000000 required.',
      ]).class,
    ).toBe('cuda-oom');
    expect(
      diagnose('vllm', ['WARNING free memory is below the cache target; shrinking the cache'], {
        exitCode: 1,
      }).class,
    ).not.toBe('cuda-oom');
  });

  it("reads a quantised checkpoint whose scale layout the layer's kernel does not take as weight-mismatch", () => {
    expect(
      diagnose('vllm', [
        "ERROR 04-11 09:53:58 [engine.py:448] For FP8 Fused MoE layers, only per-tensor scales for weights and activations are supported. Found num_bits=8 type='float' strategy='channel'",
      ]).class,
    ).toBe('weight-mismatch');
  });

  it("reads vLLM's sleep mode put to use as an engine that got through its start", () => {
    const result = diagnose('vllm', [
      "INFO 11-17 15:24:42 [llm.py:306] Supported_tasks: ['generate']",
      '(EngineCore_DP0 pid=5) INFO 11-17 15:24:46 [executor_base.py:189] It took 3.765305 seconds to fall asleep.',
      'ERROR 11-17 15:24:49 [core_client.py:564] Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.',
    ]);
    expect(result.class).toBe('ready');
    expect(result.summary).toMatch(/died/);
  });

  it('reads a setting found larger than another, both with their values, as a refused combination', () => {
    expect(
      diagnose('vllm', [
        'ValueError: Chunked MM input disabled but max_tokens_per_mm_item (2496) is larger than max_num_batched_tokens (2048). Please increase max_num_batched_tokens.',
      ]).class,
    ).toBe('invalid-value');
  });

  it("reads SGLang decoding many requests at once as clients' work, and a later node's health server as its ready line", () => {
    const start = '[2026-01-14 11:58:07 DP0 TP0 EP0] Load weight begin. avail mem=60.80 GB';
    const crash = 'terminate called after throwing an instance of std::runtime_error';
    const served = diagnose('sglang', [
      start,
      '[2026-01-14 12:10:07 DP0 TP0 EP0] Decode batch, #running-req: 26, #token: 101376, token usage: 0.81, accept len: 2.71',
      crash,
    ]);
    expect(served.class).toBe('ready');
    // The warm-up's one short prompt per DP rank does not count.
    const warmup = diagnose('sglang', [
      start,
      '[2026-01-14 12:03:20 DP0 TP0 EP0] Decode batch, #running-req: 1, #token: 14, token usage: 0.00',
      crash,
    ]);
    expect(warmup.class).not.toBe('ready');
    // A node other than the first serves no API: its health-check server says its schedulers are up.
    const node = diagnose('sglang', [
      '[2026-01-14 11:58:07 DP16 TP16 EP16] Load weight begin. avail mem=60.80 GB',
      '[2026-01-14 12:03:25] Dummy health check server started in background thread at 172.22.3.244:8000',
      crash,
    ]);
    expect(node.class).toBe('ready');
  });

  it("reads a loader's word that the checkpoint lacks weights as weight-mismatch", () => {
    expect(
      diagnose('sglang', [
        "ValueError: load_weights failed because some weights are missing: missing_exclude_scales={'model.layers.5.pre_moe_norm.weight'}",
      ]).class,
    ).toBe('weight-mismatch');
  });

  it("reads the Hub refusing a model id's shape as a model that cannot be found", () => {
    expect(
      diagnose('sglang', [
        "huggingface_hub.errors.HFValidationError: Cannot have -- or .. in repo_id: 'alvarobartt--grok-2-tokenizer'.",
      ]).class,
    ).toBe('model-not-found-or-auth');
  });

  it("reads a CUDA compiler that refuses a build's option, and ninja stopping, as a toolchain that does not fit", () => {
    const nvcc = diagnose('auto', [
      "nvcc fatal   : Unknown option '-generate-dependencies-with-compile'",
      'ninja: build stopped: subcommand failed.',
    ]);
    expect(nvcc.class).toBe('dependency');
    expect(nvcc.summary).toContain('-generate-dependencies-with-compile');
    expect(diagnose('auto', ['ninja: build stopped: subcommand failed.']).class).toBe('dependency');
  });

  it("reads early SGLang's unsupported architecture as the server having no class for the checkpoint", () => {
    expect(
      diagnose('auto', [
        "ValueError: Unsupported architectures: Phi3ForCausalLM. Supported list: ['CohereForCausalLM', 'LlamaForCausalLM']",
      ]).class,
    ).toBe('weight-mismatch');
  });

  it('reads a log that ends in a traceback frame a paste wrapped as a failure, not a hang', () => {
    const prefix = '(VllmWorker rank=0 pid=20455) ERROR 07-08 15:41:43 [multiproc_executor.py:487] ';
    const result = diagnose('vllm', [
      `${prefix}  File "/usr/lib/python3/site-packages/vllm/model_executor/models/deepseek_v2.py", l`,
      `${prefix}ine 743, in __init__`,
      `${prefix}    assert isinstance(layer, DeepseekV2DecoderLayer)`,
    ]);
    expect(result.class).toBe('unknown');
    expect(result.summary).toMatch(/ends inside a traceback/);
  });

  it('reads PTX built by a newer CUDA toolkit than the driver loads as a driver that is too old', () => {
    const result = diagnose('auto', [
      "(EngineCore_DP0 pid=2421703) RuntimeError: Worker failed with error 'CUDA error: the provided PTX was compiled with an unsupported toolchain.",
    ]);
    expect(result.class).toBe('dependency');
    expect(result.summary).toContain('unsupported toolchain');
  });

  it("reads an unnamed error while vLLM reads the model's config files as the model's files, not a rejected setting", () => {
    const frames = [
      'Traceback (most recent call last):',
      '  File "/env/lib/python3.10/site-packages/vllm/engine/arg_utils.py", line 1206, in create_engine_config',
      '    model_config = self.create_model_config()',
      '  File "/env/lib/python3.10/site-packages/vllm/config.py", line 333, in __init__',
      '    hf_config = get_config(self.hf_config_path or self.model,',
    ];
    const reading = diagnose('vllm', [
      ...frames,
      '  File "/env/lib/python3.10/site-packages/vllm/transformers_utils/config.py", line 623, in load_params_config',
      '    assert isinstance(config_dict, dict)',
      'AssertionError',
    ]);
    expect(reading.class).toBe('model-not-found-or-auth');
    expect(reading.summary).toMatch(/could not read the model's configuration files/);
    // The engine config's own check above it still rejects a setting.
    expect(diagnose('vllm', [...frames.slice(0, 3), 'AssertionError']).class).toBe('invalid-value');
  });

  it("reads an unnamed KeyError, IndexError or assertion while a model class takes the checkpoint's tensors as weight-mismatch", () => {
    const vllmFrames = [
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3/dist-packages/vllm/model_executor/models/utils.py", line 241, in _load_module',
      '    yield from self._load_module(prefix, child_modules[child_prefix], child_weights)',
    ];
    const bare = diagnose('vllm', [...vllmFrames, 'AssertionError']);
    expect(bare.class).toBe('weight-mismatch');
    expect(bare.summary).toMatch(/could not take the checkpoint's tensors/);
    expect(diagnose('vllm', [...vllmFrames, 'IndexError: list index out of range']).class).toBe(
      'weight-mismatch',
    );
    const sglangFrames = [
      'Traceback (most recent call last):',
      '  File "/sgl-workspace/sglang/python/sglang/srt/models/qwen2.py", line 398, in load_weights',
      '    weight_loader(param, loaded_weight, shard_id)',
    ];
    expect(diagnose('sglang', [...sglangFrames, 'AssertionError']).class).toBe('weight-mismatch');
    // An assertion about the process groups, or an error of another kind, is not the checkpoint's.
    expect(
      diagnose('sglang', [...sglangFrames, 'AssertionError: tensor model parallel group is not initialized'])
        .class,
    ).not.toBe('weight-mismatch');
    expect(diagnose('vllm', [...vllmFrames, 'RuntimeError: CUDA driver error: unknown']).class).not.toBe(
      'weight-mismatch',
    );
  });

  it("reads vLLM ≤ 0.8.4's fatal signal from its workers as another process's failure, which any cause outranks", () => {
    const signalled = [
      'CRITICAL 04-17 03:28:36 [multiproc_executor.py:49] MulitprocExecutor got fatal signal from worker processes, shutting down. See stack trace above for root cause issue.',
      'CRITICAL 04-17 03:28:36 [core_client.py:359] Got fatal signal from worker processes, shutting down. See stack trace above for root cause issue.',
    ];
    const alone = diagnose('vllm', signalled);
    expect(alone.class).toBe('peer-rank-failed');
    expect(alone.summary).toMatch(/its own error is not in this log/);
    // The shell's word that the process was killed, below it, and a worker's own error, above it, say more.
    expect(diagnose('vllm', [...signalled, 'Killed']).class).toBe('killed');
    expect(
      diagnose('vllm', [
        '(VllmWorker rank=0 pid=9) ERROR 04-17 03:28:35 [multiproc_executor.py:370] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.',
        ...signalled,
      ]).class,
    ).toBe('cuda-oom');
  });

  it('reads GPUs given by UUID where the server reads indexes as a rejected value, also relayed by a subprocess', () => {
    const prefix = '(APIServer pid=1) ERROR 07-29 10:26:04 [registry.py:951] ';
    const result = diagnose('vllm', [
      `${prefix}Error in inspecting model architecture 'Qwen3_5MoeForConditionalGeneration'`,
      `${prefix}RuntimeError: Error raised in subprocess:`,
      `${prefix}ValueError: invalid literal for int() with base 10: 'GPU-d0f446cf-1771-414c-e116-a39138798a8c'`,
    ]);
    expect(result.class).toBe('invalid-value');
    expect(result.summary).toContain('CUDA_VISIBLE_DEVICES to GPU indexes');
    expect(diagnose('vllm', ["ValueError: invalid literal for int() with base 10: 'abc'"]).class).not.toBe(
      'invalid-value',
    );
  });

  it('reads a GPU too old for a quantization scheme or for FlashAttention as a setting this GPU cannot run', () => {
    const scheme = diagnose('vllm', [
      "ERROR 07-02 03:13:11 [engine.py:458] ('Quantization scheme is not supported for ', 'the current GPU. Min capability: 80. ', 'Current capability: 75.')",
    ]);
    expect(scheme.class).toBe('invalid-value');
    expect(scheme.summary).toContain('compute capability 80 (this GPU: 75)');
    expect(diagnose('vllm', ['RuntimeError: FlashAttention only supports Ampere GPUs or newer.']).class).toBe(
      'invalid-value',
    );
  });

  it('reads a model directory without tokenizer files as the model not found', () => {
    const result = diagnose('vllm', ['ValueError: No tokenizer file found in directory: /models/Qwen3-Omni']);
    expect(result.class).toBe('model-not-found-or-auth');
    expect(result.summary).toContain('/models/Qwen3-Omni');
  });

  it("reads SGLang refusing a client's request as too long as a server that took requests", () => {
    const result = diagnose('sglang', [
      "[2025-03-03 06:40:00] server_args=ServerArgs(model_path='m', tp_size=8)",
      '[2025-03-03 06:49:28 TP5] Input length (160062 tokens) exceeds the maximum allowed length (59862 tokens). Use a shorter input or enable --allow-auto-truncate.',
      '[2025-03-03 06:49:28 TP5] Scheduler hit an exception: Traceback (most recent call last):',
      "TypeError: '>' not supported between instances of 'NoneType' and 'int'",
    ]);
    expect(result.class).toBe('ready');
    expect(result.summary).toMatch(/took requests; later/);
  });

  it('reads a log cut right below an error the engine logged as a failure, not a hang', () => {
    const start = 'INFO 05-26 00:17:40 [api_server.py:1043] vLLM API server version 0.8.5';
    const atError = diagnose('vllm', [
      start,
      "ERROR 05-26 00:17:47 [engine.py:448] 'ColumnParallelLinear' object has no attribute 'input_scale'",
    ]);
    expect(atError.class).toBe('unknown');
    expect(atError.summary).toMatch(/ends at an error the engine logged \(line 2\)/);
    expect(atError.evidence.map((e) => e.line)).toContain(2);
    // An error line the server went on past (an info line follows) is no end: the log still stops in silence.
    const goneOn = diagnose('vllm', [
      start,
      'ERROR 05-26 00:17:47 [x.py:1] Failed to fetch the chat template, using the default',
      'INFO 05-26 00:17:48 [loader.py:1] Loading weights took 3.1 s',
    ]);
    expect(goneOn.class).toBe('hang');
  });

  it("reads vLLM's offline LLM rendering the prompts it was given as an engine that got through its start", () => {
    const result = diagnose('vllm', [
      'INFO 06-13 10:20:59 [core.py:310] init engine (profile, create kv cache, warmup model) took 125.94 s',
      'Rendering prompts:   0%|          | 0/1 [00:00<?, ?it/s]Traceback (most recent call last):',
      "TypeError: '>' not supported between instances of 'str' and 'int'",
    ]);
    expect(result.class).toBe('ready');
  });

  it("reads TGI's router sizing its batches after the warm-up as a start that got through", () => {
    const lines = [
      '2025-04-16T17:56:57.310651Z  INFO text_generation_router_v3: backends/v3/src/lib.rs:125: Warming up model',
      '2025-04-16T17:57:01.163878Z  INFO text_generation_router_v3: backends/v3/src/lib.rs:137: Setting max batch total tokens to 1069251',
    ];
    expect(diagnose('auto', lines).class).toBe('ready');
    expect(diagnose('auto', lines.slice(0, 1)).class).toBe('hang');
    // The line is TGI's alone: a paste that dropped every name is still read as TGI's.
    expect(diagnose('auto', ['Warming up model', 'Setting max batch total tokens to 30816']).class).toBe(
      'ready',
    );
  });

  it('reads a feature enabled that the model does not support as a refused setting', () => {
    expect(
      diagnose('vllm', [
        'ValueError: use_local_argmax_reduction is enabled but draft model Qwen4ExpMTP does not implement get_top_tokens().',
      ]).class,
    ).toBe('invalid-value');
  });

  it("reads an error with no class of its own inside torch.distributed's first calls as the distributed setup failing", () => {
    const result = diagnose('tgi', [
      'Traceback (most recent call last):',
      '  File "/opt/conda/lib/python3.9/site-packages/torch/distributed/distributed_c10d.py", line 3315, in barrier',
      '    work = default_pg.barrier(opts=opts)',
      'RuntimeError: CUDA error: operation not supported',
    ]);
    expect(result.class).toBe('nccl');
  });

  it('reads a device runtime refusing the number of devices as a parallel size that does not fit', () => {
    expect(
      diagnose('auto', [
        '2024-Jun-01 13:16:27.706192   273:485   ERROR   NRT:nrt_load_collectives                    Unsupported topology. Supported number of Neuron Cores is 1, 2, 8, 16 or a multiple of 32.  For other configurations, consider using i',
      ]).class,
    ).toBe('invalid-value');
  });

  it("reads TGI's launcher refusing to shard over more GPUs than it sees as a refused setting", () => {
    const result = diagnose('tgi', [
      'Error: NotEnoughCUDADevices("`sharded` is true but only found 1 CUDA devices")',
    ]);
    expect(result.class).toBe('invalid-value');
    expect(result.summary).toMatch(/more GPUs than it can see/);
  });

  it("reads a peer's connection closed after a rank's GPU fault as that fault, not the distributed layer", () => {
    const lines = [
      '[2025-11-03 11:17:11 DP0 TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=58.87 GB',
      'Memory access fault by GPU node-5 (Agent handle: 0xa7f1660) on address 0x7ef920870000. Reason: Unknown.',
      'Fatal Python error: Aborted',
      '[2025-11-03 11:42:10 DP6 TP6] Scheduler hit an exception: Traceback (most recent call last):',
      'RuntimeError: [/app/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [127.0.0.1]:11965',
      'Exception: Capture cuda graph failed: [/app/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [127.0.0.1]:11965',
    ];
    expect(diagnose('sglang', lines).class).toBe('killed');
    // Without the fault above it, the lost peer is all the log shows.
    expect(
      diagnose(
        'sglang',
        lines.filter((line) => !line.startsWith('Memory')),
      ).class,
    ).toBe('nccl');
  });

  it("reads an offline start after a failed server start by itself: the server's lines say nothing of it", () => {
    const server = [
      'INFO 08-08 15:50:00 [__init__.py:239] Automatically detected platform cuda.',
      "INFO 08-08 15:50:01 [cli_args.py:1] non-default args: {'model': '/m/Qwen3-8B'}",
      "INFO 08-08 15:50:03 [core.py:77] Initializing a V1 LLM engine (v0.10.0) with config: model='/m/Qwen3-8B'",
      'INFO 08-08 15:51:33 [default_loader.py:262] Loading weights took 85.91 seconds',
      'RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
    ];
    const offline = [
      'INFO 08-08 15:58:01 [__init__.py:239] Automatically detected platform cuda.',
      "INFO 08-08 15:58:03 [llm_engine.py:228] Initializing a V0 LLM engine (v0.10.0) with config: model='/m/Qwen3-8B'",
      'INFO 08-08 15:59:33 [default_loader.py:262] Loading weights took 85.91 seconds',
      'INFO 08-08 16:00:04 [llm_engine.py:424] init engine (profile, create kv cache, warmup model) took 30.12 seconds',
    ];
    expect(diagnose('auto', [...server, ...offline]).class).toBe('ready');
    expect(diagnose('auto', [server[1] ?? '', ...offline.slice(1)]).class).toBe('hang');
  });

  it('reads a program a build runs, missing from PATH, and CUDA that finds no driver, as a dependency', () => {
    expect(diagnose('auto', ["FileNotFoundError: [Errno 2] No such file or directory: 'ninja'"]).class).toBe(
      'dependency',
    );
    // A model's file named bare is no program.
    expect(
      diagnose('auto', ["FileNotFoundError: [Errno 2] No such file or directory: 'config.json'"]).class,
    ).not.toBe('dependency');
    expect(
      diagnose('auto', ['RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.'])
        .class,
    ).toBe('dependency');
  });

  it("reads vLLM's usage-statistics thread failing as nothing: the start goes on without it", () => {
    const thread = [
      '(EngineCore pid=152) Exception in thread Thread-1 (_report_usage_worker):',
      '(EngineCore pid=152) Traceback (most recent call last):',
      '(EngineCore pid=152)   File "/usr/local/lib/python3.12/dist-packages/cpuinfo/cpuinfo.py", line 2762, in get_cpu_info',
      '(EngineCore pid=152) json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)',
    ];
    const start = [
      "(EngineCore pid=152) INFO 05-08 23:23:30 [core.py:77] Initializing a V1 LLM engine (v0.19.1) with config: model='m'",
      '(EngineCore pid=152) Loading safetensors using Fastsafetensor loader:   0% Completed | 0/1 [00:00<?, ?it/s]',
      ...thread,
      '(EngineCore pid=152) INFO 05-08 23:23:53 [default_loader.py:391] Loading weights took 10.77 seconds',
    ];
    expect(diagnose('vllm', start).class).toBe('hang');
    // Another thread's failure is read as any error.
    const other = start.map((line) => line.replace('_report_usage_worker', '_load_weights_worker'));
    expect(diagnose('vllm', other).class).toBe('unknown');
  });

  it("reads a notebook's own error after an offline start as the caller's, and a library's as the start's", () => {
    const start = [
      "INFO 08-08 15:58:03 [llm_engine.py:228] Initializing a V0 LLM engine (v0.10.0) with config: model='/m/Qwen3-8B'",
      'INFO 08-08 15:59:33 [default_loader.py:262] Loading weights took 85.91 seconds',
      'INFO 08-08 16:00:04 [llm_engine.py:424] init engine (profile, create kv cache, warmup model) took 30.12 seconds',
      '---------------------------------------------------------------------------',
      'AttributeError                            Traceback (most recent call last)',
      'Cell In[1], line 5',
      '      3 llm = LLM(model="/m/Qwen3-8B")',
      '----> 5 embeddings = llm.get_embeddings(["text"])',
    ];
    const error = "AttributeError: 'LLM' object has no attribute 'get_embeddings'";
    expect(diagnose('auto', [...start, '', error]).class).toBe('ready');
    const library = [
      'File /opt/conda/lib/python3.12/site-packages/vllm/entrypoints/llm.py:461, in LLM.generate(self, prompts)',
      '    460 def generate(self, prompts):',
      '--> 461     return self.engine.missing',
    ];
    expect(diagnose('auto', [...start, ...library, '', error]).class).toBe('unknown');
    // Before the start got through, the cell's error is the start's.
    expect(diagnose('auto', [...start.slice(0, 2), ...start.slice(3), '', error]).class).not.toBe('ready');
  });

  it('reads a bind failure as the end of the start, whatever ready line follows (a warm-up answered by another server)', () => {
    const result = diagnose('sglang', [
      "[2024-12-21 21:57:29] server_args=ServerArgs(model_path='m', port=30000)",
      '[2024-12-21 22:42:31 TP0] max_total_num_tokens=39026, max_prefill_tokens=16384, max_running_requests=2049, context_len=131072',
      '[2024-12-21 22:42:34] INFO:     Application startup complete.',
      "[2024-12-21 22:42:34] ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 30000): address already in use",
      '[2024-12-21 22:42:34] INFO:     Application shutdown complete.',
      '[2024-12-21 22:42:40] The server is fired up and ready to roll!',
    ]);
    expect(result.class).toBe('port-in-use');
  });

  it('reads a port the engine then replaces as no failure: the start goes on', () => {
    const start = [
      "[2025-09-11 10:25:40] server_args=ServerArgs(model_path='m', port=30000)",
      '[2025-09-11 10:25:41] Port 30000 is already in use, trying port 30001',
      'INFO 01-01 00:00:01 [parallel.py:1] Address already in use. Retrying with a new port.',
      '[2025-09-11 10:25:43 TP0] Load weight begin. avail mem=77.43 GB',
    ];
    expect(diagnose('sglang', start).class).toBe('hang');
    expect(
      diagnose('sglang', [...start, '[2025-09-11 10:26:05] The server is fired up and ready to roll!']).class,
    ).toBe('ready');
  });

  it("reads SGLang's decode metrics of a hybrid model (#full token) in an excerpt as a server at work", () => {
    const line =
      '[2026-07-14 10:40:24] Decode batch, #running-req: 2, #full token: 21312, full token usage: 0.01, mamba num: 8, mamba usage: 0.05, accept len: 3.36, cuda graph: True, gen throughput (token/s): 551.63, #queue-req: 0';
    const crash = ['[2026-07-14 10:40:24] Scheduler hit an exception: Traceback (most recent call last):'];
    expect(diagnose('sglang', [line, ...crash]).class).toBe('ready');
    expect(diagnose('sglang', [line.replace('#full token', '#tokens in flight'), ...crash]).class).not.toBe(
      'ready',
    );
  });

  it("reads a launcher's word that its servers are ready, with no URL, as a start that got through", () => {
    const start = [
      '[2026-04-12 23:05:12] No HuggingFace chat template found',
      'Capturing batches (bs=256 avail_mem=7.05 GB):   3%|▎         | 1/36 [00:22<13:22, 22.92s/it]',
      '(AReaL) 20260412-23:05:58.956 [RemoteInfEngine Rank 0] INFO: Waiting for server ready...',
    ];
    const stop = [
      '[2026-04-12 23:09:56] SIGTERM received. signum=None frame=None. Draining requests and shutting down...',
    ];
    const said = '(AReaL) 20260412-23:05:59.958 [RemoteInfEngine Rank 0] INFO: Servers are all ready!';
    expect(diagnose('sglang', [...start, said, ...stop]).class).toBe('ready');
    expect(diagnose('sglang', [...start, ...stop]).class).toBe('hang');
    expect(
      diagnose('sglang', [...start, 'INFO: Waiting until the server is ready to serve', ...stop]).class,
    ).toBe('hang');
    expect(diagnose('sglang', [...start, '✓ SGLang server is up and running!', ...stop]).class).toBe('ready');
    expect(diagnose('sglang', [...start, 'Checking if server is up and running', ...stop]).class).toBe(
      'hang',
    );
  });

  it("reads NVIDIA Dynamo's word that it registered the model and lets queued requests through as a start that got through", () => {
    const start = [
      '[2026-07-05 19:40:12 DP1 TP1 EP1] Load weight end. elapsed=61.2 s, type=DeepseekV4ForCausalLM, avail mem=31.2 GB',
      '[2026-07-05 19:45:29.924] Successfully registered LLM with runtime config',
    ];
    const crash = [
      '[2026-07-05 19:49:44.257 DP1 TP1 EP1] Scheduler hit an exception: Traceback (most recent call last):',
      'torch.AcceleratorError: CUDA error: an illegal memory access was encountered',
    ];
    const said = '[2026-07-05 19:45:29.924] Model registration succeeded; processing queued requests';
    expect(diagnose('sglang', [...start, said, ...crash]).class).toBe('ready');
    expect(diagnose('sglang', [...start, ...crash]).class).toBe('unknown');
  });

  it("reads Ctrl-C's echo and a child ended by SIGINT as a stop asked for, SIGTERM or SIGKILL as a kill", () => {
    const start = [
      'INFO 09-23 17:49:48 llm_engine.py:184] Initializing an LLM engine (v0.5.5) with config: model=m',
      'INFO 09-23 17:49:51 custom_all_reduce_utils.py:203] generating GPU P2P access cache in /tmp/p2p.json',
    ];
    const child = (signal: string): string =>
      `subprocess.CalledProcessError: Command '['python', 'custom_all_reduce_utils.py']' died with <Signals.${signal}>.`;
    const echoed = diagnose('vllm', [
      ...start,
      '^CINFO 09-23 17:54:16 multiproc_worker_utils.py:136] Terminating local vLLM worker processes',
      'RuntimeError: worker died',
    ]);
    expect(echoed.class).toBe('hang');
    expect(echoed.summary).toMatch(/stopped as asked \(line 3\)/);
    expect(diagnose('vllm', [...start, child('SIGINT: 2')]).class).toBe('hang');
    expect(diagnose('vllm', [...start, child('SIGTERM: 15')]).class).toBe('killed');
    expect(diagnose('vllm', [...start, child('SIGKILL: 9')]).class).toBe('killed');
    // A caret that is not the echo at the start of the line is no stop.
    expect(diagnose('vllm', [...start, 'ValueError: x ^C', 'RuntimeError: worker died']).class).not.toBe(
      'hang',
    );
  });

  it('reads torch without CUDA, and a call whose arguments the installed release takes otherwise, as a dependency', () => {
    const start =
      'INFO 05-07 05:58:40 [core.py:58] Initializing a V1 LLM engine (v0.8.5) with config: model=m';
    const torch = diagnose('vllm', [
      start,
      'ERROR 05-07 05:58:46 core.py:291] AssertionError: Torch not compiled with CUDA enabled',
    ]);
    expect(torch.class).toBe('dependency');
    expect(torch.summary).toMatch(/torch was built without CUDA/);
    const call = diagnose('vllm', [
      start,
      "(EngineCore_DP0 pid=3491) ERROR 09-23 22:24:13 [core.py:708] TypeError: get_attn_backend() got multiple values for argument 'use_mla'",
    ]);
    expect(call.class).toBe('dependency');
    expect(call.summary).toMatch(/get_attn_backend\(use_mla=…\)/);
  });

  it("reads the newest releases' own words for memory, packages and dropped architectures", () => {
    const sglang = (message: string) =>
      diagnose('sglang', [
        '[2026-01-01 00:00:00 TP0] Load weight end. type=X, dtype=torch.bfloat16, avail mem=10.00 GB, mem usage=60.00 GB.',
        message,
      ]);
    const kv = sglang(
      'ValueError: Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.85. Raise --mem-fraction-static above 0.904 (minimum viable = 1 - available/pre = 0.9039).',
    );
    expect(kv.class).toBe('cuda-oom');
    expect(kv.summary).toMatch(/no GPU memory for the KV cache under --mem-fraction-static=0\.85/);
    expect(
      sglang('AssertionError: Not enough space for mamba cache, try to increase --mamba-full-memory-ratio.')
        .class,
    ).toBe('cuda-oom');
    expect(
      sglang('RuntimeError: int8 mamba checkpoint pool needs ~9GB but only 3GB HBM is free. Lower --x.')
        .class,
    ).toBe('cuda-oom');
    expect(
      sglang(
        "ValueError: --enable-http2 requires the 'granian' package. Install it with: pip install granian",
      ).class,
    ).toBe('dependency');
    expect(
      sglang(
        'RuntimeError: --enable-metrics requires smg-grpc-servicer ≥ 0.5.3 (the version that accepts it)',
      ).class,
    ).toBe('dependency');
    // A setting's name or another option after `requires` is a setting, not a package.
    expect(
      sglang('ValueError: DFlash layer selection requires num_target_layers >= 4. Got num_target_layers=2.')
        .class,
    ).not.toBe('dependency');
    expect(sglang('ValueError: --x requires --pp-size >= 2').class).toBe('invalid-value');
    const dropped = diagnose('vllm', [
      'INFO 01-01 00:00:00 [utils.py:1] non-default args: {}',
      'ValueError: Model architecture MPTForCausalLM was supported in vLLM until v0.10.2, and is not supported anymore.',
    ]);
    expect(dropped.class).toBe('weight-mismatch');
    expect(dropped.summary).toMatch(/MPTForCausalLM/);
    const vllm = (message: string) =>
      diagnose('vllm', ['INFO 01-01 00:00:00 [utils.py:1] non-default args: {}', message]);
    const world = vllm(
      'ValueError: World size (8) is larger than the number of available GPUs (4) in this node. If this is intentional and you are using:',
    );
    expect(world.class).toBe('invalid-value');
    expect(world.summary).toMatch(/8 ranks, 4 GPUs/);
    expect(
      vllm(
        "ValueError: Unrecognized distributed executor backend rayy. Supported values are 'ray', 'mp' 'uni', 'external_launcher'.",
      ).class,
    ).toBe('invalid-value');
  });

  it("reads TGI's shard refusing a model folder without weights, a model type, and its settings", () => {
    const tgi = (message: string) =>
      diagnose('tgi', [
        '2025-01-01T00:00:00.000000Z  INFO text_generation_launcher: Starting shard rank=0',
        `2025-01-01T00:00:05.000000Z ERROR text_generation_launcher: Error when initializing model`,
        message,
      ]);
    expect(
      tgi('FileNotFoundError: No local weights found in /data/m with extension .safetensors').class,
    ).toBe('model-not-found-or-auth');
    expect(tgi('ValueError: Unsupported model type qwen4').class).toBe('weight-mismatch');
    expect(tgi('RuntimeError: Unknown dtype float7').class).toBe('invalid-value');
    expect(
      tgi(
        'RuntimeError: Speculate is set to `4` but this medusa models only has `3` heads, please make them match',
      ).class,
    ).toBe('invalid-value');
  });

  it("reads a CUDA error NCCL's watchdog relays as the GPU's failure, in its step; NCCL's own errors stay nccl", () => {
    const relayed = (error: string) => [
      `[rank0]:[E520 03:47:04.619668070 ProcessGroupNCCL.cpp:1896] [PG ID 2 PG GUID 3 Rank 0] Process group watchdog thread terminated with exception: ${error}`,
      "terminate called after throwing an instance of 'c10::DistBackendError'",
      `  what():  [PG ID 2 PG GUID 3 Rank 0] Process group watchdog thread terminated with exception: ${error}`,
      'Fatal Python error: Aborted',
    ];
    const start = [
      '[2025-01-29 10:00:00 TP0] Load weight end. type=DeepseekV2ForCausalLM, dtype=torch.bfloat16, avail mem=30.00 GB',
    ];
    const ecc = diagnose('sglang', [...start, ...relayed('CUDA error: uncorrectable ECC error encountered')]);
    expect(ecc.class).toBe('unknown');
    expect(ecc.summary).toMatch(/watchdog relayed it: uncorrectable ECC error/);
    const capturing =
      '[2025-01-29 10:00:05 TP0] Capture cuda graph begin. This can take up to several minutes.';
    expect(
      diagnose('sglang', [...start, capturing, ...relayed('CUDA error: uncorrectable ECC error encountered')])
        .class,
    ).toBe('graph-capture-failed');
    expect(diagnose('sglang', [...start, ...relayed('NCCL error: unhandled system error')]).class).toBe(
      'nccl',
    );
  });

  it("reads pytest's failure report: the exception's lines behind its `E` margin", () => {
    const lines = [
      'INFO 05-01 00:00:00 [llm_engine.py:1] Initializing an LLM engine (v0.8.5) with config: model=m',
      "INFO 05-01 00:00:10 [model_runner.py:1513] Capturing cudagraphs for decoding. This may lead to unexpected consequences if the model is not static. To run the model in eager mode, set 'enforce_eager=True' or use '--enforce-eager' in the CLI.",
      'Capturing CUDA graph shapes:   0%|          | 0/35 [00:00<?, ?it/s]',
      '>       return torch.cat(tuple(_flatten_embeddings(t) for t in embeddings))',
      'E       RuntimeError: torch.cat(): expected a non-empty list of Tensors',
      '',
      '../vllm/model_executor/models/utils.py:363: RuntimeError',
    ];
    const result = diagnose('vllm', lines);
    expect(result.class).toBe('graph-capture-failed');
    expect(result.evidence.map((e) => e.line)).toContain(5);
    // Without the margin's spaces it is no marker: a word that starts a line stays as it is.
    expect(diagnose('vllm', [...lines.slice(0, 3), 'E RuntimeError: x']).class).toBe('hang');
  });

  it("reads SGLang's prefill step beside running or queued requests, in an excerpt, as a server at work", () => {
    const crash = [
      '[2025-06-06 10:23:37 TP1] Scheduler hit an exception: Traceback (most recent call last):',
      'TypeError: expected Tensor as element 1 in argument 0, but got NoneType',
    ];
    const prefill = (running: number, queued: number): string =>
      `[2025-06-06 10:23:32 TP0] Prefill batch. #new-seq: 2, #new-token: 8191, #cached-token: 0, token usage: 0.01, #running-req: ${String(running)}, #queue-req: ${String(queued)}`;
    expect(diagnose('sglang', [prefill(1, 7), ...crash]).class).toBe('ready');
    expect(diagnose('sglang', [prefill(0, 3), ...crash]).class).toBe('ready');
    // The warm-up's one request per rank: nothing beside it, so nothing shows clients.
    expect(diagnose('sglang', [prefill(0, 0), ...crash]).class).toBe('unknown');
  });

  it("reads a GPU kernel's device-side assertion as the failure, in the step it broke", () => {
    const assertion =
      '/root/.cache/vllm/torch_compile_cache/x/inductor_cache/se/cse.py:62: unknown: block: [486,0,0], thread: [8,0,0] Assertion `index out of bounds: 0 <= tmp34 < 131072` failed.';
    const start = [
      '(VllmWorker rank=0 pid=1) INFO 04-29 11:48:12 [backends.py:136] Cache the graph of shape None for later use',
      '(VllmWorker rank=0 pid=1) INFO 04-29 11:49:02 [backends.py:148] Compiling a graph for general shape takes 53.29 s',
    ];
    const result = diagnose('vllm', [...start, assertion]);
    expect(result.class).toBe('unknown');
    expect(result.summary).toMatch(/kernel's assertion failed: index out of bounds/);
    expect(diagnose('vllm', start).class).toBe('hang');
  });

  it('reads an exception of a compiled binding or a private class (a module path, then a lower-case or _ name)', () => {
    const result = diagnose('sglang', [
      '[2026-06-08 10:49:50 DP0 TP0] Scheduler hit an exception: Traceback (most recent call last):',
      '  File "/usr/local/lib/python3.12/dist-packages/nixl_cu13/_api.py", line 392, in register_memory',
      'nixl_cu13._bindings.nixlBackendError: NIXL_ERR_BACKEND',
    ]);
    expect(result.summary).toMatch(/nixlBackendError: NIXL_ERR_BACKEND/);
    expect(result.evidence.map((e) => e.line)).toContain(3);
    expect(diagnose('vllm', ['grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC>']).summary).toMatch(
      /raised _InactiveRpcError/,
    );
    // Without a module path a lower-case word is no class: `someError: x` is not an exception's line.
    expect(diagnose('vllm', ['someError: x'], { exitCode: 1 }).summary).not.toMatch(/raised/);
  });

  it('reads a GPU runtime error a message relays after its own words, and a library set up without CUDA', () => {
    const relayed = diagnose('vllm', [
      'WARNING 11-21 19:46:53 model_runner_base.py:143] Failed to pickle inputs of failed execution: CUDA error: an illegal memory access was encountered',
      'ERROR 11-21 19:46:53 engine.py:366] Error in model execution: CUDA error: an illegal memory access was encountered',
      'ERROR 11-21 19:46:53 engine.py:366] For debugging consider passing CUDA_LAUNCH_BLOCKING=1',
    ]);
    expect(relayed.class).toBe('unknown');
    expect(relayed.summary).toMatch(/GPU runtime call failed: an illegal memory access/);
    expect(relayed.evidence.map((e) => e.line)).toContain(2);
    const ucx = diagnose('sglang', [
      'E0608 10:49:50.145396     474 ucx_utils.cpp:592] VRAM memory is detected as host by UCX. UCX is likely not configured with CUDA support. VRAM registration cannot proceed.',
      '[2026-06-08 10:49:50 DP0 TP0] Scheduler hit an exception: Traceback (most recent call last):',
      'nixl_cu13._bindings.nixlBackendError: NIXL_ERR_BACKEND',
    ]);
    expect(ucx.class).toBe('dependency');
    expect(ucx.summary).toMatch(/UCX was built or set up without CUDA support/);
    // SGLang's probe of the device survives torch without CUDA: no cause.
    const probe = diagnose('sglang', [
      'Failed to get device capability: nvcc not found and PyTorch is not built with CUDA support. Could not determine CUDA version..',
      '[2026-01-01 00:00:00] server_args=ServerArgs(model_path=m)',
    ]);
    expect(probe.class).toBe('hang');
  });

  it('reads an OS error a program reports in its own words as the failure; a named exception outranks it', () => {
    const quota = diagnose('vllm', [
      "INFO 04-16 16:11:57 [weight_utils.py:265] Using model weights format ['*.bin']",
      'LLM init error: [Errno 122] Disk quota exceeded',
      'INFO 04-16 16:11:58 [multiproc_worker_utils.py:137] Terminating local vLLM worker processes',
    ]);
    expect(quota.class).toBe('unknown');
    expect(quota.summary).toMatch(/operating-system error: Disk quota exceeded \(errno 122\)/);
    const named = diagnose('vllm', ['OSError: [Errno 28] No space left on device']);
    expect(named.summary).toMatch(/raised OSError/);
  });

  it("reads a serving wrapper's worker saying the engine it wraps is built as a start that got through", () => {
    const lines = [
      'INFO 08-15 01:24:21 [__init__.py:235] Automatically detected platform cuda.',
      '2025-08-15T01:24:35.555894Z  INFO parallel_state.initialize_model_parallel: rank 0 in world size 1 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0',
    ];
    const up = diagnose('auto', [
      ...lines,
      '2025-08-15T01:25:36.139394Z  INFO main.setup_vllm_engine: VllmWorker for /model/cache/Qwen3-0.6B/ has been initialized',
    ]);
    expect(up.class).toBe('ready');
    expect(diagnose('auto', lines).class).toBe('hang');
    // Another part being initialised says nothing of the engine.
    expect(diagnose('auto', [...lines, 'INFO: Distributed environment has been initialized']).class).toBe(
      'hang',
    );
  });

  it("says where an unnamed error broke in vLLM's memory-profiling run; a capture above it, or an error's own class, decides", () => {
    const frame = (fn: string, line: number) =>
      `  File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line ${String(line)}, in ${fn}`;
    const traceback = (...frames: string[]) => ['Traceback (most recent call last):', ...frames];
    const unnamed =
      "RuntimeError: Error in function 'BatchPrefillWithPagedKVCacheDispatched': Unsupported max_mma_kv: 0";
    const profiled = diagnose('vllm', [
      ...traceback(frame('profile_run', 2431), frame('_dummy_run', 2177)),
      unnamed,
    ]);
    expect(profiled.class).toBe('unknown');
    expect(profiled.summary).toMatch(
      /^the model's first forward pass failed \(vLLM's memory-profiling run .*BatchPrefill/,
    );
    const captured = diagnose('vllm', [
      ...traceback(frame('capture_model', 2871), frame('_dummy_run', 2177)),
      unnamed,
    ]);
    expect(captured.class).toBe('graph-capture-failed');
    const oom = diagnose('vllm', [
      ...traceback(frame('profile_run', 2431)),
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.1 GiB',
    ]);
    expect(oom.class).toBe('cuda-oom');
    expect(oom.summary).not.toMatch(/first forward pass/);
    // Without the frame, the same error says nothing of a step.
    expect(diagnose('vllm', [unnamed]).summary).not.toMatch(/first forward pass/);
    // A frame that only says where never changes a class: a kernel build that fails while the capture phase runs
    // (its bar, no capture frame) is a capture failure, whatever run the traceback passes through.
    const building = diagnose('vllm', [
      'Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):  10%|█         | 5/51 [00:01<00:10,  4.2it/s]',
      ...traceback(frame('_dummy_run', 2177)),
      "subprocess.CalledProcessError: Command '['ninja', '-v', '-C', '/root/.cache/flashinfer/86/cached_ops']' returned non-zero exit status 1.",
    ]);
    expect(building.class).toBe('graph-capture-failed');
  });

  it('knows vLLM by its process tags when a terminal coloured them, or a page kept the colour codes without escape', () => {
    const tagged = (open: string, close: string) => [
      `${open}(EngineCore_DP0 pid=1767586)${close} Loading safetensors checkpoint shards: 100% Completed | 8/8 [00:27<00:00,  3.48s/it]`,
      `${open}(APIServer pid=1767513)${close} INFO:     Started server process [1767513]`,
      `${open}(APIServer pid=1767513)${close} INFO:     Application startup complete.`,
    ];
    for (const [open, close] of [
      ['\u001b[0;36m', '\u001b[0;0m'],
      ['\u001b[1;36m', '\u001b[0m'],
      ['^[[1;36m', '^[[0;0m'],
      ['[server] \u001b[1;36m', '\u001b[0;0m'],
      ['    ', ''],
      ['', ''],
    ])
      expect(diagnose('auto', tagged(open ?? '', close ?? '')).class).toBe('ready');
    const guess = createEngineGuess();
    guess.observe('\u001b[0;36m(APIServer pid=1)\u001b[0;0m INFO:     Waiting for application startup.');
    expect(guess.best()).toBe('vllm');
  });
});

const createDiagnoserFor = (engineVersion: string, lines: string[]) => {
  const diagnoser = createDiagnoser({ engine: 'sglang', engineVersion });
  lines.forEach((text, i) => {
    diagnoser.push({ line: i + 1, text });
  });
  return diagnoser.finish({ exitCode: 1 });
};
