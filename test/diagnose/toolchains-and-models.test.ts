// Shapes read from logs never seen before they were written: kernels built at run time that do not compile, a
// compiler or runtime without the hardware's target, model classes and processors a release lacks, a setting named
// by its field, and a paste of nothing but the web server's start lines.
import { describe, expect, it } from 'vitest';
import { diagnoseLines } from './feed.ts';

describe('toolchains, devices and models a release lacks', () => {
  it("reads a run-time kernel build's compiler error as packages that do not fit, above the worker's death", () => {
    const result = diagnoseLines('auto', [
      "(EngineCore_DP0 pid=85932) ERROR 01-26 10:28:18 [patch_core.py:68] /usr/local/lib/python3.11/site-packages/torch_npu/include/torch_npu/csrc/framework/interface/AclOpCompileInterface.h:146:55: error: use of undeclared identifier 'aclOpExecutor'",
      '(EngineCore_DP0 pid=85932) ERROR 01-26 10:28:26 [multiproc_executor.py:231] Worker proc VllmWorker-0 died unexpectedly, shutting down executor.',
      '(APIServer pid=85820) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
    ]);
    expect(result.class).toBe('dependency');
    expect(result.evidence.map((e) => e.line)).toContain(1);
  });

  it("reads an LLVM-based kernel compiler without the chip's target as a toolkit older than the hardware", () => {
    const result = diagnoseLines('auto', [
      "bishengir-compile: for the --target option: Cannot find option named 'Ascend910B4-1'!",
    ]);
    expect(result.class).toBe('dependency');
    expect(result.summary).toContain('Ascend910B4-1');
  });

  it("reads a TPU runtime that cannot find the host's TPU topology as no usable device", () => {
    const line =
      'ERROR 03-24 14:29:42 [engine.py:448] RuntimeError: Bad StatusOr access: INTERNAL: Failed to get global TPU topology.';
    expect(diagnoseLines('auto', [line]).class).toBe('dependency');
    // A TPU another process holds is not that.
    expect(
      diagnoseLines('auto', [
        "RuntimeError: Unable to initialize backend 'tpu': ABORTED: The TPU is already in use by process with pid 773869.",
      ]).class,
    ).not.toBe('dependency');
  });

  it('reads a model class that serves other versions of the checkpoint, and a missing processor, as weight-mismatch', () => {
    expect(
      diagnoseLines('auto', ['ValueError: Currently, MiniCPMV only supports versions 2.0, 2.5, and 2.6'])
        .class,
    ).toBe('weight-mismatch');
    expect(
      diagnoseLines('sglang', [
        "ValueError: No processor registered for architecture: ['Phi4MMForCausalLM'].",
      ]).class,
    ).toBe('weight-mismatch');
  });

  it('reads a check that names the setting by its field and value as a refused setting', () => {
    const result = diagnoseLines('auto', [
      "AssertionError: Only {'trtllm_mha', 'triton', 'fa4'} backends are supported on Blackwell GPUs for hybrid GDN models. Got attention_backend=flashinfer.",
    ]);
    expect(result.class).toBe('invalid-value');
  });

  it("reads Triton's PTX assembler failing, and an InfiniBand verbs call failing, by what they are", () => {
    expect(
      diagnoseLines('auto', [
        '(EngineCore_DP0 pid=60) ERROR 01-12 01:09:14 [core.py:708] triton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error',
      ]).class,
    ).toBe('dependency');
    expect(
      diagnoseLines('auto', ['Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory']).class,
    ).toBe('nccl');
  });

  it('reads an operator package built for another Ascend chip as the install, and a device error by its CANN code', () => {
    const other = diagnoseLines('auto', [
      'INFO 09-03 08:14:33 [model_runner_v1.py:2114] Loading model weights took 14.2488 GB',
      '..[ERROR] the socversion Ascend910B1 of bin package does not match the current device socverison Ascend310P3. Please modify default socversion in run.sh or execute run.sh with socversion parameter.',
    ]);
    expect(other.class).toBe('dependency');
    expect(other.summary).toMatch(/Ascend910B1 .* Ascend310P3/);
    const device = diagnoseLines('auto', [
      'INFO 04-27 17:09:00 [model_runner.py:1110] Loading model weights took 26.8 GB',
      '[rank5]:[W427 17:10:59.487294155 compiler_depend.ts:57] Warning: EZ9999: Inner Error!',
      'EZ9999: [PID: 326600] 2025-04-27-17:10:32.990.354 The error from device(chipId:5, dieId:0), serial number is 3, there is an aivec error exception',
      '       rtStreamSynchronize execute failed, reason=[vector core timeout]',
    ]);
    expect(device.class).toBe('unknown');
    expect(device.summary).toMatch(/aivec error exception/);
  });

  it("reads Ascend's runtime log records by their level, and a failed call's error code above a worker's death", () => {
    const lines = [
      '[ERROR] RUNTIME(557,python3):2025-08-06-06:31:38.004.639 [api_c_device.cc:450]557 rtGetDevMsg:ErrCode=107002, desc=[context pointer null], InnerCode=0x7070001',
      '[ERROR] IDEDD(554,python3):2025-08-06-06:31:38.494.860 [adx_dsmi.cpp:54][tid:588] Get physical device number failed, err: 87',
      'ERROR 08-06 06:31:40 [core.py:586] Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.',
      'RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
    ];
    const result = diagnoseLines('auto', lines);
    expect(result.class).toBe('unknown');
    expect(result.summary).toMatch(/rtGetDevMsg failed with error 107002 \(context pointer null\)/);
    expect(result.evidence.map((e) => e.line)).toContain(1);
    // Without the runtime's record, the worker's own error is not in the log: another process failed.
    expect(diagnoseLines('auto', lines.slice(2)).class).toBe('peer-rank-failed');
  });

  it('gives an error of no class of its own the class of a compiled extension that did not load before it', () => {
    const warning =
      '(RayWorkerWrapper pid=527478) WARNING 11-05 13:27:54 [camem.py:63] Failed to import vllm_ascend_C:/usr/local/python3.11.13/lib/python3.11/site-packages/vllm_ascend/vllm_ascend_C.cpython-311-aarch64-linux-gnu.so: undefined symbol: _ZN2fe13PlatFormInfos4InitEv';
    const unnamed = 'ERROR 11-05 13:27:55 [core.py:515] AssertionError: camem allocator is not available';
    const result = diagnoseLines('auto', [warning, unnamed]);
    expect(result.class).toBe('dependency');
    expect(result.summary).toMatch(/compiled extension did not load.*camem allocator is not available/);
    expect(diagnoseLines('auto', [unnamed]).class).toBe('unknown');
    // An error with a class of its own keeps it.
    expect(
      diagnoseLines('auto', [
        warning,
        'ERROR 11-05 13:27:55 [core.py:515] torch.OutOfMemoryError: NPU out of memory. Tried to allocate 2.00 GiB',
      ]).class,
    ).toBe('cuda-oom');
  });

  it("reads Ascend's refusal of a device index past the visible ones as more ranks than devices", () => {
    const result = diagnoseLines('auto', [
      '(VllmWorkerProcess pid=1817) ERROR 07-01 22:45:31 [multiproc_worker_utils.py:239] RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:146 NPU function error: c10_npu::SetDevice(device_id_), error code is 107001',
      '(VllmWorkerProcess pid=1817) ERROR 07-01 22:45:31 [multiproc_worker_utils.py:239] [ERROR] 2025-07-01-22:45:31 (PID:1817, Device:1, RankID:-1) ERR00100 PTA call acl api failed',
      '(VllmWorkerProcess pid=1817) ERROR 07-01 22:45:31 [multiproc_worker_utils.py:239] EE1001: [PID: 1817] 2025-07-01-22:45:30.528.819 The argument is invalid.Reason: Set device failed, invalid device, set device=1, valid device range is [0, 1)',
    ]);
    expect(result.class).toBe('invalid-value');
    expect(result.summary).toMatch(/ASCEND_RT_VISIBLE_DEVICES/);
  });

  it('reads a value outside the options a check lists as a setting, however the list is named', () => {
    expect(
      diagnoseLines('auto', [
        "ValueError: Unknown attention backend: 'ASCEND'. Valid options are: FLASH_ATTN, TRITON_ATTN, XFORMERS, TORCH_SDPA",
      ]).class,
    ).toBe('invalid-value');
    expect(diagnoseLines('auto', ["ValueError: Unknown attention backend: 'ASCEND'"]).class).toBe('unknown');
  });

  it("reads torch refusing a custom operator's parameter type as a torch older than the code", () => {
    const result = diagnoseLines('auto', [
      "ERROR 06-03 15:26:30 [core.py:489] ValueError: infer_schema(func): Parameter block_size has unsupported type list[int]. The valid types are: dict_keys([<class 'torch.Tensor'>, <class 'int'>])",
    ]);
    expect(result.class).toBe('dependency');
    expect(result.summary).toMatch(/block_size: list\[int\]/);
  });

  it("reads NVSHMEM's bare status line of its InfiniBand transport as a communication failure", () => {
    const result = diagnoseLines('auto', [
      'ibv_modify_qp failed ',
      '/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:1433: non-zero status: 7',
    ]);
    expect(result.class).toBe('nccl');
  });
});

describe('where an error broke, and a paste of the web server alone', () => {
  it("places an unnamed error by another rank's traceback the log ends inside", () => {
    const error = "NameError: name 'deep_gemm' is not defined";
    const otherRank = [
      '[2026-09-21 06:49:24 TP2] Scheduler hit an exception: Traceback (most recent call last):',
      '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1045, in init_all_cuda_graphs',
      '    self.tp_worker.init_cuda_graphs()',
      '  File "/sgl-workspace/sglang/python/sglang/srt/managers/tp_worker.py", line 443, in init_cuda_graphs',
      '    self.model_runner.init_cuda_graphs(',
    ];
    expect(diagnoseLines('auto', [error, '', ...otherRank]).class).toBe('graph-capture-failed');
    // Its own traceback below a report that names no error (a worker's header) is not another rank's.
    expect(diagnoseLines('auto', [error]).class).toBe('unknown');
  });

  it("reads a caller's word that the engine it built is loaded, with the time it took, as a start that got through", () => {
    const lines = [
      '(EngineCore pid=236) WARNING 06-06 15:02:43 [vllm.py:1058] Inductor compilation was disabled by user settings.',
      'vLLM Engine loaded in 140.8s',
    ];
    expect(diagnoseLines('auto', lines).class).toBe('ready');
    expect(diagnoseLines('auto', ['Loading engine...', lines[0] ?? '']).class).not.toBe('ready');
  });

  it("reads a serving wrapper's word that the engine did not start as the failure it quotes", () => {
    const result = diagnoseLines('auto', [
      'model.py:244] "[vllm] Failed to start engine: signal only works in main thread of the main interpreter"',
      'pb_stub.cc:366] "Failed to initialize Python stub: ValueError: signal only works in main thread of the main interpreter',
      '',
      'At:',
      '  /usr/lib/python3.12/signal.py(58): signal',
    ]);
    expect(result.class).toBe('unknown');
    expect(result.summary).toContain('signal only works in main thread');
  });

  it('reads a decode step that put several requests back in the queue as serving, in an excerpt without the start', () => {
    const crash = [
      'Fatal Python error: Segmentation fault',
      '',
      'Thread 0x00007f6b7bfff640 (most recent call first):',
    ];
    const retracted =
      '[2025-02-03 22:28:08 TP12] Decode out of memory happened. #retracted_reqs: 3, #new_token_ratio: 0.0980 -> 1.0000';
    expect(diagnoseLines('sglang', [retracted, ...crash]).class).toBe('ready');
    // One request retracted may be the warm-up's own.
    expect(
      diagnoseLines('sglang', [retracted.replace('#retracted_reqs: 3', '#retracted_reqs: 1'), ...crash])
        .class,
    ).not.toBe('ready');
  });

  it("reads a paste of nothing but uvicorn's start lines as a start that got through", () => {
    const uvicorn = [
      'INFO:     Started server process [22023]',
      'INFO:     Waiting for application startup.',
      'INFO:     Application startup complete.',
    ];
    expect(diagnoseLines('auto', uvicorn).class).toBe('ready');
    // With any line of the engine's own above them, the engine decides (SGLang warms up after them).
    expect(
      diagnoseLines('auto', [
        "[2026-01-01 00:00:00] server_args=ServerArgs(model_path='m', tp_size=1)",
        ...uvicorn,
      ]).class,
    ).toBe('hang');
  });
});

describe('checkpoints, tokenizers, settings and hubs', () => {
  it("reads a loaded tensor copied into a parameter of another shape, below the loader's frame, as weight-mismatch", () => {
    const frames = [
      'Traceback (most recent call last):',
      '  File "/sgl-workspace/sglang/python/sglang/srt/models/deepseek_v2.py", line 2099, in load_weights',
      '    weight_loader(',
      '  File "/sgl-workspace/sglang/python/sglang/srt/layers/moe/fused_moe_triton/layer.py", line 455, in _load_w13',
      '    expert_data.copy_(loaded_weight)',
    ];
    const error =
      'RuntimeError: The size of tensor a (3584) must match the size of tensor b (7168) at non-singleton dimension 1';
    expect(diagnoseLines('auto', [...frames, error]).class).toBe('weight-mismatch');
    // The same error in a forward pass is not the checkpoint's.
    expect(diagnoseLines('auto', [frames[0] ?? '', error]).class).toBe('unknown');
  });

  it('reads the engine naming architectures it does not support, also where the paste cut the list', () => {
    expect(diagnoseLines('auto', ['Unsupported architectures: LlamaModel']).class).toBe('weight-mismatch');
    // A checkpoint format's own list: GGUF's.
    const gguf = diagnoseLines('auto', [
      'ValueError: GGUF model with architecture olmo2 is not supported yet',
    ]);
    expect(gguf.class).toBe('weight-mismatch');
    expect(gguf.summary).toMatch(/olmo2/);
  });

  it("reads a model folder without a file of the model's own code as missing model files", () => {
    const result = diagnoseLines('auto', [
      "OSError: /data/coding/model-671b-MS/dir does not appear to have a file named configuration_deepseek.py. Checkout 'https://huggingface.co//data/coding/model-671b-MS/dir/tree/None' for available files.",
    ]);
    expect(result.class).toBe('model-not-found-or-auth');
  });

  it('reads transformers finding no tokenizer for the model config as missing model files', () => {
    const result = diagnoseLines('auto', [
      "ValueError: Unrecognized configuration class <class 'transformers_modules.DeepSeek-R1.configuration_deepseek.DeepseekV3Config'> to build an AutoTokenizer.",
    ]);
    expect(result.class).toBe('model-not-found-or-auth');
  });

  it("reads SGLang's context length above the model's, and its missing CUDA runtime", () => {
    const context = diagnoseLines('sglang', [
      "ValueError: User-specified context_length (128000) is greater than the derived context_length (32768). This may lead to incorrect model outputs or CUDA errors. Note that the derived context_length may differ from max_position_embeddings in the model'",
    ]);
    expect(context.class).toBe('invalid-value');
    expect(context.summary).toContain('--context-length 128000');
    expect(
      diagnoseLines('sglang', ['AssertionError: libcudart is not loaded in the current process']).class,
    ).toBe('dependency');
  });

  it('reads an assert that the tensor-parallel size divides a dimension, by its source line', () => {
    const result = diagnoseLines('auto', [
      '[rank0]:   File "/x/vllm/model_executor/models/llama.py", line 107, in __init__',
      '[rank0]:     assert self.total_num_kv_heads % tp_size == 0',
      '[rank0]: AssertionError',
    ]);
    expect(result.class).toBe('invalid-value');
    expect(result.summary).toContain('total_num_kv_heads');
  });

  it('reads an assert on the quantization method while layers are built as a quantization the model cannot take', () => {
    for (const source of ['    assert self.quant_method is not None', '    assert linear_method is None'])
      expect(
        diagnoseLines('auto', [
          '  File "/x/vllm/model_executor/layers/fused_moe/layer.py", line 186, in __init__',
          source,
          'AssertionError',
        ]).class,
      ).toBe('invalid-value');
  });

  it('reads the Hub unreachable for a file of the model as the model not found, and xFormers without CUDA kernels', () => {
    expect(
      diagnoseLines('auto', [
        "requests.exceptions.SSLError: (MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /TheBloke/Yi-34B-Chat-AWQ/resolve/main/config.json (Caused by SSLError(SSLEOFError(8, 'EOF')))\"))",
      ]).class,
    ).toBe('model-not-found-or-auth');
    expect(
      diagnoseLines('auto', [
        '[rank0]: NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:',
        "[rank0]:     xFormers wasn't build with CUDA support",
      ]).class,
    ).toBe('dependency');
  });
});

describe('a start relaunched into the same log after failing in its first phase', () => {
  it('reads the relaunch, not the failure before it', () => {
    const first = [
      'INFO 12-08 05:00:54 llm_engine.py:73] Initializing an LLM engine with config: model=m, tokenizer=m',
      "KeyError: 'transformer.h.0.attn.causal_mask'",
    ];
    const second = [
      '(APIServer pid=36082) INFO 11-06 16:17:14 [api_server.py:1839] vLLM API server version 0.11.0',
      '(APIServer pid=36082) INFO 11-06 16:17:15 [utils.py:233] non-default args: {}',
    ];
    expect(diagnoseLines('auto', first).class).toBe('weight-mismatch');
    expect(diagnoseLines('auto', [...first, ...second]).class).toBe('hang');
    // Without a failure before it, the same line is the same start going on.
    expect(diagnoseLines('auto', [first[0] ?? '', ...second, first[1] ?? '']).class).toBe('weight-mismatch');
  });
});
