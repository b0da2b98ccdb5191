// vLLM's own failure shapes (docs/engines/log-patterns.md); the advice that names vLLM's flags is in advice.ts.
import { CONFIG_CHECK_ERRORS, type Signature, weightLoadingFrame } from '../../diagnose/facts.ts';
import type { FrameContext, NoticeContext } from '../types.ts';

// Facts and summary of Ray's cluster short of the GPUs the ranks need, in either release's words.
const RAY_GPUS_SHORT: Pick<Signature, 'facts' | 'summary'> = {
  facts: () => ({ flag: '--tensor-parallel-size' }),
  summary: () =>
    'the ranks need more GPUs than the Ray cluster has: --tensor-parallel-size times --pipeline-parallel-size exceeds the GPUs available',
};

export const VLLM_SIGNATURES: readonly Signature[] = [
  {
    // --max-model-len above what the model's config allows (vLLM refuses unless told to override).
    id: 'vllm-max-model-len',
    class: 'invalid-value',
    weight: 95,
    needles: ['derived max_model_len'],
    pattern: /User-specified max_model_len \((\d+)\) is greater than the derived max_model_len/,
    releases: { since: '0.15.0' },
    samples: [
      "User-specified max_model_len (4096) is greater than the derived max_model_len (seq_length=2048 or model_max_length=None in model's config.json).",
    ],
    facts: (m) => ({ flag: '--max-model-len', value: m[1] ?? '' }),
    summary: (f) =>
      `--max-model-len ${f.value ?? ''} is longer than the model's own context length (from its config.json)`,
  },
  {
    // The model folder has neither config.json nor params.json: a wrong or incomplete path.
    id: 'vllm-no-config-file',
    class: 'model-not-found-or-auth',
    weight: 96,
    needles: ['Could not detect config format'],
    pattern: /Could not detect config format for no config file found/,
    releases: { since: '0.8.3' },
    samples: [
      "ValueError: Could not detect config format for no config file found. With config_format 'auto', ensure your model has either config.json (HF format) or params.json (Mistral format). Otherwise please specify your_custom_config_format in engine args for customized config parser.",
      'ValueError: Could not detect config format for no config file found. Ensure your model has either config.json (HF format) or params.json (Mistral format).',
    ],
    facts: () => ({ kind: 'not-found' }),
    summary: () =>
      'the model folder has no config.json (nor params.json): the path is wrong or the download is incomplete',
  },
  {
    // No platform plugin found a device: torch built without CUDA, no driver visible, or a vLLM built for another
    // device.
    id: 'vllm-no-device',
    class: 'dependency',
    weight: 90,
    // Before 0.4: `No supported device detected.`
    needles: ['Failed to infer device type', 'No supported device detected'],
    pattern: /Failed to infer device type|No supported device detected/,
    samples: [
      'RuntimeError: No supported device detected.',
      'RuntimeError: Failed to infer device type, please set the environment variable `VLLM_LOGGING_LEVEL=DEBUG` to turn on verbose logging to help debug the issue.',
    ],
    facts: () => ({ package: 'torch' }),
    summary: () =>
      'vLLM found no device to run on: torch without CUDA, no GPU or driver visible to the process, or a vLLM build for another device',
  },
  {
    // Ray cannot place every rank: --tensor-parallel-size x --pipeline-parallel-size exceeds the GPUs in the cluster.
    id: 'vllm-placement-group-short',
    class: 'invalid-value',
    weight: 80,
    needles: ['in the placement group', 'Cannot provide a placement group'],
    // Or Ray waited in vain for the bundles (0.6 and later): `Cannot provide a placement group … within N seconds.`
    pattern:
      /The number of required (\w+)s exceeds the total number of available \1s in the placement group|Cannot provide a placement group (?:requiring [\d.]+ GPUs )?(?:of |\()placement_group_specs=.* within \d+ seconds/,
    samples: [
      'The number of required GPUs exceeds the total number of available GPUs in the placement group.',
      "ValueError: Cannot provide a placement group requiring 4.0 GPUs (placement_group_specs=[{'GPU': 1.0}, {'GPU': 1.0}, {'GPU': 1.0}, {'GPU': 1.0}]) within 1800 seconds.",
      "ValueError: Cannot provide a placement group of placement_group_specs=[{'GPU': 1.0}, {'GPU': 1.0}] within 1800 seconds. See `ray status` and `ray list nodes` to make sure the cluster has enough resources.",
    ],
    ...RAY_GPUS_SHORT,
  },
  {
    // A log that ends while vLLM waits for Ray to place the ranks' GPUs: the cluster has not the GPUs asked for (the
    // wait goes on until the placement times out). A later phase means they were placed.
    id: 'vllm-placement-group-wait',
    class: 'invalid-value',
    weight: 30,
    untilNextPhase: true,
    needles: ['Waiting for creating a placement group'],
    pattern: /Waiting for creating a placement group of specs for \d+ seconds/,
    samples: [
      "Waiting for creating a placement group of specs for 30 seconds. specs=[{'GPU': 1.0, 'node:10.0.0.2': 0.001}]. Check `ray status` to see if you have enough resources.",
      "Waiting for creating a placement group of specs for 10 seconds. specs=[{'GPU': 1.0}, {'GPU': 1.0}]. Check `ray status` and `ray list nodes` to see if you have enough resources, and make sure the IP addresses used by ray cluster are the same as VLLM_HOST_IP environment variable specified in each node if you are running on a multi-node.",
    ],
    facts: () => ({ flag: '--tensor-parallel-size' }),
    summary: () =>
      'the log ends while Ray waits for GPUs the cluster does not have free: --tensor-parallel-size times --pipeline-parallel-size (or the data-parallel ranks) ask for more GPUs than Ray can place',
  },
  {
    // 0.6's model-parallel setup: the processes launched (torchrun's world) do not match the parallel sizes asked for.
    id: 'vllm-world-size-mismatch',
    class: 'invalid-value',
    weight: 95,
    releases: { until: '0.8.0' },
    needles: ['is not equal to tensor_model_parallel_size'],
    pattern:
      /world_size \((\d+)\) is not equal to tensor_model_parallel_size \((\d+)\) x pipeline_model_parallel_size \((\d+)\)/,
    samples: [
      'RuntimeError: world_size (8) is not equal to tensor_model_parallel_size (1) x pipeline_model_parallel_size (1)',
    ],
    facts: (m) => ({
      value: `world size ${m[1] ?? ''}, tensor parallel ${m[2] ?? ''}, pipeline parallel ${m[3] ?? ''}`,
    }),
    summary: (f) =>
      `the processes launched do not match the parallel sizes asked for (${f.value ?? ''}): launch as many processes as --tensor-parallel-size times --pipeline-parallel-size`,
  },
  {
    // 0.4-0.5's word for the same: the cluster Ray sees has fewer GPUs than the ranks need.
    id: 'vllm-cluster-gpus-short',
    class: 'invalid-value',
    weight: 80,
    releases: { until: '0.6.0' },
    needles: ['in the cluster'],
    pattern: /The number of required (\w+)s exceeds the total number of available \1s in the cluster/,
    samples: [
      'ValueError: The number of required GPUs exceeds the total number of available GPUs in the cluster.',
    ],
    ...RAY_GPUS_SHORT,
  },
  {
    // The node vLLM's Ray executor starts on shows Ray none of the accelerator it needs (a head node without GPUs or
    // TPUs, a task Ray scheduled there without any): the ranks cannot be placed as asked.
    id: 'vllm-ray-node-no-device',
    class: 'invalid-value',
    weight: 80,
    needles: ['Current node has no'],
    pattern: /Current node has no (\w+) available\b/,
    samples: [
      "ValueError: Current node has no GPU available. current_node_resource={'CPU': 96.0, 'memory': 1824080048128.0}. vLLM engine cannot start without GPU. Make sure you have at least 1 GPU available in a node current_node_id=5f3a current_ip=10.0.0.2.",
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `Ray shows the node the server starts on no ${f.value ?? 'GPU'}: start it on a node with one, or ask Ray for one for the task that starts it`,
  },
  {
    // Ray placed no GPU bundle on the node vLLM's driver runs on (a head node without GPUs, a placement group that
    // leaves it out): the ranks cannot be placed as asked.
    id: 'vllm-ray-driver-no-gpu',
    class: 'invalid-value',
    weight: 80,
    needles: ['on the driver node', 'not included in a placement group'],
    pattern:
      /Ray does not allocate any (\w+)s on the driver node|driver node id \S+ is not included in a placement group/,
    samples: [
      'ValueError: Ray does not allocate any GPUs on the driver node. Consider adjusting the Ray placement group or running the driver on a GPU node.',
      "RuntimeError: driver node id 5f3a is not included in a placement group 9c1e. Node id -> bundles {}. You don't have enough GPUs available in a current node.",
      // As the releases word them whole: 0.8's message without a space after `node.`; later, the advice after it.
      "ValueError: Ray does not allocate any GPUs on the driver node.Driver IP: 10.0.0.2, worker IPs: ['10.0.0.3'].Consider adjusting the Ray placement group or running the driver on a GPU node.",
      "RuntimeError: driver node id 5f3a is not included in a placement group 9c1e. Node id -> bundles {}. You don't have enough GPUs available in a current node. Check `ray status` and `ray list nodes` to see if you have available GPUs in a node `5f3a` before starting an vLLM engine.",
    ],
    summary: () =>
      "Ray placed none of the server's GPU bundles on the node its driver runs on: start vLLM on a node with GPUs in the placement group (or give the head node GPUs)",
  },
  {
    // A caller written for another release reaching into vLLM's engine objects (FastChat's worker reading
    // `llm_engine.engine.tokenizer` from an `AsyncLLM`, which V1 replaced it with): the two releases do not fit.
    id: 'vllm-engine-object-attribute',
    class: 'dependency',
    weight: 88,
    origin: 'dependency',
    needles: ['object has no attribute'],
    pattern:
      /AttributeError: '(AsyncLLM|AsyncLLMEngine|LLMEngine|LLM|MQLLMEngineClient|EngineCoreClient|AsyncEngineArgs|EngineArgs)' object has no attribute '(\w+)'/,
    // Only where the frame that raised it is the caller's: raised in vLLM's own code, it is that release's own failure.
    holdsWhen: (f) => f.frame !== undefined && !/^vllm\//.test(f.frame),
    samples: ["AttributeError: 'AsyncLLM' object has no attribute 'engine'"],
    facts: (m) => ({ package: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) =>
      `the code that drives vLLM reads ${f.package ?? ''}.${f.value ?? ''}, which the installed vLLM release does not have: it was written for another release (install the vLLM release it supports, or update it)`,
  },
  {
    // --chat-template names a file that does not exist (or a template name vLLM does not know). Later releases word it
    // `the supplied chat template path doesn't exist` and `The supplied chat template (x) looks like a file path, but
    // it failed to be opened`.
    id: 'vllm-chat-template-path',
    class: 'invalid-value',
    weight: 95,
    needles: ['appears path-like', 'chat template path', 'looks like a file path'],
    pattern:
      /The supplied chat template(?: string)? \((.*)\) (?:appears path-like, but doesn't exist|looks like a file path, but it failed to be opened)|the supplied chat template path doesn't exist/,
    samples: [
      "ValueError: The supplied chat template string (tool_use) appears path-like, but doesn't exist!",
      "FileNotFoundError: the supplied chat template path doesn't exist",
      'The supplied chat template (./tool_chat_template.jinja) looks like a file path, but it failed to be opened. Tried: ./tool_chat_template.jinja and /app/tool_chat_template.jinja. Reason: [Errno 2] No such file or directory',
    ],
    facts: (m) => ({ flag: '--chat-template', value: m[1] ?? '' }),
    summary: (f) =>
      `--chat-template ${f.value ?? ''} reads as a file path, and no such file exists: give the path of a template file, or the template text itself`,
  },
  {
    id: 'vllm-no-cache-blocks',
    class: 'cuda-oom',
    weight: 90,
    needles: ['No available memory for the cache blocks'],
    pattern: /No available memory for the cache blocks/,
    samples: [
      'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.',
      'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine. See https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details.',
      'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine (this flag also controls CPU memory reservation on the CPU backend, despite its name). See https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details.',
    ],
    facts: () => ({ kind: 'kv-cache' }),
    summary: () => 'no GPU memory is left for the KV cache after the weights and activations',
  },
  {
    // Logged at INFO just before the error above (which a log cut short may not reach).
    id: 'vllm-negative-kv-memory',
    class: 'cuda-oom',
    weight: 88,
    needles: ['KV cache memory: -'],
    pattern: /Available KV cache memory: (-[\d.]+ ?GiB)/,
    fatalAtAnyLevel: true,
    // Absent from 0.8.5's catalogue, present from 0.15.0's; the V1 worker printed it from about 0.9.
    releases: { since: '0.9.0' },
    samples: ['Available KV cache memory: -2.77 GiB'],
    facts: (m) => ({ kind: 'kv-cache', value: m[1] ?? '' }),
    summary: (f) =>
      `no GPU memory is left for the KV cache after the weights and activations (${f.value ?? 'less than none'} available)`,
  },
  {
    // Hybrid (Mamba) models need one state block per sequence: too few fit beside the weights (PR 38270).
    id: 'vllm-mamba-cache-blocks',
    class: 'cuda-oom',
    weight: 90,
    needles: ['Mamba cache blocks'],
    pattern: /max_num_seqs \((\d+)\) exceeds available Mamba cache blocks \((\d+)\)/,
    releases: { since: '0.20.0' },
    samples: [
      'ValueError: max_num_seqs (1024) exceeds available Mamba cache blocks (512). Each decode sequence requires one Mamba cache block, so CUDA graph capture cannot proceed. Please lower max_num_seqs to at most 512 or increase gpu_memory_utilization.',
    ],
    facts: (m) => ({ kind: 'kv-cache', value: `${m[1] ?? ''} sequences, ${m[2] ?? ''} blocks` }),
    summary: (f) =>
      `the GPU memory left after the weights holds too few Mamba state blocks for --max-num-seqs (${f.value ?? ''})`,
  },
  {
    // The V1 worker checks free memory before loading: another process holds part of the GPU.
    id: 'vllm-startup-free-memory',
    class: 'cuda-oom',
    weight: 95,
    needles: ['on startup'],
    // Up to 0.14: `... on startup is less than desired GPU memory utilization (0.9, ...)`; from 0.15:
    // `... on startup. Desired GPU memory utilization is (0.9, ...)`. The same words then `Actual usage is ...` are
    // an INFO report of a start that fits (with --kv-cache-memory advice), not this error. A terminal or a paste may
    // wrap the line after `is less than`.
    pattern:
      /Free memory on device (?:\S+ )?\(([\d.]+)\/([\d.]+) ?GiB\) on startup(?:(?: is less than desired GPU memory utilization ?|\. Desired GPU memory utilization is )\(([\d.]+), ?[\d.]+ ?GiB\)(?!\. Actual usage)| is less than\s*$)/,
    releases: { since: '0.10.0' },
    samples: [
      'ValueError: Free memory on device (22.1/79.2 GiB) on startup. Desired GPU memory utilization is (0.9, 71.3 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.',
      'ValueError: Free memory on device (3.22/4.0 GiB) on startup is less than desired GPU memory utilization (0.9, 3.6 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.',
      'ValueError: Free memory on device cuda:0 (36.75/121.63 GiB) on startup is less than',
      'ValueError: Free memory on device cuda:0 (36.75/121.63 GiB) on startup is less than desired GPU memory utilization (0.9, 109.47 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.',
    ],
    facts: (m) => ({
      kind: 'startup-free-memory',
      value: `${m[1] ?? ''}/${m[2] ?? ''} GiB free`,
      choices: m[3] ?? '',
    }),
    summary: (f) =>
      `the GPU had only ${f.value ?? 'part of its memory'} at start, less than --gpu-memory-utilization${f.choices === undefined || f.choices === '' ? '' : ` ${f.choices}`} asks for: another process holds GPU memory`,
  },
  {
    id: 'vllm-zero-blocks',
    class: 'cuda-oom',
    weight: 89,
    needles: ['blocks: 0'],
    pattern: /# (?:GPU|cuda) blocks: 0\b/,
    // The V0 engine's line (gone with V0).
    releases: { until: '0.8.0' },
    samples: ['# GPU blocks: 0, # CPU blocks: 2048'],
    facts: () => ({ kind: 'kv-cache' }),
    summary: () => 'memory profiling left 0 GPU blocks for the KV cache',
  },
  {
    // The loader's check after reading every file: parameters of the model class no checkpoint tensor filled.
    id: 'vllm-weights-not-initialized',
    class: 'weight-mismatch',
    weight: 96,
    needles: ['not initialized from checkpoint'],
    pattern: /Following weights were not initialized from checkpoint: \{?'?([^',}]+)/,
    samples: [
      "ValueError: Following weights were not initialized from checkpoint: {'visual.blocks.23.norm1.weight'}",
    ],
    facts: (m) => ({ key: m[1] ?? '' }),
    summary: (f) =>
      `the checkpoint has no tensor for some parameters of the model class (${f.key ?? 'several'} among them): the checkpoint and the class vLLM chose do not match`,
  },
  {
    id: 'vllm-inspect',
    class: 'dependency',
    weight: 100,
    needles: ['Error', 'failed to be inspected'],
    // The configuration check words the same crash as `Model architectures [...] failed to be inspected`.
    pattern:
      /Error in inspecting model architecture '([^']+)'|Model architectures \[([^\]]*)\] failed to be inspected/,
    samples: [
      "Error in inspecting model architecture 'Qwen3ForCausalLM'",
      "Value error, Model architectures ['Qwen3ForCausalLM'] failed to be inspected. Please check the logs for more details.",
    ],
    facts: (m) => ({ arch: m[1] ?? m[2] ?? '', kind: 'inspect' }),
    summary: (f) =>
      `vLLM could not import its model code for ${f.arch ?? 'the model'}: the inspection subprocess crashed, usually a broken install (a compiled extension that does not match torch/CUDA)`,
  },
  {
    id: 'vllm-died',
    class: 'killed',
    weight: 38,
    consequence: true,
    needles: ['died'],
    // `Engine core proc X died unexpectedly` up to 0.19; `Engine core process X died unexpectedly.` from 0.20;
    // `Worker proc X died unexpectedly (exit code: -9)` on main; Ray's `RayWorkerProc rank=X died unexpectedly`.
    pattern:
      /(Worker proc|Engine core proc(?:ess)?|RayWorkerProc rank=)\s*(\S+?) died unexpectedly(?: \(exit code: (-?\d+)\))?/,
    releases: { since: '0.8.0' },
    samples: [
      'Engine core proc EngineCore_0 died unexpectedly, shutting down client.',
      'Worker proc VllmWorker-0 died unexpectedly, shutting down executor.',
      'RuntimeError: Engine core process 1234 died unexpectedly.',
    ],
    facts: (m) => {
      const code = Number(m[3]);
      return Number.isInteger(code) && code < 0
        ? { value: m[2] ?? '', signal: -code }
        : { value: m[2] ?? '' };
    },
    summary: (f) =>
      `vLLM process ${f.value ?? ''} died without a Python traceback (killed by a signal: the OOM killer, a segfault or a driver crash)`,
  },
  {
    // vLLM main's client-side notice when the engine core process is gone.
    id: 'vllm-engine-core-exited',
    class: 'killed',
    weight: 37,
    consequence: true,
    needles: ['exited unexpectedly'],
    pattern: /MPClient: engine core exited unexpectedly/,
    releases: { since: 'main' },
    samples: ['[shutdown] MPClient: engine core exited unexpectedly; starting cleanup'],
    summary: () =>
      "vLLM's engine core process exited without a Python traceback (killed by a signal: the OOM killer, a segfault or a driver crash)",
  },
  {
    id: 'vllm-engine-core-failed',
    class: 'unknown',
    weight: 10,
    endsStart: true,
    needles: ['root cause', 'failed to start'],
    pattern: /Engine core initialization failed\. See root cause above|Engine process failed to start/,
    samples: [
      'RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
      'RuntimeError: Engine process failed to start. See stack trace for the root cause.',
    ],
    summary: () =>
      "vLLM's engine core failed to start; the root cause was printed earlier by the EngineCore/worker processes and is not in this part of the log",
  },
  {
    id: 'vllm-workerproc',
    class: 'unknown',
    weight: 10,
    needles: ['failed to start'],
    pattern: /WorkerProc failed to start|EngineCore failed to start/,
    samples: ['WorkerProc failed to start.', 'EngineCore failed to start.'],
    summary: () => 'a vLLM engine process failed to start; the error it caught is printed with it',
  },
  {
    // The executor's word that a worker process died while starting, "in a background process": the worker's own
    // error, where the log holds it, outweighs this line; the engine process's `failed to start` wrapper does not.
    // Chosen, it is all the log says of the failure: another process failed, and its error is elsewhere (its own
    // output, another node, the OOM killer).
    id: 'vllm-workerproc-background',
    class: 'peer-rank-failed',
    weight: 11,
    needles: ['initialization failed'],
    releases: { since: '0.8.0' },
    pattern: /WorkerProc initialization failed due to an exception in a background process/,
    samples: [
      'Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.',
    ],
    summary: () =>
      "a vLLM worker process failed to start, and its own error is not in this log: read the worker's output (a separate .err file, its container or node) and the kernel log (dmesg) for a process killed by the OOM killer",
  },
  {
    // V1's client and executor up to 0.8.4, told by a failed process (SIGUSR1) that it died: `Got fatal signal from
    // worker processes, shutting down. See stack trace above for root cause issue.` Any error of the process that died
    // outweighs it; chosen, it is all the log says: another process failed, and its error is in its own output.
    id: 'vllm-fatal-signal-from-workers',
    class: 'peer-rank-failed',
    weight: 11,
    consequence: true,
    needles: ['fatal signal from worker'],
    releases: { since: '0.7.0', until: '0.8.5' },
    pattern: /[Gg]ot fatal signal from worker processes/,
    samples: [
      'Got fatal signal from worker processes, shutting down. See stack trace above for root cause issue.',
      'MulitprocExecutor got fatal signal from worker processes, shutting down. See stack trace above for root cause issue.',
    ],
    summary: () =>
      "a vLLM engine or worker process died and signalled the server to shut down; its own error is not in this log: read that process's output and the kernel log (dmesg) for a process killed by the OOM killer",
  },
  {
    // A worker's busy loop raised (during startup this is CUDA graph capture or a profiling run); the traceback
    // that follows names the error.
    id: 'vllm-workerproc-exception',
    class: 'unknown',
    weight: 10,
    needles: ['hit an exception'],
    pattern: /WorkerProc hit an exception/,
    releases: { since: '0.8.0' },
    samples: ['WorkerProc hit an exception.'],
    summary: () => 'a vLLM worker process raised an exception; its traceback names the cause',
  },
];

// vLLM's word that it found no device platform (torch sees no GPU, or the installed build is for another device):
// an error with no class of its own after it (`Device string must not be empty`'s kin, a traceback cut before its
// error line) comes from that.
export const VLLM_NOTICE_CONTEXTS: readonly NoticeContext[] = [
  {
    class: 'dependency',
    label: 'vLLM found no device platform (`No platform detected`)',
    needle: 'No platform detected',
    pattern: /\bNo platform detected, vLLM is running on UnspecifiedPlatform\b/,
    releases: { since: '0.8.0' },
    samples: ['No platform detected, vLLM is running on UnspecifiedPlatform'],
  },
];

// vLLM's capture of CUDA graphs, and its memory profiling that captures them first (`profile_cudagraph_memory`,
// `_warmup_and_capture`, `capture_model`, `_capture_cudagraphs`): an unnamed error below one of these frames broke a
// capture, also where the log holds no capture progress bar.
export const VLLM_FRAME_CONTEXTS: readonly FrameContext[] = [
  {
    // The worker's check that the GPU supports the model's dtype (bfloat16 below compute capability 8.0).
    class: 'invalid-value',
    label: "the GPU does not support the model's dtype",
    errors: CONFIG_CHECK_ERRORS,
    needle: 'supports_dtype',
    pattern: /^File "[^"]*vllm\/[^"]*", line \d+,? in _check_if_gpu_supports_dtype$/,
    samples: [
      'File "/usr/local/lib/python3.10/dist-packages/vllm/worker/worker.py", line 231, in _check_if_gpu_supports_dtype',
    ],
  },
  {
    // A quantized checkpoint's scheme checked against the GPU (compressed-tensors' minimum compute capability): the
    // GPU is older than the scheme's kernels need.
    class: 'invalid-value',
    label: "the GPU is below the compute capability the checkpoint's quantization scheme needs",
    errors: /\b(?:ValueError|RuntimeError)\b/,
    needle: '_check_scheme_supported',
    pattern: /^File "[^"]*vllm\/[^"]*", line \d+,? in _check_scheme_supported$/,
    samples: [
      'File "/usr/local/lib/python3.12/site-packages/vllm/model_executor/layers/quantization/compressed_tensors/compressed_tensors.py", line 354, in _check_scheme_supported',
    ],
  },
  {
    // An attention backend's own checks of the settings it is built with (head size, dtype, CUDA graph mode, sliding
    // window): a ValueError raised there refuses the settings for that backend.
    class: 'invalid-value',
    label: "vLLM's attention backend refused the settings",
    errors: /\b(?:ValueError|NotImplementedError)\b/,
    needle: 'attention/backends/',
    pattern:
      /^File "[^"]*vllm\/(?:v1\/)?attention\/backends\/\w+\.py", line \d+,? in (?:__init__|validate\w*)$/,
    samples: [
      'File "/usr/local/lib/python3.12/dist-packages/vllm/v1/attention/backends/flash_attn.py", line 181, in __init__',
    ],
  },
  {
    // The base platform's methods (`vllm/platforms/interface.py`) raise NotImplementedError where no device platform
    // overrides them: vLLM detected none (`No platform detected, vLLM is running on UnspecifiedPlatform`), so torch
    // sees no GPU, or the installed build is for another device.
    class: 'dependency',
    label: 'vLLM found no device platform',
    errors: /\bNotImplementedError\b/,
    needle: 'platforms/interface.py',
    pattern: /^File "[^"]*vllm\/platforms\/interface\.py", line \d+,? in \w+$/,
    samples: [
      'File "/usr/local/lib/python3.11/dist-packages/vllm/platforms/interface.py", line 214, in is_async_output_supported',
    ],
  },
  {
    // vLLM reading the model's own configuration files (`transformers_utils/config.py`: `get_config`,
    // `load_params_config` for a Mistral `params.json`): an unnamed error there is files that are missing or not in
    // the form vLLM reads, not a setting the user gave (the engine config's frames above it say only that it was
    // building the config).
    class: 'model-not-found-or-auth',
    label: "vLLM could not read the model's configuration files",
    errors: /\b(?:ValueError|AssertionError)\b/,
    needle: 'transformers_utils/config.py',
    pattern: /^File "[^"]*vllm\/transformers_utils\/config\.py", line \d+,? in \w+$/,
    samples: [
      'File "/usr/local/lib/python3.10/site-packages/vllm/transformers_utils/config.py", line 623, in load_params_config',
    ],
  },
  {
    // The engine config's own checks (`vllm/config/*.py` and 0.x's single `vllm/config.py`, their `__post_init__` and
    // `verify_*`) and the arguments turned into it: an error raised there with no class of its own rejects a setting.
    // Building the parser (`add_cli_args` computing the configs' defaults) reads no setting yet: not one of them.
    class: 'invalid-value',
    label: 'the settings were rejected',
    errors: CONFIG_CHECK_ERRORS,
    needle: 'vllm/',
    pattern:
      /^File "[^"]*vllm\/(?:config(?:\/\w+)?\.py|engine\/arg_utils\.py)", line \d+,? in (?!add_cli_args$|get_kwargs$|_compute_kwargs$)\w+$/,
    samples: [
      'File "/usr/local/lib/python3.12/dist-packages/vllm/config/__init__.py", line 3521, in __post_init__',
      'File "/usr/local/lib/python3.12/dist-packages/vllm/engine/arg_utils.py", line 1289, in create_engine_config',
    ],
  },
  // Also vLLM's platform plugins' (`vllm_ascend/…`).
  weightLoadingFrame(
    String.raw`vllm(?:_\w+)?`,
    'File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/models/utils.py", line 241, in _load_module',
  ),
  {
    class: 'graph-capture-failed',
    label: 'CUDA graph capture failed',
    needle: 'captur',
    // vLLM's own runners, and its platform plugins' (`vllm_ascend/worker/model_runner_v1.py … in _capture_model`).
    pattern: /^File "[^"]*vllm(?:_\w+)?\/[^"]*", line \d+,? in (?:\w*_capture\w*|capture_\w+)$/,
    samples: [
      'File "/opt/vllm/vllm/v1/worker/gpu_model_runner.py", line 6807, in _warmup_and_capture',
      'File "/usr/lib/python3/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 2871, in capture_model',
      'File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 3037, in _capture_model',
    ],
  },
  // Before it sizes the KV cache, vLLM runs the model once on dummy inputs to measure its memory (`profile_run`, which
  // calls `_dummy_run` and `_dummy_sampler_run` in V1 and `execute_model` in 0.x): an error there with no class of its
  // own is the model's first forward pass failing, before any request. It stays `unknown` (no warm-up request of the
  // server's own failed): the context only says where, and never changes a class (its capture calls `_dummy_run` too).
  ...[
    { needle: 'profile_run', functions: 'profile_run', sample: 'line 2431, in profile_run' },
    { needle: '_dummy_', functions: '_dummy_run|_dummy_sampler_run', sample: 'line 2177, in _dummy_run' },
  ].map(({ needle, functions, sample }): FrameContext => ({
    class: 'unknown',
    label:
      "the model's first forward pass failed (vLLM's memory-profiling run on dummy inputs, before any request)",
    needle,
    pattern: new RegExp(String.raw`^File "[^"]*vllm(?:_\w+)?\/[^"]*", line \d+,? in (?:${functions})$`),
    samples: [`File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", ${sample}`],
  })),
];
