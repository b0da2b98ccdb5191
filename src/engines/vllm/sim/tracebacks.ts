// The Python tracebacks vLLM prints for each failure, as line shapes taken from the fixture logs (named above
// each). Frames keep the shape of Python 3.12 tracebacks from a pip-installed vLLM.
import { torchOom } from '../../sglang/sim/tracebacks.ts';

const PACKAGE = '/usr/local/lib/python3.12/dist-packages/vllm';

const frame = (file: string, line: number, fn: string, code: string): string =>
  `  File "${PACKAGE}/${file}", line ${line}, in ${fn}\n    ${code}`;

const traceback = (...lines: string[]): string => ['Traceback (most recent call last):', ...lines].join('\n');

// The EngineCore process building its executor and worker (vllm-cuda-oom-03.log shape).
const ENGINE_INIT = [
  frame('v1/engine/core.py', 699, 'run_engine_core', 'engine_core = EngineCoreProc(*args, **kwargs)'),
  frame('v1/engine/core.py', 498, '__init__', 'super().__init__(vllm_config, executor_class, log_stats,'),
];

// What EngineCore logs with `EngineCore failed to start.` for each cause.
export const engineFailure = {
  weightOom: (): string =>
    traceback(
      ...ENGINE_INIT,
      frame('v1/engine/core.py', 83, '__init__', 'self.model_executor = executor_class(vllm_config)'),
      frame('v1/worker/gpu_model_runner.py', 2602, 'load_model', 'self.model = model_loader.load_model('),
      `torch.OutOfMemoryError: ${torchOom('1.72 GiB', 0)}`,
    ),
  // vllm-cuda-oom-03.log
  kvCacheOom: (): string =>
    traceback(
      ...ENGINE_INIT,
      frame('v1/engine/core.py', 92, '__init__', 'self._initialize_kv_caches(vllm_config)'),
      frame(
        'v1/core/kv_cache_utils.py',
        1243,
        'get_kv_cache_configs',
        'check_enough_kv_cache_memory(vllm_config, kv_cache_spec_one_worker,',
      ),
      frame(
        'v1/core/kv_cache_utils.py',
        699,
        'check_enough_kv_cache_memory',
        'raise ValueError("No available memory for the cache blocks. "',
      ),
      'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.',
    ),
  captureOom: (): string =>
    traceback(
      ...ENGINE_INIT,
      frame('v1/engine/core.py', 92, '__init__', 'self._initialize_kv_caches(vllm_config)'),
      frame('v1/worker/gpu_model_runner.py', 4244, 'capture_model', 'self._capture_cudagraphs('),
      `torch.OutOfMemoryError: ${torchOom('448.00 MiB', 0)}`,
    ),
  // vllm-weight-mismatch-01.log
  draftKeyError: (): string =>
    traceback(
      ...ENGINE_INIT,
      frame('v1/worker/gpu_model_runner.py', 2611, 'load_model', 'self.drafter.load_model(self.model)'),
      frame('model_executor/models/qwen2.py', 420, 'load_weights', 'param = params_dict[name]'),
      "KeyError: 'layers.0.self_attn.qkv_proj.weight'",
    ),
  // docs/engines/log-patterns.md, other: the wrapper EngineCore raises when a worker dies during startup.
  workerFailed: (): string =>
    traceback(
      ...ENGINE_INIT,
      frame(
        'v1/executor/multiproc_executor.py',
        129,
        '_init_executor',
        'self.workers = WorkerProc.wait_for_ready(unready_workers)',
      ),
      'Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.',
    ),
};

// vllm-nccl-01.log: a worker failing ncclCommInitRank.
export const workerNcclError = (): string =>
  [
    'WorkerProc failed to start.',
    traceback(
      frame('v1/executor/multiproc_executor.py', 461, 'worker_main', 'worker = WorkerProc(*args, **kwargs)'),
      frame(
        'distributed/device_communicators/pynccl.py',
        99,
        '__init__',
        'self.comm: ncclComm_t = self.nccl.ncclCommInitRank(',
      ),
      frame(
        'distributed/device_communicators/pynccl_wrapper.py',
        257,
        'NCCL_CHECK',
        'raise RuntimeError(f"NCCL error: {error_str}")',
      ),
      'RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)',
    ),
  ].join('\n');

// vllm-cuda-oom-04.log: the API server's own traceback once the engine core is gone (stderr, exit 1).
export const apiEngineFailed = (): string =>
  traceback(
    '  File "/usr/local/bin/vllm", line 10, in <module>',
    '    sys.exit(main())',
    frame('v1/engine/utils.py', 732, 'launch_core_engines', 'wait_for_engine_startup('),
    frame(
      'v1/engine/utils.py',
      785,
      'wait_for_engine_startup',
      'raise RuntimeError("Engine core initialization failed. "',
    ),
    '                       "See root cause above. "',
    '                       f"Failed core proc(s): {finished}")',
    'RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
  );

// vllm-model-not-found-or-auth-01.log (raised in the API server, stderr).
export const invalidRepository = (model: string): string =>
  traceback(
    '  File "/usr/local/bin/vllm", line 10, in <module>',
    '    sys.exit(main())',
    frame('transformers_utils/config.py', 537, 'get_config', 'raise ValueError('),
    `ValueError: Invalid repository ID or local directory specified: '${model}'.`,
    'Please verify the following requirements:',
    '1. Provide a valid Hugging Face repository ID.',
    '2. Specify a local directory that contains a recognized configuration file.',
    "   - For Hugging Face models: ensure the presence of a 'config.json'.",
    "   - For Mistral models: ensure the presence of a 'params.json'.",
  );

// vllm-invalid-value-01.log (raised in the API server while it builds the engine config, stderr).
export const invalidTensorParallel = (): string =>
  traceback(
    '  File "/usr/local/bin/vllm", line 10, in <module>',
    '    sys.exit(main())',
    frame('config/model.py', 1253, 'verify_with_parallel_config', 'raise ValueError('),
    'ValueError: Total number of attention heads (12) must be divisible by tensor parallel size (8).',
  );

// vllm-dependency-01.log: inspecting the model class in a subprocess dies importing vLLM's compiled ops; the
// registry wraps the subprocess's stderr (the real ImportError) in a RuntimeError and logs it.
export const inspectFailed = (architecture: string): string =>
  [
    `Error in inspecting model architecture '${architecture}'`,
    traceback(
      frame('model_executor/models/registry.py', 966, '_run_in_subprocess', 'returned.check_returncode()'),
      '  File "/usr/lib/python3.12/subprocess.py", line 502, in check_returncode',
      '    raise CalledProcessError(self.returncode, self.args, self.stdout,',
      "subprocess.CalledProcessError: Command '['/usr/bin/python3', '-m', 'vllm.model_executor.models.registry']' returned non-zero exit status 1.",
    ),
    '',
    'The above exception was the direct cause of the following exception:',
    '',
    traceback(
      frame(
        'model_executor/models/registry.py',
        968,
        '_run_in_subprocess',
        'raise RuntimeError(f"Error raised in subprocess:\\n"',
      ),
      'RuntimeError: Error raised in subprocess:',
    ),
    traceback(
      '  File "<frozen runpy>", line 189, in _run_module_as_main',
      `  File "${PACKAGE}/_custom_ops.py", line 14, in <module>`,
      '    import vllm._C',
      `ImportError: ${PACKAGE}/_C.abi3.so: undefined symbol: _Z20cutlass_moe_mm_sm100RN2at6TensorERKS0_S3_S3_S3_S3_S3_S3_S3_S3_bb`,
    ),
  ].join('\n');

// The API server giving up on the model after the failed inspection (stderr, exit 1).
export const inspectFailedFatal = (architecture: string): string =>
  traceback(
    '  File "/usr/local/bin/vllm", line 10, in <module>',
    '    sys.exit(main())',
    frame('model_executor/models/registry.py', 702, '_raise_for_unsupported', 'raise ValueError('),
    `ValueError: Model architectures ['${architecture}'] failed to be inspected. Please check the logs for more details.`,
  );
