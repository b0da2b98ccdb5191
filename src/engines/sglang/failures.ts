// SGLang's own failure shapes (docs/engines/log-patterns.md); the advice that names SGLang's flags is in advice.ts.
import { CONFIG_CHECK_ERRORS, type Signature, weightLoadingFrame } from '../../diagnose/facts.ts';
import type { FrameContext, PhaseStep } from '../types.ts';

// SGLang's wrappers of a failed capture: `Capture cuda graph failed:`, and the piecewise (torch.compile) graphs'
// `Piecewise CUDA Graph failed with error:`. The text after the colon decides the class.
const GRAPH_FAILED = String.raw`(?:Capture (?:[\w-]+ ){0,3}(?:cuda|CUDA|CPU|NPU) graph failed|Piecewise CUDA Graph failed with error)`;

export const SGLANG_SIGNATURES: readonly Signature[] = [
  {
    id: 'sglang-capture-oom',
    class: 'cuda-oom',
    weight: 92,
    needles: ['graph failed', 'Graph failed'],
    samples: [
      'Exception: Capture cuda graph failed: CUDA out of memory. Tried to allocate 448.00 MiB. GPU 7 has a total capacity of 95.00 GiB',
    ],
    pattern: new RegExp(String.raw`${GRAPH_FAILED}: .*(?:out of memory|OutOfMemory)`, 'i'),
    facts: () => ({ kind: 'graph-capture' }),
    summary: () => 'the GPU ran out of memory while capturing CUDA graphs',
  },
  {
    id: 'sglang-capture-dist',
    class: 'nccl',
    weight: 86,
    needles: ['graph failed', 'Graph failed'],
    samples: [
      'Exception: Capture cuda graph failed: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error',
    ],
    pattern: new RegExp(
      String.raw`${GRAPH_FAILED}: (.*(?:gloo|NCCL|nccl|[Tt]imed out|Connection (?:closed|reset|refused|cl)).*)$`,
    ),
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `communication between ranks failed during CUDA graph capture: ${f.value ?? ''}`,
  },
  {
    id: 'sglang-capture',
    class: 'graph-capture-failed',
    weight: 60,
    needles: ['graph failed', 'Graph failed'],
    // The wrapper without its message (`Exception: Capture cuda graph failed`) follows the error it wraps.
    pattern: new RegExp(String.raw`${GRAPH_FAILED}(?::\s*(.*))?$`),
    samples: [
      'Capture cuda graph failed: operation not permitted when stream is capturing',
      "Piecewise CUDA Graph failed with error: 'TcPiecewiseForwardContext' object has no attribute 'num_tokens'",
      'Capture prefill CUDA graph failed: boom',
      'Exception: Capture cuda graph failed',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `CUDA graph capture failed${f.value === '' || f.value === undefined ? ' (no memory or communication error named: often torch.compile)' : `: ${f.value}`}`,
  },
  {
    id: 'sglang-profiled-negative',
    class: 'cuda-oom',
    weight: 90,
    needles: ['profiled value -'],
    samples: [
      'max_total_tokens=131072 is larger than the profiled value -561981. Use the profiled value instead.',
    ],
    pattern: /larger than the profiled value (-\d+)/,
    facts: (m) => ({ kind: 'kv-cache', value: m[1] ?? '' }),
    summary: (f) =>
      `no GPU memory is left for the KV cache after the weights (profiled token budget ${f.value ?? ''})`,
  },
  {
    // ≥ 0.5.14 words the same failure with the fraction it needs: the weights left no room for the KV cache.
    id: 'sglang-kv-no-memory',
    class: 'cuda-oom',
    weight: 90,
    needles: ['leave no GPU memory'],
    samples: [
      'ValueError: Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.85. Raise --mem-fraction-static above 0.904 (minimum viable = 1 - available/pre = 0.9039). If using speculative decoding, draft weights are now counted.',
    ],
    pattern: /Loaded weights leave no GPU memory for the KV cache(?: under --mem-fraction-static=([\d.]+))?/,
    releases: { since: '0.5.14' },
    facts: (m) => ({ kind: 'kv-cache', value: m[1] ?? '' }),
    summary: (f) =>
      `the weights left no GPU memory for the KV cache${f.value === '' || f.value === undefined ? '' : ` under --mem-fraction-static=${f.value}`}`,
  },
  {
    // A hybrid model's Mamba state pool sized too small for the requests (its own share of the memory budget).
    id: 'sglang-mamba-no-space',
    class: 'cuda-oom',
    weight: 90,
    needles: ['Not enough space for mamba'],
    samples: [
      'AssertionError: Not enough space for mamba cache, try to increase --mamba-full-memory-ratio or --max-mamba-cache-size.',
    ],
    pattern: /Not enough space for mamba (?:cache|ping pong idx)/,
    releases: { since: '0.5.9' },
    facts: () => ({ kind: 'kv-cache' }),
    summary: () =>
      'the Mamba state pool has no room left: its share of GPU memory (--mamba-full-memory-ratio, --max-mamba-cache-size) is too small',
  },
  {
    id: 'sglang-not-enough-memory',
    class: 'cuda-oom',
    weight: 90,
    needles: ['Not enough memory'],
    samples: [
      'RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.',
      // 0.5.9 names the value; 0.5.10 and later raise a message built in two parts (its text is a logged string).
      'RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: self.server_args.mem_fraction_static=0.88',
      'Not enough memory. Please try to increase --mem-fraction-static.',
    ],
    pattern: /Not enough memory(?:\. Please try to increase --mem-fraction-static| to allocate KV cache)/,
    facts: () => ({ kind: 'kv-cache' }),
    summary: () => 'not enough GPU memory is left for the KV cache',
  },
  {
    // The start's check that every GPU has about as much free memory as the others: another process holds memory on
    // one of them, which the KV cache then lacks.
    id: 'sglang-memory-unbalanced',
    class: 'cuda-oom',
    weight: 88,
    needles: ['unbalanced'],
    samples: [
      'RuntimeError: The memory capacity is unbalanced. Some GPUs may be occupied by other processes.',
      'ValueError: The memory capacity is unbalanced. Some GPUs may be occupied by other processes. min_per_gpu_memory=20.1, local_gpu_memory=78.5, local_gpu_memory * 0.9=70.6',
      'The memory capacity is unbalanced. Some GPUs may be occupied by other processes.',
    ],
    pattern: /The memory capacity is unbalanced\b/,
    facts: () => ({ kind: 'occupied' }),
    summary: () =>
      'one GPU has much less free memory than the others: another process holds memory on it (see nvidia-smi)',
  },
  {
    id: 'sglang-port-check',
    class: 'port-in-use',
    weight: 100,
    // From 0.4.9: before it, SGLang tried the next port itself (`Port 30000 is already in use, trying port 30001`).
    releases: { since: '0.4.9' },
    needles: ['is not available', 'already in use'],
    // `wait_port_available(port, name)` names the port it waited for (`port`, `port_base`, `nccl_port`); its caller
    // logs every port it had chosen first.
    samples: [
      'ValueError: port at 30000 is not available in 30 seconds.',
      'ValueError: port_base at 21234 is not available in 30 seconds. port_base is used by a process already.',
      'Port is already in use. dist_init_port=21233 port_base=21234 detokenizer_port=21235 nccl_port=21242',
    ],
    pattern: /(\w*port\w*) at (\d+) is not available|^Port is already in use\. dist_init_port=(\d+)/,
    facts: (m) => ({ port: m[2] ?? m[3] ?? '', flag: m[1] ?? '' }),
    summary: (f) =>
      `${f.flag === undefined || f.flag === '' ? 'port' : f.flag} ${f.port ?? ''} is held by another process (SGLang waited for it and gave up)`,
  },
  {
    id: 'sglang-peer-rank',
    class: 'peer-rank-failed',
    weight: 50,
    needles: ['could finish the model loading'],
    samples: [
      "ValueError: TP rank 0 could finish the model loading, but there are other ranks that didn't finish loading. It is likely due to unexpected failures (e.g., OOM) or a slow node.",
    ],
    pattern: /TP rank (\d+) could finish the model loading, but there are other ranks/,
    releases: { since: '0.4.10' },
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `TP rank ${f.value ?? ''} finished loading but other ranks did not: another rank failed (often out of memory) or is slow; its own error is the root cause`,
  },
  {
    id: 'sglang-scheduler-dead',
    class: 'killed',
    weight: 35,
    consequence: true,
    needles: ['dead'],
    pattern: /Rank (\d+) scheduler is dead/,
    releases: { until: '0.5.10' },
    samples: ['Rank 0 scheduler is dead. Please check if there are relevant logs.'],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `SGLang's rank ${f.value ?? ''} scheduler process died without a traceback (killed by a signal)`,
  },
  {
    // ≥ 0.5.10: `RuntimeError: Rank 0 scheduler died during initialization (exit code: -9).`: a negative code is the
    // signal that killed it.
    id: 'sglang-scheduler-killed',
    class: 'killed',
    weight: 36,
    needles: ['died'],
    pattern: /Rank (\d+) scheduler died during initialization \(exit code: -(\d+)\)/,
    releases: { since: '0.5.10' },
    samples: [
      'RuntimeError: Rank 0 scheduler died during initialization (exit code: -9). If exit code is -9 (SIGKILL), a common cause is the OS OOM killer. Run `dmesg -T | grep -i oom` to check.',
    ],
    facts: (m) => ({ value: m[1] ?? '', signal: Number(m[2]) }),
    summary: (f) =>
      `SGLang's rank ${f.value ?? ''} scheduler was killed by signal ${f.signal ?? ''} during initialization (signal 9: often the host OOM killer)`,
  },
  {
    // The same with an exit code (or none): the scheduler failed on its own, and its error, printed by the scheduler,
    // is the cause; where the log lacks it, this is the launcher's report of another process's failure.
    id: 'sglang-scheduler-died',
    class: 'peer-rank-failed',
    weight: 36,
    consequence: true,
    needles: ['died'],
    pattern: /Rank (\d+) scheduler died during initialization \(exit code: (\d+|None)\)/,
    releases: { since: '0.5.10' },
    samples: [
      'RuntimeError: Rank 0 scheduler died during initialization (exit code: 255). If exit code is -9 (SIGKILL), a common cause is the OS OOM killer. Run `dmesg -T | grep -i oom` to check.',
    ],
    facts: (m) => ({ value: m[1] ?? '', exitCode: m[2] ?? '' }),
    summary: (f) =>
      `SGLang's rank ${f.value ?? ''} scheduler exited during initialization (exit code ${f.exitCode ?? ''}); its own error, printed by the scheduler, is not in this log: read the scheduler's output above the launcher's traceback`,
  },
  {
    // The launcher's handler for the SIGQUIT a failing child sends it: a report of the child's failure, whose own
    // error (printed by the child, often after this line) is the cause. 0.4.3 spells it `proces`.
    id: 'sglang-child-sigquit',
    class: 'peer-rank-failed',
    weight: 34,
    consequence: true,
    causeMayFollow: true,
    needles: ['sigquit from a child'],
    pattern: /Received sigquit from a child proc(?:ess|es)\b/,
    samples: [
      'Received sigquit from a child process. It usually means the child failed.',
      'Received sigquit from a child proces. It usually means the child failed.',
    ],
    summary: () =>
      "an SGLang child process (a scheduler or the detokenizer) failed and signalled the launcher; its own error is not in this log: read that process's output above",
  },
  {
    // The launcher's SIGQUIT handler failing as it kills the process tree (a `RecursionError` as signals arrive again):
    // the handler ran because a child failed, so its own error is a report of that failure, not the cause.
    id: 'sglang-sigquit-handler-error',
    class: 'peer-rank-failed',
    weight: 34,
    consequence: true,
    // A traceback's frame: Python prints it, not the engine's logger.
    origin: 'dependency',
    needles: ['sigquit_handler'],
    pattern: /^File "[^"]*\/entrypoints\/(?:engine|http_server)\.py", line \d+, in sigquit_handler$/,
    samples: [
      'File "/sgl-workspace/sglang/python/sglang/srt/entrypoints/engine.py", line 403, in sigquit_handler',
    ],
    summary: () =>
      "an SGLang child process (a scheduler or the detokenizer) failed and signalled the launcher, whose handler then failed too; the child's own error is not in this log: read that process's output",
  },
  {
    // 0.4.4–0.4.9: the launcher's SIGCHLD handler logs the raw `os.waitpid` status, not an exit code: a status
    // below 256 is a signal number (plus 128 for a core dump); exits with a code are multiples of 256.
    id: 'sglang-child-wait-status',
    class: 'killed',
    weight: 40,
    needles: ['unexpectedly failed'],
    pattern: /Child process unexpectedly failed with exitcode=(25[0-5]|2[0-4]\d|1\d\d|[1-9]\d?)\. pid=\d+/,
    releases: { since: '0.4.4', until: '0.4.10' },
    samples: ['Child process unexpectedly failed with exitcode=9. pid=211'],
    facts: (m) => ({ signal: Number(m[1]) & 0x7f }),
    summary: (f) =>
      `an SGLang child process was killed by signal ${f.signal ?? ''} (signal 9: often the host OOM killer)`,
  },
  {
    id: 'sglang-warmup',
    class: 'warmup-failed',
    weight: 100,
    // SGLang stops itself when its warm-up fails.
    endsStart: true,
    needles: ['warmup error', 'warmup failed'],
    // The disaggregated prefill and decode workers' own warm-up (SGLang's, and a serving framework's handler of them).
    pattern: /warmup error|\b(?:[Dd]isaggregation|[Pp]refill|[Dd]ecode) warmup failed\b/,
    samples: [
      'Initialization failed. warmup error: Connection refused',
      "Prefill warmup failed: 'SamplingParams' object is not subscriptable",
    ],
    summary: () => "SGLang's warm-up request to itself failed after the HTTP server came up",
  },
  {
    // ≥ 0.5.13, the diffusion server (`sglang serve`): its warm-up waits for its own /health and gives up.
    id: 'sglang-server-warmup-aborted',
    class: 'warmup-failed',
    weight: 100,
    needles: ['warmup failed'],
    pattern: /Server warmup failed; aborting startup(?:: (.*))?/,
    releases: { since: '0.5.13' },
    samples: [
      'Server warmup failed; aborting startup: HTTP server did not become ready at http://127.0.0.1:30000/health',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `SGLang's warm-up of its own HTTP server failed and it aborted the start${f.value ? `: ${f.value}` : ''}`,
  },
  {
    id: 'sglang-warmup-response',
    class: 'warmup-failed',
    weight: 95,
    needles: ['Error'],
    samples: ["AssertionError: res=<Response [503]>, res.text='Service Unavailable'"],
    pattern: /AssertionError: res=<Response \[(\d+)\]>/,
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `SGLang's warm-up request to itself got HTTP ${f.value ?? ''}`,
  },
  {
    // urllib3's debug line for a request sent through an HTTP proxy carries the absolute URL: the warm-up request to
    // the server's own address went to the proxy, which refused it.
    id: 'sglang-warmup-proxied',
    class: 'warmup-failed',
    weight: 94,
    needles: ['"GET http', '"POST http'],
    pattern:
      /"(?:GET|POST) https?:\/\/[^\s"/]+\/(?:get_model_info|model_info|generate|encode|health\w*) HTTP\/1\.[01]" ([45]\d\d)/,
    samples: ['http://172.16.37.200:3138 "GET http://0.0.0.0:25600/get_model_info HTTP/1.1" 403 3582'],
    origin: 'dependency',
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `SGLang's warm-up request to itself went through an HTTP proxy, which answered HTTP ${f.value ?? ''}`,
  },
  {
    id: 'sglang-hard-watchdog',
    class: 'hang',
    weight: 45,
    needles: ['atchdog timeout'],
    samples: [
      'Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)',
      'Watchdog timeout (self.watchdog_timeout=300)',
    ],
    // Older releases print no `self.soft` (their watchdog only ever kills).
    pattern: /[Ww]atchdog timeout \(self\.watchdog_timeout=(\d+)(?:\.\d+)?(?:, self\.soft=False)?\)/,
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `the scheduler made no progress for ${f.value ?? ''} s and SGLang's watchdog stopped it`,
  },
  {
    // SGLang skips a model module that fails to import and goes on; when the model then needs it, this line is the
    // cause (a compiler or a compiled-kernel package missing). A start that went on to a later phase did not need it,
    // and an exception with a message of its own after it (weighted above this) explains the start instead.
    id: 'sglang-ignored-import',
    class: 'dependency',
    weight: 19,
    untilNextPhase: true,
    needles: ['Ignore import error'],
    pattern: /Ignore import error when loading ([\w.]+)[.:]\s*(.*)$/,
    samples: [
      "Ignore import error when loading sglang.srt.models.deepseek_v2. Command '['/usr/bin/gcc', '-O3']' returned non-zero exit status 1.",
      "Ignore import error when loading sglang.srt.models.deepseek_v2: Command '['/usr/bin/gcc', '-O3']' returned non-zero exit status 1.",
    ],
    facts: (m) => ({ package: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) =>
      `SGLang could not import ${f.package ?? 'a model module'} (${f.value ?? ''}) and skipped it`,
  },
  {
    id: 'sglang-scheduler-exception',
    class: 'unknown',
    weight: 10,
    needles: ['xception'],
    samples: ['Scheduler hit an exception: Traceback (most recent call last):'],
    pattern: /Scheduler hit an exception/,
    summary: () => 'an SGLang scheduler raised an exception (the traceback that follows names it)',
  },
  {
    // --context-length above what the model's config allows (0.4 raised it; 0.5 warns unless told to allow it).
    id: 'sglang-context-length',
    class: 'invalid-value',
    weight: 95,
    releases: { until: '0.5.0' },
    needles: ['User-specified context_length'],
    pattern: /User-specified context_length \((\d+)\) is greater than the derived context_length \((\d+)\)/,
    samples: [
      "ValueError: User-specified context_length (128000) is greater than the derived context_length (32768). This may lead to incorrect model outputs or CUDA errors. Note that the derived context_length may differ from max_position_embeddings in the model's config. To allow overriding this maximum, set the env var SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1",
    ],
    facts: (m) => ({ flag: '--context-length', value: `${m[1] ?? ''} (the config allows ${m[2] ?? ''})` }),
    summary: (f) =>
      `--context-length ${f.value ?? ''} is above what the model's config allows: lower it, or set SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 if the model was extended (rope scaling)`,
  },
  {
    // The custom all-reduce's CUDA runtime wrapper finds no libcudart in the process: a ROCm or CPU build of torch
    // running code meant for CUDA builds.
    id: 'sglang-no-libcudart',
    class: 'dependency',
    weight: 90,
    needles: ['libcudart is not loaded'],
    pattern: /libcudart is not loaded in the current process/,
    samples: ['AssertionError: libcudart is not loaded in the current process'],
    facts: () => ({ package: 'torch' }),
    summary: () =>
      "the CUDA runtime library is not loaded in the server's process: a torch built for ROCm or CPU is running code for CUDA builds (disable the custom all-reduce, or use the image built for this GPU)",
  },
  {
    // A multimodal model whose architecture has no input processor in SGLang: the release does not serve that model
    // (or the processor's module failed to import, which the log then shows above).
    id: 'sglang-no-processor',
    class: 'weight-mismatch',
    weight: 93,
    needles: ['No processor registered'],
    pattern: /No processor registered for architecture: (.+?)\.?$/,
    releases: { since: '0.4.9' },
    samples: ["ValueError: No processor registered for architecture: ['Phi4MMForCausalLM']."],
    facts: (m) => ({ arch: m[1] ?? '', kind: 'arch' }),
    summary: (f) =>
      `SGLang has no input processor for the architecture ${f.arch ?? ''}: this release does not serve that multimodal model`,
  },
  {
    // No SGLang model class for the architecture, and the transformers fallback cannot serve it either.
    id: 'sglang-no-implementation',
    class: 'weight-mismatch',
    weight: 95,
    needles: ['no SGlang implementation'],
    pattern:
      /\b(\w+) has no SGlang implementation and the Transformers implementation is not compatible with SGLang/,
    releases: { since: '0.4.7' },
    samples: [
      'ValueError: Qwen3_5ForCausalLM has no SGlang implementation and the Transformers implementation is not compatible with SGLang.',
    ],
    facts: (m) => ({ arch: m[1] ?? '', kind: 'arch' }),
    summary: (f) =>
      `SGLang has no model class for the architecture ${f.arch ?? ''} (and cannot fall back to transformers for it)`,
  },
];

// The functions of SGLang's warm-up, which sends the server's first requests once HTTP is up: `_wait_and_warmup`
// (server.py, later entrypoints/http_server.py), `_execute_server_warmup` (http_server.py, 0.5), and the diffusion
// server's `_run_server_warmup_after_http_ready`. An error in them with no class of its own is a failed warm-up.
export const SGLANG_FRAME_CONTEXTS: readonly FrameContext[] = [
  {
    // The launcher waiting for each scheduler's word that it is ready (`_wait_for_scheduler_ready`): the pipe closing
    // (EOFError) is the scheduler dying before it answered, a report of that process's failure.
    class: 'peer-rank-failed',
    label: "SGLang's launcher lost its pipe to a scheduler (the scheduler process died)",
    errors: /\bEOFError\b/,
    needle: '_wait_for_scheduler_ready',
    pattern: /^File "[^"]*sglang\/[^"]*", line \d+,? in _wait_for_scheduler_ready$/,
    samples: [
      'File "/sgl-workspace/sglang/python/sglang/srt/entrypoints/engine.py", line 1340, in _wait_for_scheduler_ready',
    ],
  },
  {
    // The server arguments' own checks (`ServerArgs.__post_init__`, `check_server_args`, the `_handle_*` steps) and
    // the model config's: an error raised there with no class of its own rejects a setting.
    class: 'invalid-value',
    label: 'the settings were rejected',
    errors: CONFIG_CHECK_ERRORS,
    needle: 'sglang/srt/',
    pattern: /^File "[^"]*sglang\/srt\/(?:server_args|configs\/model_config)\.py", line \d+,? in \w+$/,
    samples: [
      'File "/sgl-workspace/sglang/python/sglang/srt/server_args.py", line 612, in __post_init__',
      'File "/usr/local/lib/python3.12/dist-packages/sglang/srt/configs/model_config.py", line 301, in _verify_quantization',
    ],
  },
  {
    // Reading the architecture and text config from the checkpoint's config (`config.architectures[0]` on a config
    // that names none): an error there with no class of its own is a checkpoint SGLang has no class for, not a
    // setting. After the settings' context: the same frame matches both, and the later one decides.
    class: 'weight-mismatch',
    label: "the checkpoint's config does not name a model SGLang can load",
    errors: /\b(?:TypeError|AttributeError|KeyError|IndexError)\b/,
    needle: 'sglang/srt/',
    pattern: /^File "[^"]*sglang\/srt\/configs\/model_config\.py", line \d+,? in get_hf_text_config$/,
    samples: [
      'File "/venv/lib/python3.11/site-packages/sglang/srt/configs/model_config.py", line 326, in get_hf_text_config',
    ],
  },
  weightLoadingFrame(
    'sglang',
    'File "/sgl-workspace/sglang/python/sglang/srt/models/qwen2.py", line 398, in load_weights',
  ),
  {
    class: 'warmup-failed',
    label: "SGLang's warm-up request to itself failed",
    needle: 'warmup',
    pattern:
      /^File "[^"]*sglang\/[^"]*", line \d+,? in (?:_wait_and_warmup|_execute_server_warmup|_run_server_warmup\w*)$/,
    samples: [
      'File "/usr/lib/python3.11/site-packages/sglang/srt/server.py", line 410, in _wait_and_warmup',
      'File "/opt/sglang/python/sglang/srt/entrypoints/http_server.py", line 1434, in _execute_server_warmup',
    ],
  },
  {
    // The capture loop of the CUDA graph runner (`capture`, `capture_one_batch_size`, `_capture_one_stream`): seen in a
    // faulthandler dump after a native crash when the log holds no capture progress line.
    class: 'graph-capture-failed',
    label: 'CUDA graph capture failed',
    needle: 'graph_runner',
    pattern: /^File "[^"]*sglang\/[^"]*graph_runner\.py", line \d+,? in _?capture\w*$/,
    samples: [
      'File "/opt/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 741 in capture_one_batch_size',
    ],
  },
  {
    // The model runner's step that builds the graph runners, whose constructors capture: `init_cuda_graphs` (0.4),
    // `init_device_graphs` (0.5), and the scheduler's and TP worker's calls of it (`init_all_cuda_graphs`). A traceback
    // through it whose error names no class broke the capture.
    class: 'graph-capture-failed',
    label: 'CUDA graph capture failed',
    needle: '_graphs',
    pattern:
      /^File "[^"]*sglang\/srt\/(?:model_executor\/model_runner|managers\/(?:tp_worker|scheduler))\.py", line \d+,? in init_(?:all_)?(?:cuda|device)_graphs$/,
    samples: [
      'File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 2670, in init_device_graphs',
      'File "/sgl-workspace/sglang/python/sglang/srt/managers/tp_worker.py", line 443, in init_cuda_graphs',
    ],
  },
];

// SGLang sends its warm-up requests once HTTP is up (uvicorn logs the first one answered); a scheduler that dies
// then, with an error of no class of its own, failed the warm-up.
export const SGLANG_PHASE_STEPS: readonly PhaseStep[] = [
  { phase: 'warmup', class: 'warmup-failed', label: "SGLang's warm-up requests failed" },
];
