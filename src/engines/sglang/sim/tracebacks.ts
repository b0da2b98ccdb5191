// The Python tracebacks SGLang prints for each failure, as line shapes taken from the fixture logs
// (file named above each). Frames keep the shape of Python 3.12 tracebacks from a pip-installed SGLang.

const PACKAGE = '/usr/local/lib/python3.12/dist-packages/sglang';

// One frame; `file` is relative to sglang/srt unless it starts with `/`.
const frame = (file: string, line: number, fn: string, code: string, caret?: string): string => {
  const path = file.startsWith('/') ? file : `${PACKAGE}/srt/${file}`;
  return `  File "${path}", line ${line}, in ${fn}\n    ${code}\n${caret === undefined ? '' : `    ${caret}\n`}`;
};

// A scheduler process building its model runner (sglang-other-02.log).
const SCHEDULER_INIT =
  frame(
    'managers/scheduler.py',
    2712,
    'run_scheduler_process',
    'scheduler = Scheduler(',
    '            ^^^^^^^^^^',
  ) +
  frame(
    'managers/scheduler.py',
    312,
    '__init__',
    'self.tp_worker = TpModelWorker(',
    '                 ^^^^^^^^^^^^^^',
  ) +
  frame(
    'managers/tp_worker.py',
    237,
    '__init__',
    'self._model_runner = ModelRunner(',
    '                     ^^^^^^^^^^^^',
  ) +
  frame('model_executor/model_runner.py', 324, '__init__', 'self.initialize(min_per_gpu_memory)');

const TRACEBACK = 'Traceback (most recent call last):\n';

// torch's OOM text (docs/engines/log-patterns.md, cuda-oom), sized for an 80 GB GPU.
export const torchOom = (gib: string, gpu: number): string =>
  `CUDA out of memory. Tried to allocate ${gib}. GPU ${gpu} has a total capacity of 79.25 GiB of which 301.56 MiB is free. Process 78729 has 78.94 GiB memory in use. Of the allocated memory 75.33 GiB is allocated by PyTorch, and 1.21 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)`;

// The list SGLang appends to `Capture cuda graph failed:` (sglang-other-01.log).
const CAPTURE_ADVICE = `Possible solutions:
1. set --mem-fraction-static to a smaller value (e.g., 0.8 or 0.7)
2. set --cuda-graph-max-bs to a smaller value (e.g., 16)
3. disable torch compile by not using --enable-torch-compile
4. disable CUDA graph by --disable-cuda-graph. (Not recommended. Huge performance loss)
Open an issue on GitHub https://github.com/sgl-project/sglang/issues/new/choose 
`;

// A failed capture, wrapped by SGLang's cuda_graph_runner (sglang-cuda-oom-01.log, sglang-other-01.log).
export const captureFailed = (cause: string): string =>
  TRACEBACK +
  SCHEDULER_INIT +
  frame('model_executor/model_runner.py', 431, 'initialize', 'self.init_device_graphs()') +
  frame(
    'model_executor/model_runner.py',
    1825,
    'init_device_graphs',
    'self.graph_runner = graph_runners[self.device](self)',
    '                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
  ) +
  frame('model_executor/cuda_graph_runner.py', 393, '__init__', 'raise Exception(') +
  `Exception: Capture cuda graph failed: ${cause}\n${CAPTURE_ADVICE}`;

// torch OOM while the weights load.
export const weightLoadOom = (): string =>
  TRACEBACK +
  SCHEDULER_INIT +
  frame('model_executor/model_runner.py', 410, 'initialize', 'self.load_model()') +
  frame(
    'model_executor/model_runner.py',
    832,
    'load_model',
    'self.model = get_model(',
    '             ^^^^^^^^^^',
  ) +
  frame('model_loader/loader.py', 437, 'load_model', 'self.load_weights_and_postprocess(') +
  `torch.OutOfMemoryError: ${torchOom('1.72 GiB', 0)}`;

// The KV pool does not fit (sglang#4330, quoted in docs/engines/log-patterns.md, cuda-oom).
export const kvCacheOom = (): string =>
  TRACEBACK +
  SCHEDULER_INIT +
  frame('model_executor/model_runner.py', 425, 'initialize', 'self.init_memory_pool(') +
  frame('model_executor/model_runner.py', 1502, 'init_memory_pool', 'raise RuntimeError(') +
  'RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.';

// NCCL failing in ncclCommInitRank during torch distributed init (sglang-nccl-01.log).
export const ncclError = (): string =>
  TRACEBACK +
  SCHEDULER_INIT +
  frame(
    'model_executor/model_runner.py',
    235,
    '__init__',
    'min_per_gpu_memory = self.init_torch_distributed()',
  ) +
  frame('model_executor/model_runner.py', 559, 'init_torch_distributed', 'initialize_model_parallel(') +
  frame(
    'distributed/parallel_state.py',
    1336,
    'initialize_model_parallel',
    '_TP = init_model_parallel_group(',
  ) +
  frame('distributed/parallel_state.py', 1124, 'init_model_parallel_group', 'return GroupCoordinator(') +
  frame('distributed/parallel_state.py', 280, '__init__', 'self.pynccl_comm = PyNcclCommunicator(') +
  frame(
    'distributed/device_communicators/pynccl.py',
    110,
    '__init__',
    'self.comm: ncclComm_t = self.nccl.ncclCommInitRank(',
  ) +
  frame('distributed/device_communicators/pynccl_wrapper.py', 375, 'ncclCommInitRank', 'self.NCCL_CHECK(') +
  frame(
    'distributed/device_communicators/pynccl_wrapper.py',
    350,
    'NCCL_CHECK',
    'raise RuntimeError(f"NCCL error: {error_str}")',
  ) +
  'RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)';

// An EAGLE-3 draft checkpoint whose keys the model class does not know (sglang-weight-mismatch-01.log).
export const draftKeyError = (): string =>
  TRACEBACK +
  SCHEDULER_INIT +
  frame('model_executor/model_runner.py', 410, 'initialize', 'self.load_model()') +
  frame('model_loader/loader.py', 437, 'load_model', 'self.load_weights_and_postprocess(') +
  frame('model_loader/loader.py', 445, 'load_weights_and_postprocess', 'model.load_weights(weights)') +
  frame('models/qwen3.py', 493, 'load_weights', 'param = params_dict[name]', '        ~~~~~~~~~~~^^^^^^') +
  "KeyError: 'midlayer.self_attn.qkv_proj.weight'";

// A rank that loaded its weights while a peer did not (sglang-other-02.log).
export const peerRankFailed = (rank: number): string =>
  TRACEBACK +
  SCHEDULER_INIT +
  frame('model_executor/model_runner.py', 410, 'initialize', 'self.load_model()') +
  frame('model_executor/model_runner.py', 849, 'load_model', 'raise ValueError(') +
  `ValueError: TP rank ${rank} could finish the model loading, but there are other ranks that didn't finish loading. It is likely due to unexpected failures (e.g., OOM) or a slow node.\n`;

// SGLang's launch-time package check, raised in the main process (sglang-dependency-01.log).
export const dependencyError = (): string =>
  TRACEBACK +
  '  File "<frozen runpy>", line 198, in _run_module_as_main\n' +
  '  File "<frozen runpy>", line 88, in _run_code\n' +
  frame(`${PACKAGE}/launch_server.py`, 24, '<module>', 'launch_server(server_args)') +
  frame(
    'entrypoints/http_server.py',
    1431,
    'launch_server',
    'tokenizer_manager, template_manager, scheduler_info = _launch_subprocesses(',
    '                                                      ^^^^^^^^^^^^^^^^^^^^^',
  ) +
  frame('entrypoints/engine.py', 812, '_launch_subprocesses', '_set_envs_and_config(server_args)') +
  frame('entrypoints/engine.py', 726, '_set_envs_and_config', 'assert_pkg_version(') +
  frame('utils/common.py', 1069, 'assert_pkg_version', 'raise Exception(') +
  'Exception: flashinfer_python is installed with version 0.6.3, which is less than the minimum required version 0.6.4. Please uninstall the old version and reinstall the latest version by following the instructions at https://docs.flashinfer.ai/installation.html.\n';

// The warmup request failing after uvicorn is up (docs/engines/log-patterns.md, other).
export const warmupError = (): string =>
  'Initialization failed. warmup error: ' +
  TRACEBACK +
  frame(
    'entrypoints/http_server.py',
    1655,
    '_execute_server_warmup',
    'assert res.status_code == 200, f"{res=}, {res.text=}"',
    '       ^^^^^^^^^^^^^^^^^^^^^^^',
  ) +
  "AssertionError: res=<Response [502]>, res.text=''\n";

// transformers refusing a gated repository (sglang-model-not-found-or-auth-01.log).
export const gatedRepoError = (model: string): string =>
  TRACEBACK +
  '  File "/usr/local/lib/python3.12/dist-packages/transformers/configuration_utils.py", line 721, in _get_config_dict\n' +
  '    resolved_config_file = cached_file(\n' +
  '                           ^^^^^^^^^^^^\n' +
  '  File "/usr/local/lib/python3.12/dist-packages/transformers/utils/hub.py", line 543, in cached_files\n' +
  '    raise OSError(\n' +
  'OSError: You are trying to access a gated repo.\n' +
  `Make sure to have access to it at https://huggingface.co/${model}.\n` +
  '401 Client Error. (Request ID: Root=1-695139c1-20c276683bbfa05022511a7b;379c2def-ca77-4fc6-9489-6fc1f7a44e40)\n\n' +
  `Cannot access gated repo for url https://huggingface.co/${model}/resolve/main/config.json.\n` +
  `Access to model ${model} is restricted. You must have access to it and be authenticated to access it. Please log in.\n`;
