// Failure signatures shared by every engine: argparse, Python, torch, CUDA, NCCL/gloo, Hugging Face Hub, signals
// (docs/engines/log-patterns.md). Engine-specific shapes live in src/engines/<engine>/failures.ts.
import { engineOfFrame, NAMED_ENGINES } from '../engines/index.ts';
import { escapeRegExp } from '../regexp.ts';
import type { FrameContext } from '../engines/types.ts';
import type { Signature } from './facts.ts';
import { AFTER_EXCEPTION_MODULE } from './exception-modules.ts';
import { explainSignal, signalName, signalNumber } from './signals.ts';

// Whether a Python module is an engine's own, pure-Python one (not `vllm._C`), named below a frame of that engine's code.
const ownModuleOfEngine = (module: string | undefined, frame: string | undefined): boolean => {
  if (module === undefined || frame === undefined) return false;
  const parts = module.split('.');
  const root = `${parts[0] ?? ''}/`;
  if (parts.length < 2 || (parts.at(-1) ?? '').startsWith('_') || !frame.startsWith(root)) return false;
  return engineOfFrame(root) !== null;
};

const named = (signal: number | undefined): string =>
  signal === undefined ? 'a signal' : `${signalName(signal) ?? `signal ${signal}`} (signal ${signal})`;

// The signal behind each way a native crash is worded, by the wording's first word.
const CRASH_SIGNALS: Readonly<Record<string, number>> = {
  Segmentation: 11,
  Segfault: 11,
  Bus: 7,
  Illegal: 4,
  Aborted: 6,
  Quit: 3,
  Floating: 8,
};
// glibc's zh_CN names of the signals that end a process, as a shell prints them for a child they killed.
const TRANSLATED_SIGNALS: Readonly<Record<string, number>> = {
  段错误: 11,
  总线错误: 7,
  非法指令: 4,
  已放弃: 6,
  浮点数例外: 8,
  已杀死: 9,
};
// Such a report. Searched for in a file like any needle, but kept out of the per-line prefilter, a regular expression
// that non-ASCII text slows down (V8's lookahead folds bytes above 127 onto common letters): the diagnoser tests it on
// every line it is given instead.
export const TRANSLATED_SIGNAL_NAMES = Object.keys(TRANSLATED_SIGNALS);
export const TRANSLATED_SIGNAL_REPORT = new RegExp(
  String.raw`(?<![\u4e00-\u9fff])(${TRANSLATED_SIGNAL_NAMES.join('|')})(?![\u4e00-\u9fff])`,
);

// A shell's report of a killed child: `Killed`, `1234 Killed  python3 -m ...`, or `Killed <server command>`
// (the server names come from the engines' hints, which are literals: escaped, as `(` or `.` may be in one).
const HINT_WORDS = NAMED_ENGINES.flatMap((engine) => engine.hintNeedles)
  .map(escapeRegExp)
  .join('|');
const SHELL_KILLED = new RegExp(
  String.raw`^Killed\b|\bKilled\s+(?:\S*(?:python|${HINT_WORDS})\S*)|\s\d+ Killed\s|Out of memory: Killed process`,
);

// The verbs of a message that tells the user what to change (`Pass --x`, `disable --y`), for remedy-names-option.
const REMEDY_VERB = String.raw`(?:[Pp]ass|[Ss]et|[Uu]se|[Dd]isable|[Ee]nable|[Rr]emove|[Ss]pecify|[Ii]ncrease|[Dd]ecrease|[Ll]ower|[Rr]educe|[Aa]dd|[Tt]ry)`;
const FIRST_REMEDY_OPTION = new RegExp(String.raw`\b${REMEDY_VERB}\D*?(--[a-z][\w-]*)`);

// A traceback's header at the end of a line: a traceback starts there (a wrapper's `…: Traceback (most recent call
// last):` too).
export const TRACEBACK_HEADER = /Traceback \(most recent call last\):?$/;

export const GENERIC_SIGNATURES: readonly Signature[] = [
  // --- unknown-flag / invalid-value: argparse exits before any GPU work.
  {
    id: 'argparse-unrecognized',
    class: 'unknown-flag',
    weight: 100,
    needles: ['error: unrecognized arguments'],
    pattern: /(?:^|\s)([\w./-]+): error: unrecognized arguments: (.+)$|error: unrecognized arguments: (.+)$/,
    facts: (m) => ({ prog: m[1] ?? '', flag: (m[2] ?? m[3] ?? '').trim() }),
    summary: (f) =>
      `${f.prog === '' || f.prog === undefined ? 'the server' : f.prog} rejected unknown arguments: ${f.flag ?? ''}`,
  },
  {
    id: 'argparse-ambiguous',
    class: 'unknown-flag',
    weight: 100,
    needles: ['error: ambiguous option'],
    pattern: /error: ambiguous option: (\S+)/,
    facts: (m) => ({ flag: m[1] ?? '' }),
    summary: (f) => `the server rejected the abbreviated option ${f.flag ?? ''} (ambiguous)`,
  },
  {
    id: 'argparse-invalid-choice',
    class: 'invalid-value',
    weight: 100,
    needles: ['error: argument'],
    pattern: /error: argument ([-\w/]+): invalid choice: '([^']*)' \(choose from (.+)\)/,
    facts: (m) => ({ flag: m[1]?.split('/')[0] ?? '', value: m[2] ?? '', choices: m[3] ?? '' }),
    summary: (f) => `${f.flag ?? ''} does not accept '${f.value ?? ''}' (it accepts ${f.choices ?? ''})`,
  },
  {
    // A registry of named plugins refusing a name (vLLM's tool and reasoning parsers, as a KeyError).
    id: 'invalid-named-choice',
    class: 'invalid-value',
    weight: 96,
    needles: ['se from'],
    pattern: /\binvalid ([a-z][\w -]{2,40}): '?([^\s'(]+)'? \(cho(?:o)?se from (.+?)\)?'?$/,
    samples: ["KeyError: 'invalid tool call parser: openai (chose from { deepseek_v3, glm45, hermes })'"],
    facts: (m) => ({
      key: m[1] ?? '',
      // Its option is the name spelled as a flag: `tool call parser` → --tool-call-parser.
      flag: `--${(m[1] ?? '').trim().replace(/ /g, '-')}`,
      value: m[2] ?? '',
      choices: (m[3] ?? '').replace(/[{}]/g, '').trim(),
    }),
    summary: (f) =>
      `${f.value ?? ''} is not a valid ${f.key ?? 'choice'} (${f.flag ?? ''}); the choices are: ${f.choices ?? ''}`,
  },
  {
    id: 'argparse-invalid-value',
    class: 'invalid-value',
    weight: 99,
    needles: ['error: argument'],
    pattern: /error: argument ([-\w/]+): (.+)$/,
    facts: (m) => ({ flag: m[1]?.split('/')[0] ?? '', value: m[2] ?? '' }),
    summary: (f) => `the server rejected the value of ${f.flag ?? ''}: ${f.value ?? ''}`,
  },
  {
    id: 'argparse-required',
    class: 'unknown-flag',
    weight: 99,
    needles: ['error: the following arguments are required'],
    pattern: /error: the following arguments are required: (.+)$/,
    facts: (m) => ({ flag: m[1] ?? '' }),
    summary: (f) => `the server needs arguments that were not given: ${f.flag ?? ''}`,
  },
  {
    id: 'tp-heads',
    class: 'invalid-value',
    weight: 100,
    needles: ['must be divisible by'],
    pattern: /Total number of attention heads \((\d+)\) must be divisible by tensor parallel size \((\d+)\)/,
    facts: (m) => ({ heads: m[1] ?? '', tp: m[2] ?? '', kind: 'tp-heads' }),
    summary: (f) =>
      `tensor parallel size ${f.tp ?? ''} does not divide the model's ${f.heads ?? ''} attention heads`,
  },
  {
    id: 'divisible',
    class: 'invalid-value',
    weight: 98,
    needles: ['divisible by'],
    pattern: /(?<!\S)((?:[\w.]+=)?\S+ (?:must be|is not) divisible by .+)$/,
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `a size the settings give does not divide as the model or kernel needs: ${f.value ?? ''}`,
  },
  {
    // pydantic's wrapper around a configuration check: a specific shape inside it (an unsupported architecture, a
    // KV cache that does not fit) decides the class, so this applies only to lines nothing else matched.
    id: 'config-validation',
    class: 'invalid-value',
    weight: 97,
    fallback: true,
    needles: ['Value error, '],
    pattern: /Value error, (.+?)(?: \[type=value_error.*)?$/,
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `the server's configuration check failed: ${f.value ?? ''}`,
  },
  {
    // A ValueError (or an assertion, as SGLang's server-argument checks raise) that names a command-line option: a
    // check refused the settings (`--data-parallel-multi-port-external-lb requires --data-parallel-size-local >= 2`):
    // only for lines nothing more specific matched.
    id: 'option-refused',
    class: 'invalid-value',
    weight: 59,
    fallback: true,
    needles: ['rror'],
    pattern:
      /^(?:[\w.]+\.)?(?:ValueError|ArgumentTypeError|ArgumentError|AssertionError|NotImplementedError|TypeError): (.*(?<![\w-])--[a-z][\w-]+.*)$/,
    samples: [
      'ValueError: Error: --data-parallel-multi-port-external-lb requires --data-parallel-size-local >= 2',
      'ValueError: Cannot set --encoder-only and --disaggregation-mode prefill/decode together',
      'AssertionError: Elastic EP scale-up requires --pp-size 1 (got pp_size=2); WORLD must not span PP stages.',
      'ArgumentTypeError: --cuda-graph-config must be a JSON object, got list',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `the server refused its settings: ${f.value ?? ''}`,
  },
  {
    // An error that says a package is missing and asks for it (`please check if the opp_kernel package is installed`,
    // `Please install vllm by pip install …`): only for lines nothing more specific matched.
    id: 'install-hint',
    class: 'dependency',
    weight: 62,
    fallback: true,
    needles: ['rror', 'xcepti'],
    pattern:
      /^(?:[\w.]+\.)?\w*(?:Error|Exception): (.*(?:\b(?:is|are) not installed\b|must be installed|[Pp]lease (?:install|upgrade|reinstall)\b|check (?:if|whether) (?:the )?[\w.-]+ (?:package )?is installed|\bpip install\b|[Ee]nsure .{0,80}\b(?:is|are) installed|check (?:the |your )?[\w.-]+ installation|\bor (?:higher|newer) is required|\bis required, but found\b|\b(?:Install|Upgrade) (?:an? )?[\w.-]+ (?:build|version|package|or )).*)$/,
    samples: [
      'RuntimeError: call aclnnSwiGlu failed, detail:EZ1001: Get path and read binary_info_config.json failed, please check if the opp_kernel package is installed!',
      'ValueError: awq quantization requires some operators from fast-kernels. Please install fast-kernels by `pip install fast-kernels==0.9.0`',
      'RuntimeError: nvidia-smi not found. Ensure NVIDIA drivers are installed and accessible.',
      'AssertionError: NCCL version 2.27.3 or higher is required for NCCL symmetric memory',
      'ValueError: Ray version 2.40 is required, but found 2.9.3',
    ],
    facts: (m) => {
      const named =
        /check (?:if|whether) (?:the )?([\w.-]+) (?:package )?is installed|[Pp]lease (?:install|upgrade|reinstall) `?([\w.-]+)|([\w.-]+) (?:is|are) not installed|pip install (?:-U )?`?([\w.-]+)/.exec(
          m[1] ?? '',
        );
      const name = named?.slice(1).find(Boolean) ?? '';
      return { value: m[1] ?? '', ...(name === '' ? {} : { package: name.replace(/[=<>].*$/, '') }) };
    },
    summary: (f) => `a package the server needs is missing or too old: ${f.value ?? ''}`,
  },
  {
    // Two packages released together (a library and its prebuilt kernels) installed at different versions: an
    // import-time check refuses them, sometimes with no exception type in the log (FlashInfer and flashinfer-cubin).
    id: 'package-version-mismatch',
    class: 'dependency',
    weight: 96,
    needles: ['does not match'],
    pattern:
      /\b([\w.-]+) version \(?v?([\w.+-]+?)\)? does not match (?:the )?([\w.-]+) version \(?v?([\w.+-]+?)\)?[.,;]?(?:\s|$)/,
    samples: [
      'flashinfer-cubin version (0.6.13) does not match flashinfer version (0.6.14). Please install the same version of both packages.',
    ],
    facts: (m) => ({
      package: m[1] ?? '',
      value: `${m[1] ?? ''} ${m[2] ?? ''} with ${m[3] ?? ''} ${m[4] ?? ''}`,
    }),
    summary: (f) =>
      `two packages that must be the same release are not: ${f.value ?? ''}; install matching versions`,
  },
  {
    // A check that finds too little memory for what the settings ask, worded freely by each release (`Not enough GPU
    // memory for hybrid … state cache`, `Out of memory. Please set a smaller number for --max-running-requests`, a
    // hint to raise gpu_memory_utilization or --mem-fraction-static): only for lines nothing more specific matched.
    id: 'memory-check',
    class: 'cuda-oom',
    weight: 61,
    fallback: true,
    needles: ['rror', 'xcepti'],
    pattern:
      /^(?:[\w.]+\.)?\w*(?:Error|Exception): (.*(?:\b(?:[Nn]ot enough|[Ii]nsufficient|[Ll]ack of) (?:GPU |device |NPU |KV cache |free )?memory\b|\b[Oo]ut of memory\b|[Mm]emory pool size is too small|leaves no room for the|higher than the total available (?:device|GPU) memory|(?:[Ii]ncreas|[Rr]ais)(?:e|ing) `?(?:--)?(?:gpu[_-]memory[_-]utilization|mem[_-]fraction[_-]static)\b).*)$/,
    samples: [
      'RuntimeError: Out of memory. Please set a smaller number for `--max-running-requests`.',
      'RuntimeError: Not enough GPU memory for hybrid (mamba/linear-attention) state cache. Computed max_mamba_cache_size=0.',
      'ValueError: Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single token. Try increasing `gpu_memory_utilization`.',
      'AssertionError: Memory pool size is too small',
      // a device runtime's own word (Rebellions' NPU)
      'RuntimeError: SYS_EBUSY: Lack of device memory. (code: -16)',
    ],
    facts: (m) => ({ value: m[1] ?? '', kind: 'kv-cache' }),
    summary: (f) => `the server found too little GPU memory for its settings: ${f.value ?? ''}`,
  },
  {
    // A configuration check that refuses a combination of settings, worded freely by each release (`X is not
    // compatible with radix cache when …`, `torch.bfloat16 is not supported for quantization method awq`,
    // `quantization is not available on CPU`): only for lines nothing more specific matched.
    id: 'settings-incompatible',
    class: 'invalid-value',
    weight: 60,
    fallback: true,
    needles: ['ValueError', 'NotImplementedError', 'AssertionError'],
    pattern:
      /^(?:[\w.]+\.)?(?:ValueError|NotImplementedError|AssertionError): (.*\b(?:(?:is|are) not compatible with|(?:is|are) not supported (?:for|with|when|on|in|by)|(?:is|are) not available (?:on|for|with|when)|(?:is|are) only supported (?:for|with|on|when|by)|cannot be used (?:with|together|when)|(?:does not|doesn't|do not|cannot) (?:yet )?support\b|(?:is|are) (?:not yet|currently not) supported\b|(?:is|are) incompatible with|Cannot find the config file for|does not match the [^.]*\b(?:argument|option|flag|setting)|\w+ \(\d+\) must be (?:<=|>=|<|>|(?:less|greater|smaller|larger) than|at (?:least|most)|no (?:more|less) than) |\w+ \(\d+\) (?:is|are) (?:larger|greater|smaller|less|higher|lower) than \w+ \(\d+\)|Unsupported [\w ]+?(?: for [\w.]+)?: .*\. Expected |(?:caused by|due to) (?:a |an )?too (?:large|small|high|low) [a-z]).*)$/,
    samples: [
      'ValueError: torch.bfloat16 is not supported for quantization method awq. Supported dtypes: [torch.float16]',
      'ValueError: quantization is not available on CPU',
      'ValueError: Cannot find the config file for awq',
      'ValueError: Trying to run tensor parallelization but the model does not support it yet!',
      'ValueError: The input size is not aligned with the quantized weight shape. This can be caused by too large tensor parallel size.',
      'AssertionError: In Mamba cache align mode, block_size (2096) must be <= max_num_batched_tokens (2048).',
      'ValueError: Unsupported mxfp4_backend for Mxfp4MoEMethod: Mxfp4MoeBackend.FLASHINFER_CUTLASS_MXFP4_MXFP8. Expected TRTLLM, Triton, AITER, or XPU backend.',
      'ValueError: Quantization method specified in the model config (compressed-tensors) does not match the quantization method specified in the `quantization` argument (awq).',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `the server refused a combination of settings: ${f.value ?? ''}`,
  },
  {
    // Triton refusing FP8 e4m3 on a GPU before compute capability 8.9 (Ampere and older): the checkpoint's or the
    // kernel's number format needs a newer GPU, as bfloat16 does before 8.0.
    id: 'fp8-unsupported-gpu',
    class: 'invalid-value',
    weight: 93,
    needles: ['in this architecture'],
    pattern: /type (fp8\w+) not supported in this architecture/,
    samples: [
      "ValueError(\"type fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e5')\")",
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `this GPU cannot run ${f.value ?? 'this FP8'} kernels (FP8 e4m3 needs compute capability 8.9 or newer): use a checkpoint or quantization without FP8`,
  },
  {
    // No kernel for a quantized layer runs on this GPU (each candidate names the compute capability it needs): the
    // checkpoint's number format needs a newer GPU, like FP8 above.
    id: 'kernel-capability',
    class: 'invalid-value',
    weight: 93,
    needles: ['Failed to find a kernel', 'requires capability'],
    pattern:
      /Failed to find a kernel that can implement the ([\w ]+?) linear layer|requires capability (\d+), current (\d+)/,
    samples: [
      'ValueError: Failed to find a kernel that can implement the WNA16 linear layer. Reasons: ',
      'MacheteLinearKernel requires capability 90, current 89',
    ],
    facts: (m) => ({ value: m[1] ?? `compute capability ${m[2] ?? ''} (this GPU: ${m[3] ?? ''})` }),
    summary: (f) =>
      `no kernel for the checkpoint's quantized layers runs on this GPU (${f.value ?? ''}): use a checkpoint or quantization this GPU supports`,
  },
  // --- cuda-oom: weights, KV cache, activations; also through NCCL.
  {
    // Ascend's runtime failing an allocation, with CANN's memory error code (`EL0004: [PID: 3132] … Failed to
    // allocate memory.`), below torch_npu's error that names no cause.
    id: 'npu-alloc-failed',
    class: 'cuda-oom',
    weight: 88,
    // AWS Neuron's runtime says the same of a tensor it could not place: `nrt_tensor_allocate status=4
    // message="Allocation Failure"`.
    needles: ['EL0004', 'Allocation Failure'],
    pattern:
      /\bEL0004: (?:\[PID: \d+\] \S+ )?Failed to allocate memory|\bnrt_tensor_allocate status=\d+ message="Allocation Failure"/,
    samples: [
      'EL0004: [PID: 3132] 2025-10-15-16:32:16.417.528 Failed to allocate memory.',
      'RuntimeError: nrt_tensor_allocate status=4 message="Allocation Failure"',
    ],
    facts: () => ({ kind: 'torch' }),
    summary: () => "the accelerator's runtime could not allocate device memory: it is full",
  },
  {
    id: 'torch-oom',
    class: 'cuda-oom',
    weight: 90,
    needles: ['out of memory', 'OutOfMemoryError'],
    samples: ['  what():  NPU out of memory. Tried to allocate 4.00 GiB (NPU 4; 61.27 GiB total capacity)'],
    // Other accelerators' torch backends word it the same way (`NPU out of memory`, `XPU out of memory`).
    pattern: /(?:CUDA|NPU|XPU|HPU|MPS) out of memory|OutOfMemoryError|CUDA (?:driver )?error: out of memory/,
    facts: (m) => {
      const tried = /Tried to allocate ([\d.]+ [KMG]i?B)/.exec(m.input);
      const gpu = /GPU (\d+) has a total capacity of ([\d.]+ [KMG]i?B)/.exec(m.input);
      return {
        kind: 'torch',
        value: [tried?.[1], gpu === null ? undefined : `GPU ${gpu[1]}`].filter(Boolean).join(' on '),
      };
    },
    summary: (f, c) =>
      `the GPU ran out of memory${c.phase === null ? '' : ` during ${c.phase}`}${f.value === '' || f.value === undefined ? '' : ` (tried to allocate ${f.value})`}`,
  },
  {
    // XLA's status for memory it could not get (TPU HBM, also JAX on GPU): `RESOURCE_EXHAUSTED: Error loading
    // program: Attempting to reserve 1.04G at the bottom of memory.`, `RESOURCE_EXHAUSTED: Out of memory while trying
    // to allocate …`.
    id: 'xla-resource-exhausted',
    class: 'cuda-oom',
    weight: 89,
    needles: ['RESOURCE_EXHAUSTED'],
    pattern: /RESOURCE_EXHAUSTED: (.+)$/,
    samples: [
      'RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: Error loading program: Attempting to reserve 1.04G at the bottom of memory. That was not possible.',
    ],
    facts: () => ({ kind: 'torch', value: '' }),
    summary: (_f, c) =>
      `the accelerator (XLA: TPU or GPU) ran out of memory${c.phase === null ? '' : ` during ${c.phase}`}`,
  },
  {
    id: 'cublas-alloc',
    class: 'cuda-oom',
    weight: 89,
    // The driver API's own code for it too: `CUresult error: 2 (out of memory)`, `CUDA_ERROR_OUT_OF_MEMORY`.
    needles: [
      'CUBLAS_STATUS_ALLOC_FAILED',
      'cudaErrorMemoryAllocation',
      'CUresult error',
      'CUDA_ERROR_OUT_OF_MEMORY',
    ],
    pattern:
      /CUBLAS_STATUS_ALLOC_FAILED|cudaErrorMemoryAllocation|CUresult error: 2 \(out of memory\)|CUDA_ERROR_OUT_OF_MEMORY/,
    samples: [
      '[torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/utils.h func=cu_mem_create line=194',
    ],
    facts: () => ({ kind: 'torch' }),
    summary: () => 'a CUDA library could not allocate GPU memory',
  },
  {
    id: 'nccl-calloc',
    class: 'cuda-oom',
    weight: 91,
    needles: ['calloc', 'NCCL WARN', 'Cuda failure'],
    // Also an NCCL error's `Last error:` below it: `Cuda failure 'out of memory'` on a line of its own.
    pattern:
      /Failed to CUDA calloc(?: (\d+) bytes)?|NCCL WARN .*(?:out of memory|Failed to CUDA calloc)|^Cuda failure 'out of memory'/,
    samples: ["Cuda failure 'out of memory'"],
    facts: () => ({ kind: 'nccl-calloc' }),
    summary: () =>
      'NCCL could not allocate its GPU buffers: the GPU memory was already taken (an NCCL error caused by memory)',
  },
  {
    id: 'kv-len',
    class: 'cuda-oom',
    weight: 90,
    needles: ['KV cache is needed', 'stored in KV cache'],
    pattern:
      /KV cache is needed, which is larger than the available KV cache memory|is larger than the maximum number of tokens that can be stored in KV cache/,
    facts: () => ({ kind: 'kv-len' }),
    summary: () =>
      'the KV cache that fits in GPU memory cannot hold one request of the maximum context length',
  },
  // --- nccl / distributed.
  {
    id: 'nccl-error',
    class: 'nccl',
    weight: 85,
    needles: ['error', 'Error'],
    pattern:
      /NCCL [Ee]rror|HCCL function error|Dist(?:Backend|Network)Error|nccl(?:System|Internal|InvalidUsage|Remote|UnhandledCuda|InvalidArgument)Error/,
    // Early pynccl wrappers spell it `NCCL Error 2: unhandled system error`.
    facts: (m) => ({ value: /NCCL [Ee]rror(?: in: \S+| \d+)?:? ([^(]+)/.exec(m.input)?.[1]?.trim() ?? '' }),
    summary: (f, c) =>
      `NCCL failed${c.phase === null ? '' : ` during ${c.phase}`}${f.value === '' || f.value === undefined ? '' : `: ${f.value}`}`,
  },
  {
    // The collective libraries of other accelerators: Intel's oneCCL (`|CCL_ERROR| exchange_utils.cpp:202 sendmsg_fd:
    // … failed`) and Ascend's HCCL as torch_npu reports it (`ERR02200 DIST call hccl api failed.`).
    id: 'ccl-error',
    class: 'nccl',
    weight: 84,
    needles: ['CCL_ERROR', 'hccl api', 'EI0'],
    // HCCL's own errors carry an `EI` code: `Get_Socket_Timeout(EI0006): Getting socket times out. Reason: …`, or,
    // as CANN prints its error list, `EI0006: [PID: 15619] 2025-10-11-11:32:29.342.650 Getting socket times out.`.
    pattern:
      /\|CCL_ERROR\|\s*(.*)$|(DIST call hccl api failed)|\w+\((EI\d{4})\): ([^.]+)|\b(EI\d{4}): \[PID: \d+\] \S+ ([^.]+)/,
    samples: [
      '2024:09:13-11:21:50:(31157) |CCL_ERROR| exchange_utils.cpp:202 sendmsg_fd: condition !check_msg_retval("sendmsg", send_bytes, iov, msg, sizeof(u.cntr_buf), sock, fd) failed',
      '[ERROR] 2025-12-17-09:31:53 (PID:53769, Device:0, RankID:-1) ERR02200 DIST call hccl api failed.',
      '[PID: 749] 2025-12-29-03:16:15.787.356 Get_Socket_Timeout(EI0006): Getting socket times out. Reason: 1. The remote does not initiate a connect request.',
      'EI0006: [PID: 15619] 2025-10-11-11:32:29.342.650 Getting socket times out. Reason: Remote Rank did not send the data in time.',
    ],
    origin: 'dependency',
    facts: (m) => {
      const coded = m[4] ?? m[6];
      return {
        value: (m[1] ?? m[2] ?? (coded === undefined ? '' : `${coded} (${m[3] ?? m[5] ?? ''})`)).trim(),
      };
    },
    summary: (f) => `the accelerator's collective communication library failed: ${f.value ?? ''}`,
  },
  {
    // Two ranks given the same GPU (one CUDA_VISIBLE_DEVICES for every data-parallel rank, or more ranks than GPUs):
    // NCCL refuses to build the communicator. Printed at NCCL's WARN level, but never survived.
    id: 'nccl-duplicate-gpu',
    class: 'nccl',
    weight: 87,
    fatalAtAnyLevel: true,
    needles: ['Duplicate GPU'],
    pattern: /Duplicate GPU detected ?: rank (\d+) and rank (\d+) both on CUDA device (\w+)/,
    samples: [
      'node-07:2353883:2353883 [0] init.cc:943 NCCL WARN Duplicate GPU detected : rank 2 and rank 0 both on CUDA device f000',
    ],
    facts: (m) => ({
      value: `ranks ${m[1] ?? ''} and ${m[2] ?? ''} on CUDA device ${m[3] ?? ''}`,
      kind: 'duplicate-gpu',
    }),
    summary: (f) =>
      `two ranks were given the same GPU (${f.value ?? ''}): NCCL cannot build a communicator between them`,
  },
  {
    // NVSHMEM (GPU-initiated communication, under DeepEP's all-to-all) failing to set up between GPUs:
    // `topo.cpp:469: [GPU 1] Peer GPU 8 is not accessible, exiting ...`, `init.cu:1037: non-zero status: 3 building
    // transport map failed`. Its transports that fail and fall back (`init failed for transport: IBGDA`) are not this.
    id: 'nvshmem-error',
    class: 'nccl',
    weight: 85,
    // Also DeepEP's own check of an NVSHMEM call that set up its teams: `Failed: Assertion error …/runtime.cu:56
    // 'nvshmem_team_split_strided(…) == 0'`.
    needles: ['not accessible', 'non-zero status', "'nvshmem"],
    pattern:
      /nvshmem\S*\.(?:cpp|cu|c|h):\d+: (?:\[GPU \d+\] )?(Peer GPU \d+ is not accessible.*|non-zero status: -?\d+ .*)$|Failed: Assertion error \S+:\d+ '(nvshmem\w*)\(/,
    samples: [
      "RuntimeError: Failed: Assertion error /opt/DeepEP/csrc/kernels/runtime.cu:56 'nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, rank % NUM_MAX_NVL_PEERS, NUM_MAX_NVL_PEERS, num_ranks / NUM_MAX_NVL_PEERS, &cpu_rdma_team_config, 0, &cpu_rdma_team) == 0'",
      '/dvs/p4/build/sw/rel/gpgpu/toolkit/r13.0/main_nvshmem/src/host/topo/topo.cpp:469: [GPU 1] Peer GPU 8 is not accessible, exiting ... ',
      '/dvs/p4/build/sw/rel/gpgpu/toolkit/r13.0/main_nvshmem/src/host/init/init.cu:1037: non-zero status: 3 building transport map failed ',
    ],
    facts: (m) => ({ value: m[2] === undefined ? (m[1] ?? '').trim() : `${m[2]} failed` }),
    summary: (f) =>
      `NVSHMEM (GPU-to-GPU communication for expert parallelism) could not start: ${f.value ?? ''}`,
  },
  {
    id: 'nccl-warn',
    class: 'nccl',
    weight: 84,
    needles: ['NCCL WARN'],
    pattern: /NCCL WARN (.+)$/,
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `NCCL reported a failure: ${f.value ?? ''}`,
  },
  {
    id: 'gloo',
    class: 'nccl',
    weight: 84,
    needles: ['Gloo', 'gloo', 'monitoredBarrier', 'Timed out waiting'],
    pattern:
      /ProcessGroupGloo.*(?:error|failed|Timed out)|gloo\/transport\/\S+\] (.+)$|Gloo connectFullMesh failed|monitoredBarrier, but received errors|Timed out waiting \d+ms for (?:send|recv)/,
    facts: (m) => ({ value: (m[1] ?? m[0]).trim() }),
    summary: (f) => `the distributed (gloo) connection between ranks failed: ${f.value ?? ''}`,
  },
  {
    // A process group without a backend for the tensors' device (no gloo for CPU tensors): distributed setup broken.
    id: 'dist-no-backend',
    class: 'nccl',
    weight: 84,
    needles: ['No backend type'],
    pattern: /No backend type associated with device type (\w+)/,
    samples: ['RuntimeError: No backend type associated with device type cpu'],
    origin: 'dependency',
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `torch.distributed has no backend for ${f.value ?? ''} tensors in the process group it was given (a group created without gloo for CPU, or without NCCL for GPU)`,
  },
  {
    // torch.distributed's rendezvous store: the other ranks (or nodes) never joined.
    id: 'dist-store',
    class: 'nccl',
    weight: 84,
    needles: [
      'DistStoreError',
      'waiting for clients',
      'client socket has',
      'TCP client failed',
      'waitForInput',
    ],
    pattern:
      /DistStoreError: (.+)$|Timed out after \d+ seconds waiting for clients\. (\d+\/\d+) clients joined|(?:^|\[c10d\] )(The client socket has timed out after \d+ms while trying to connect to .*|The client socket has failed to connect to .*\(errno: \d+ - .*\)|TCP client failed to connect\/validate to host \S+|waitForInput: socket .* timed out after \d+ms)/,
    samples: [
      'torch.distributed.DistStoreError: Timed out after 601 seconds waiting for clients. 1/4 clients joined.',
      '[c10d] The client socket has timed out after 600000ms while trying to connect to (node-05, 8000).',
      '[c10d] waitForInput: socket SocketImpl(fd=56) timed out after 1800000ms',
      '[c10d] The client socket has failed to connect to [localhost]:29500 (errno: 99 - Cannot assign requested address).',
    ],
    facts: (m) => ({ value: (m[1] ?? m[3] ?? m[0]).trim() }),
    summary: (f) =>
      `the ranks never all met at torch.distributed's rendezvous: ${f.value ?? ''} (another node or rank did not start, or cannot reach the master address)`,
  },
  {
    // Peer-to-peer access between GPUs is needed by the custom all-reduce kernel; some topologies lack it.
    id: 'p2p-unsupported',
    class: 'nccl',
    weight: 86,
    needles: ['peer access'],
    pattern: /peer access is not supported between these two devices/,
    samples: [
      "Failed: Cuda error /work/csrc/custom_all_reduce.cuh:307 'peer access is not supported between these two devices'",
    ],
    facts: () => ({ kind: 'p2p' }),
    summary: () =>
      'the GPUs cannot reach each other directly (no peer-to-peer access), which the custom all-reduce kernel needs',
  },
  {
    id: 'collective-timeout',
    class: 'nccl',
    weight: 84,
    needles: ['ollective operation timeout'],
    pattern: /[Cc]ollective operation timeout/,
    summary: () =>
      'a collective operation between ranks timed out (a rank hung or the network between ranks failed)',
  },
  // --- port-in-use.
  {
    id: 'addr-in-use',
    class: 'port-in-use',
    weight: 100,
    needles: ['already in use', 'Errno 98', 'errno: 98', 'EADDRINUSE', 'already allocated', 'bound already'],
    // Docker publishing a container's port words it its own way: `Bind for 0.0.0.0:9001 failed: port is already
    // allocated`; Ascend's HCCL its listening port: `Failed to bind the IP port. Reason: The IP address and port have
    // been bound already.` (then `host nic listen start failed, port[60000]`).
    pattern:
      /[Aa]ddress already in use|\[Errno 98\]|errno: 98|EADDRINUSE|Bind for \S+ failed: port is already allocated|\b\w*[Pp]ort\w* \d+ is already in use|address and port have been bound already/,
    samples: [
      'EJ0003: [PID: 159] 2025-03-26-17:01:02.816.428 Failed to bind the IP port. Reason: The IP address and port have been bound already.',
      'Error response from daemon: driver failed programming external connectivity on endpoint server: Bind for 0.0.0.0:9001 failed: port is already allocated',
      'RuntimeError: engine_info_bootstrap_port 8998 is already in use. When running multiple instances on the same node, each instance must use a different --engine-info-bootstrap-port.',
    ],
    facts: (m) => {
      if (m.input.includes('bound already')) return { port: '', kind: 'collective-port' };
      const port =
        /Bind for \S+:(\d+) failed/.exec(m.input) ??
        /bind on address \('[^']*', (\d+)\)/.exec(m.input) ??
        /bind to \[?[\w.:]*\]?:(\d+)/.exec(m.input) ??
        /[Pp]ort\w* (\d+) is already in use/.exec(m.input) ??
        /[Pp]ort (\d+)/.exec(m.input);
      return { port: port?.[1] ?? '' };
    },
    summary: (f) =>
      f.port === '' || f.port === undefined
        ? f.kind === 'collective-port'
          ? "the collective library (Ascend's HCCL) could not listen on its port: another process on this host holds it"
          : 'a port the server needs is already in use'
        : `port ${f.port} is already in use`,
  },
  // --- model-not-found-or-auth (Hugging Face Hub and local paths).
  {
    id: 'invalid-repo',
    class: 'model-not-found-or-auth',
    weight: 100,
    needles: ['Invalid repository ID'],
    pattern: /Invalid repository ID or local directory specified: '([^']*)'/,
    facts: (m) => ({ model: m[1] ?? '' }),
    summary: (f) =>
      `the model '${f.model ?? ''}' could not be resolved: no local directory with a config, and the Hugging Face Hub did not provide one (typo, missing files, no network, or a gated repo)`,
  },
  {
    id: 'repo-id-path',
    class: 'model-not-found-or-auth',
    weight: 100,
    // huggingface_hub's other checks of an id: `Cannot have -- or .. in repo_id: 'a--b'`, `Repo id must use
    // alphanumeric chars …: 'x'` (a path that does not exist is checked as an id too).
    needles: ['Repo id must', 'in repo_id'],
    pattern:
      /(?:Repo id must (?:be in the form|use alphanumeric chars)|Cannot have -- or \.\. in repo_id|Cannot end with '\.git' in repo_id)\b.*?: '([^']*)'/,
    samples: [
      "huggingface_hub.errors.HFValidationError: Cannot have -- or .. in repo_id: 'alvarobartt--grok-2-tokenizer'.",
      "huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': '/models/x'. Use `repo_type` argument if needed.",
    ],
    facts: (m) => ({ model: m[1] ?? '', kind: (m[1] ?? '').startsWith('/') ? 'local-missing' : 'bad-id' }),
    summary: (f) =>
      f.kind === 'local-missing'
        ? `the local model directory ${f.model ?? ''} does not exist (so it was taken for a Hub repo id)`
        : `'${f.model ?? ''}' is not a valid Hugging Face repo id`,
  },
  {
    id: 'hub-auth',
    class: 'model-not-found-or-auth',
    weight: 100,
    needles: ['Error', 'xception', 'gated repo'],
    pattern:
      /GatedRepoError|Cannot access gated repo|(?:Error|Exception)\b.*(?:gated repo|is gated\b|40[13] Client Error|is restricted|authorized list)/,
    facts: (m) => ({
      model:
        /huggingface\.co\/([\w.-]+\/[\w.-]+)/.exec(m.input)?.[1] ??
        /model ([\w.-]+\/[\w.-]+)/.exec(m.input)?.[1] ??
        '',
      kind: 'auth',
    }),
    summary: (f) =>
      `the model ${f.model === '' || f.model === undefined ? '' : `${f.model} `}is gated or private on the Hugging Face Hub and the server had no token with access`,
  },
  {
    id: 'hub-not-found',
    class: 'model-not-found-or-auth',
    weight: 100,
    needles: ['Error', 'xception'],
    pattern:
      /(?:Error|Exception)\b.*(?:RepositoryNotFoundError|Repository Not Found|404 Client Error|couldn't connect to 'https:\/\/huggingface\.co'|is not a local folder and is not a valid model identifier|does not appear to have a file named (?:config|params)\.json|not the path to a directory containing a file named config\.json)|^(?:[\w.]+\.)?(?:RepositoryNotFoundError|LocalEntryNotFoundError)\b|NotExistError: The model: \S+ has no revision|(?:Error|Exception)\b.*[Cc]ould not find (?:the )?model locally at \S+ and failed to download/,
    samples: [
      'ValueError: Could not find model locally at black-forest-labs/FLUX.1-dev and failed to download model_index.json/config.json from HF Hub: (MaxRetryError("HTTPSConnectionPool(host=\'huggingface.co\', port=443): Max retries exceeded"))',
    ],
    facts: (m) => ({
      model:
        (/'([\w./-]+)'/.exec(m.input) ??
          /[Tt]he model:? ([\w./-]+)/.exec(m.input) ??
          /model locally at (\S+)/.exec(m.input))?.[1] ?? '',
      kind: /couldn't connect|Max retries exceeded|SSLError|ConnectionError|Connection (?:refused|reset)/.test(
        m.input,
      )
        ? 'offline'
        : 'not-found',
    }),
    summary: (f) =>
      f.kind === 'offline'
        ? 'the Hugging Face Hub could not be reached and the model is not in the local cache'
        : `the model ${f.model === '' || f.model === undefined ? '' : `'${f.model}' `}was not found (neither a local directory nor a Hub repo)`,
  },
  // --- weight-mismatch.
  {
    id: 'param-keyerror',
    class: 'weight-mismatch',
    weight: 100,
    needles: ['Error'],
    // A doubled dot (`fc1..bias`, a name built from an empty part) is still a parameter name.
    // A key cut off by the paste (no closing quote at the end of the line) is still a parameter's name.
    pattern: /^(?:[\w.]+\.)?KeyError: ['"]((?:[\w-]+\.+)+[\w-]+)(?:['"]|$)/,
    // Not a layer an engine's config looks up among the model's modules (vLLM's `forward_context[layer_name]` in
    // vllm/config/vllm.py): that is the model class naming its own layers apart, not the checkpoint.
    holdsWhen: (f) => !/\/configs?\//.test(f.frame ?? ''),
    facts: (m) => ({ key: m[1] ?? '' }),
    summary: (f) =>
      `the checkpoint has a weight named '${f.key ?? ''}' that the model class${f.frame === undefined || f.frame === '' ? '' : ` (${f.frame})`} does not know: the checkpoint's key layout does not match the class that loads it`,
  },
  {
    // A KeyError logged through str(): only the quoted key is left (vLLM's V0 engine logs exceptions this way).
    id: 'param-key-alone',
    class: 'weight-mismatch',
    weight: 97,
    needles: ["weight'", "bias'", "scale'", "scales'", "absmax'", "qzeros'", "g_idx'"],
    pattern: /^'((?:[\w-]+\.+)+(?:\w*weight|\w*bias|\w*scales?|absmax|qzeros|g_idx))'$/,
    samples: ["'layers.0.mlp.down_proj.weight.absmax'"],
    facts: (m) => ({ key: m[1] ?? '' }),
    summary: (f) =>
      `the model class has no parameter named '${f.key ?? ''}' that the checkpoint holds: the checkpoint's key layout (or quantization format) does not match the class that loads it`,
  },
  {
    // A loader's own count of the weights the model needs and the checkpoint lacks (`load_weights failed because some
    // weights are missing: {'model.layers.5.pre_moe_norm.weight', …}`), in any package's wording.
    id: 'weights-missing',
    class: 'weight-mismatch',
    weight: 90,
    needles: [
      'weights are missing',
      'weights were missing',
      'missing weights',
      'tensors are missing',
      'missing tensors',
    ],
    pattern: /\b(?:weights|tensors) (?:are|were) missing\b|\bmissing (?:weights|tensors)\b(?! will)/,
    samples: [
      "ValueError: load_weights failed because some weights are missing: missing_exclude_scales={'model.layers.5.pre_moe_norm.weight'}",
    ],
    summary: () =>
      'the checkpoint lacks weights the model class needs: its key layout does not match the class that loads it',
  },
  {
    // A quantised checkpoint whose scale layout the layer's kernel does not take (`For FP8 Fused MoE layers, only
    // per-tensor scales for weights and activations are supported. Found … strategy='channel' …`): the checkpoint's
    // quantisation scheme does not fit the class that loads it.
    id: 'quant-scale-layout',
    class: 'weight-mismatch',
    weight: 90,
    needles: ['only per-'],
    pattern:
      /\bonly per-(?:tensor|channel|token|group|block)\b[\w\s-]*\b(?:scales?|quantization)\b.*\bsupported\b/,
    samples: [
      "ValueError: For FP8 Fused MoE layers, only per-tensor scales for weights and activations are supported. Found num_bits=8 type='float' strategy='channel'",
    ],
    summary: () =>
      "the checkpoint's quantisation scales are laid out in a way this layer's kernel does not take: the checkpoint's quantisation scheme does not fit the class that loads it",
  },
  {
    // torch's narrow() while a loader cuts a tensor into per-rank slices: the tensor's size does not fit the split.
    id: 'weight-slice-out-of-range',
    class: 'weight-mismatch',
    weight: 90,
    needles: ['exceeds dimension size'],
    pattern: /start \((\d+)\) \+ length \((\d+)\) exceeds dimension size \((\d+)\)/,
    samples: ['RuntimeError: start (6) + length (6) exceeds dimension size (6).'],
    facts: (m) => ({ value: m[3] ?? '' }),
    summary: (f) =>
      `a weight of size ${f.value ?? ''} could not be cut into the slices the tensor-parallel ranks load: the checkpoint does not fit this split (another --tp-size, or a checkpoint made for it)`,
  },
  {
    // A weight loader's own check that a tensor has the shape it expects: the line that raised, or its message
    // (vLLM's linear layers join `… of size X` and `to a parameter …` without a space).
    id: 'weight-shape-assert',
    class: 'weight-mismatch',
    weight: 90,
    needles: ['assert', 'Tried to load weights'],
    pattern:
      /^\s*assert .*\b(?:loaded_weight|weight|param)\w*\.(?:shape|size\(\))|Tried to load weights of size .*to a parameter of size/,
    samples: [
      '    assert loaded_weight.shape[output_dim] == self.org_vocab_size',
      'AssertionError: Tried to load weights of size torch.Size([2048, 10240])to a parameter of size torch.Size([2048, 4096])',
    ],
    summary: () =>
      "a checkpoint tensor does not have the shape the model class expects (the loader's shape check failed)",
  },
  {
    // A loader that maps checkpoint names onto the model's modules found no module of that name.
    id: 'no-module-or-parameter',
    class: 'weight-mismatch',
    weight: 96,
    needles: ['no module or parameter'],
    pattern: /There is no module or parameter named '([^']+)' in (\w+)/,
    samples: ["ValueError: There is no module or parameter named 'embed_tokens' in CustomQwen3ForCausalLM"],
    facts: (m) => ({ key: m[1] ?? '', arch: m[2] ?? '' }),
    summary: (f) =>
      `the checkpoint has '${f.key ?? ''}', which the model class ${f.arch ?? ''} does not have: the checkpoint's layout does not match the class that loads it`,
  },
  {
    // The checkpoint's config.json was read as another config class than the model class needs (a quantizer that
    // rewrote it as a text-only model: `qwen3_5_text` for a multimodal class).
    id: 'hf-config-type',
    class: 'weight-mismatch',
    weight: 95,
    needles: ['Invalid type of HuggingFace config'],
    pattern:
      /Invalid type of HuggingFace config\. Expected type: <class '(?:[\w.]+\.)?(\w+)'>, but found type: <class '(?:[\w.]+\.)?(\w+)'>/,
    samples: [
      "TypeError: Invalid type of HuggingFace config. Expected type: <class 'serve.configs.qwen3_5.Qwen3_5Config'>, but found type: <class 'transformers.models.qwen3_5.configuration_qwen3_5.Qwen3_5TextConfig'>",
    ],
    facts: (m) => ({ arch: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) =>
      `the checkpoint's config.json reads as ${f.value ?? ''}, but the model class needs ${f.arch ?? ''}: the config does not fit the model it names (a converter or quantizer may have rewritten it)`,
  },
  {
    // A LoRA adapter that holds a weight the server cannot apply as LoRA (an adapter trained with lm_head or
    // embeddings as target modules): the adapter does not fit what the server loads.
    id: 'lora-weight-unsupported',
    class: 'weight-mismatch',
    weight: 95,
    needles: ['unsupported LoRA weight'],
    pattern: /(\S+) is unsupported LoRA weight/,
    samples: ['ValueError: base_model.model.lm_head.weight is unsupported LoRA weight'],
    facts: (m) => ({ key: m[1] ?? '' }),
    summary: (f) =>
      `the LoRA adapter holds ${f.key ?? 'a weight'}, which the server cannot apply as LoRA: save the adapter without those target modules (or merge it into the model)`,
  },
  {
    // A checkpoint file that is not a whole safetensors file: a download cut short, a git-lfs pointer in its place, or
    // a file damaged on disk. safetensors names the part of the header it could not read.
    id: 'safetensors-header',
    class: 'weight-mismatch',
    weight: 95,
    needles: ['deserializing header'],
    pattern: /Error while deserializing header: (\w+)/,
    samples: [
      'safetensors_rust.SafetensorError: Error while deserializing header: InvalidHeaderDeserialization',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `a checkpoint file is not a readable safetensors file (${f.value ?? ''}): a download cut short, a git-lfs pointer instead of the weights, or a damaged file; download it again`,
  },
  {
    // The model's config, as transformers reads it, lacks a setting the server reads at the top level
    // (`'Qwen2_5OmniConfig' object has no attribute 'hidden_size'`): a layout this release does not support, such as a
    // multimodal checkpoint whose text settings sit in a sub-config. Not the server's own config objects.
    id: 'model-config-attribute',
    class: 'weight-mismatch',
    weight: 90,
    needles: ['Config'],
    pattern: /AttributeError: '(\w+Config)' object has no attribute '(\w+)'/,
    holdsWhen: (f) => /^transformers\/configuration_utils\.py/.test(f.frame ?? ''),
    samples: ["AttributeError: 'Qwen2_5OmniConfig' object has no attribute 'hidden_size'"],
    facts: (m) => ({ arch: m[1] ?? '', key: m[2] ?? '' }),
    summary: (f) =>
      `the model's config (${f.arch ?? ''}) has no ${f.key ?? ''}, which the server reads: this release does not support the checkpoint's config layout (use a release that supports the architecture)`,
  },
  {
    id: 'state-dict-load',
    class: 'weight-mismatch',
    weight: 99,
    needles: ['Error(s) in loading state_dict'],
    pattern: /Error\(s\) in loading state_dict for (\w+)/,
    facts: (m) => ({ arch: m[1] ?? '' }),
    summary: (f) => `the checkpoint's weight names or shapes do not match the model class ${f.arch ?? ''}`,
  },
  {
    id: 'arch-unsupported',
    class: 'weight-mismatch',
    weight: 95,
    needles: ['not supported', 'implementation'],
    // Also the wording for a class the engine has no code for and cannot borrow from transformers
    // (`X has no <engine> implementation and the Transformers implementation is not compatible …`).
    pattern:
      /Model architectures? \[([^\]]*)\] (?:are|is) not supported|\b([A-Z]\w*) has no \w+ implementation and\b/,
    samples: [
      "ValueError: Model architectures ['Glm4ForCausalLM'] are not supported for now.",
      'ValueError: Qwen2_5OmniForConditionalGeneration has no native implementation and the Transformers implementation is not compatible.',
    ],
    facts: (m) => ({ arch: (m[1] ?? m[2] ?? '').replace(/'/g, ''), kind: 'arch' }),
    summary: (f) => `the server has no model class for the checkpoint's architecture ${f.arch ?? ''}`,
  },
  // --- dependency.
  {
    // A library that names a package it needs and does not find (`Form data requires "python-multipart" to be
    // installed.`): the environment lacks it.
    id: 'requires-installed',
    class: 'dependency',
    weight: 90,
    needles: ['to be installed'],
    pattern: /\brequires "?([\w.-]+)"? to be installed\b/,
    samples: ['RuntimeError: Form data requires "python-multipart" to be installed.'],
    facts: (m) => ({ package: m[1] ?? '' }),
    summary: (f) => `the package ${f.package ?? ''} is required but not installed`,
  },
  {
    // A compiled operator library built for another torch release (`operator torchvision::nms does not exist`):
    // torchvision, torchaudio or an extension whose build does not match the installed torch.
    id: 'torch-operator-missing',
    class: 'dependency',
    weight: 90,
    needles: ['does not exist'],
    pattern: /\boperator (\w+)::(\w+) does not exist\b/,
    samples: ['RuntimeError: operator torchvision::nms does not exist'],
    facts: (m) => ({ package: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) =>
      `torch has no operator ${f.package ?? ''}::${f.value ?? ''}: the installed ${f.package ?? ''} was built for another torch release (install the matching pair)`,
  },
  {
    // The server registers its own config class for a model that the installed transformers now defines too:
    // transformers is newer than this server release supports.
    id: 'config-class-taken',
    class: 'dependency',
    weight: 95,
    needles: ['is already used by a Transformers model'],
    pattern: /'<class '(?:[\w.]+\.)?(\w+)'>' is already used by a Transformers model/,
    samples: [
      "ValueError: '<class 'serve.configs.qwen2_5_vl_config.Qwen2_5_VLConfig'>' is already used by a Transformers model.",
    ],
    facts: (m) => ({ package: 'transformers', value: m[1] ?? '' }),
    summary: (f) =>
      `the installed transformers already defines ${f.value ?? 'a config class'} that the server registers itself: transformers is newer than this server release supports (install the transformers release it pins)`,
  },
  {
    id: 'min-version',
    class: 'dependency',
    weight: 100,
    needles: ['minimum required version'],
    pattern:
      /(?<!\S)(\S+) is installed with version (\S+), which is less than the minimum required version (\w[\w+-]*(?:\.\w[\w+-]*)*)|(?<!\S)(\S+) with minimum required version (\w[\w+-]*(?:\.\w[\w+-]*)*) is not installed/,
    facts: (m) => ({ package: m[1] ?? m[4] ?? '', value: m[2] ?? 'none', choices: m[3] ?? m[5] ?? '' }),
    summary: (f) =>
      `${f.package ?? ''} ${f.value === 'none' ? 'is not installed' : `is ${f.value ?? ''}`}, but at least ${f.choices ?? ''} is required`,
  },
  {
    // A message that names a package as missing or too old for what was asked (`… CUDA op requires DeepGEMM to be
    // installed.`, `… current CANN version do not support with this format. Please try to update the version of CANN.`).
    id: 'package-required',
    class: 'dependency',
    weight: 90,
    needles: ['to be installed', 'the version of', 'or outdated'],
    pattern:
      /\b(?:requires?|needs?) (?:the )?([\w.-]+)(?: package| library)? to be installed\b|[Pp]lease (?:try to )?(?:update|upgrade) the version of ([\w.-]+)|\b([\w.-]+)(?: backend| library| package)? (?:is|are) not (?:available|installed) or outdated\b/,
    samples: [
      'RuntimeError: Sparse Attention Indexer CUDA op requires DeepGEMM to be installed.',
      'RuntimeError: Format of weight in npu_grouped_matmul is FRACTAL_NZ, current CANN version do not support with this format. Please try to update the version of CANN.',
      'RuntimeError: DeepGEMM backend is not available or outdated.',
    ],
    facts: (m) => ({ package: m[1] ?? m[2] ?? m[3] ?? '' }),
    summary: (f) =>
      `the start needs ${f.package ?? 'a package'} that is not installed here, or a newer release of it than the one installed`,
  },
  {
    id: 'import-error',
    class: 'dependency',
    weight: 98,
    needles: ['Error'],
    // Also `python -m` failing to find the module itself: `Error while finding module specification for 'x.y'
    // (ModuleNotFoundError: No module named 'x')`.
    pattern:
      /^(?:[\w.]+\.)?(?:ModuleNotFoundError: No module named '([^']+)'|ImportError: (.+)|PackageNotFoundError: (\S+))|(?:Error while finding module specification for )?'[\w.]+' \(ModuleNotFoundError: No module named '([^']+)'\)/,
    facts: (m) => ({ package: m[1] ?? m[3] ?? m[4] ?? '', value: m[2] ?? '' }),
    // Not an engine's own Python module without a name the engine's own code imports from it (`cannot import name
    // 'get_attention_cp_size' from 'sglang.srt.layers.dp_attention'` below a frame in sglang/): a bug of the release.
    holdsWhen: (f) =>
      !ownModuleOfEngine(/^cannot import name '\w+' from '([\w.]+)'/.exec(f.value ?? '')?.[1], f.frame),
    summary: (f) =>
      f.value !== undefined && f.value !== ''
        ? `a Python import failed: ${f.value}`
        : `the Python package ${f.package ?? ''} is missing`,
  },
  {
    // The shell (or nohup, or a container runtime) found no such command: the engine is not installed in this
    // environment, or not on PATH.
    id: 'command-not-found',
    class: 'dependency',
    weight: 100,
    needles: [
      'command not found',
      'failed to run command',
      'executable file not found',
      ': not found',
      'No such file or directory',
    ],
    pattern:
      /(?:^|: )(?:command not found: ([\w.-]+)|([\w.-]+): command not found|failed to run command '([\w./-]+)': No such file or directory)|exec: "([\w./-]+)": executable file not found in \$PATH|^\s*(?:\/bin\/)?(?:da|a)?sh: (?:line )?\d+: ([\w./+-]+): not found$|\[Errno 2\] No such file or directory: '((?:[^'\s]*\/)?s?bin\/[\w.+-]+)'/,
    samples: [
      'zsh: command not found: serve-model',
      'bash: line 1: model-launcher: command not found',
      // dash (Debian's /bin/sh, which build tools such as ninja run commands with)
      '  /bin/sh: 1: /usr/local/cuda/bin/nvcc: not found',
      "nohup: failed to run command 'serve-model': No such file or directory",
      'exec: "serve-model": executable file not found in $PATH: unknown',
      // a launcher starting the engine's executable by path (subprocess raising FileNotFoundError)
      "ERROR - Failed to run the server: [Errno 2] No such file or directory: '/opt/envs/serve/bin/serve-model'",
    ],
    facts: (m) => ({ package: m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? '' }),
    summary: (f) =>
      `the shell found no command '${f.package ?? ''}': it is not installed in this environment, or not on PATH`,
  },
  {
    // A kernel built at run time (FlashInfer's JIT, torch extensions) whose build failed, its compiler's own error
    // not in the excerpt: the toolchain or headers of this host. While capturing CUDA graphs, a capture failure.
    id: 'kernel-build-failed',
    class: 'dependency',
    weight: 45,
    stepDecides: true,
    needles: ['ninja', 'Ninja', 'building extension', 'PassManager::run'],
    pattern:
      /CalledProcessError: Command '\['ninja'[^\]]*\]' returned non-zero exit status \d+|Ninja build failed|Error building extension '([\w.-]+)'|^(?:RuntimeError: )?PassManager::run failed$/,
    samples: [
      "subprocess.CalledProcessError: Command '['ninja', '-v', '-C', '/root/.cache/flashinfer/86/cached_ops', '-f', '/root/.cache/flashinfer/86/cached_ops/build.ninja']' returned non-zero exit status 1.",
      "RuntimeError: Error building extension 'batch_prefill_with_kv_cache_dtype_q_bf16'",
    ],
    facts: (m) => ({ value: m[1] ?? '', kind: 'toolchain-build' }),
    summary: (f) =>
      `a kernel compiled at start failed to build${f.value === '' || f.value === undefined ? '' : ` (${f.value})`}: the compiler's error above says why (often CUDA headers or a compiler this host lacks)`,
  },
  {
    // A kernel built at run time (DeepGEMM, FlashInfer, Triton extensions) needs the CUDA toolkit's compiler.
    id: 'nvcc-missing',
    class: 'dependency',
    weight: 92,
    needles: ['find nvcc', 'cuda_home'],
    pattern:
      /Could not find nvcc|cuda_home='?[^' ]*'? doesn't exist|CUDA_HOME environment variable is not set/,
    samples: ["RuntimeError: Could not find nvcc and default cuda_home='/usr/local/cuda' doesn't exist"],
    facts: () => ({ package: 'nvcc (the CUDA toolkit)' }),
    summary: () =>
      'a kernel compiled at start needs the CUDA toolkit (nvcc), which is not installed or not found (set CUDA_HOME)',
  },
  {
    // Subscripting a builtin type (`list[int]`, `array.array[int]`) in code written for a newer Python than the one
    // running it.
    id: 'python-too-old',
    class: 'dependency',
    weight: 70,
    needles: ['not subscriptable'],
    pattern: /^TypeError: type '([\w.]+)' is not subscriptable/,
    samples: ["TypeError: type 'array.array' is not subscriptable"],
    facts: (m) => ({ package: 'python', value: m[1] ?? '' }),
    summary: (f) =>
      `the code subscripts the type '${f.value ?? ''}', which this Python does not allow: it needs a newer Python (or a release of the package made for this one)`,
  },
  {
    // pybind11 refusing a call into compiled code (`TypeError: __init__(): incompatible constructor arguments. The
    // following argument types are supported: …`): the extension was built against another release of its caller
    // (torch, most often), whatever step of the start made the call.
    id: 'binding-signature-mismatch',
    class: 'dependency',
    weight: 70,
    needles: ['incompatible'],
    pattern:
      /\b(\w+)\(\): incompatible (?:constructor|function) arguments\. The following argument types are supported/,
    samples: [
      'TypeError: __init__(): incompatible constructor arguments. The following argument types are supported:',
    ],
    facts: (m) => ({ value: m[1] ?? '', kind: 'abi' }),
    summary: (f) =>
      `compiled code refused the arguments of ${f.value ?? 'a call'}(): an extension built against another release of the package that calls it (torch, most often)`,
  },
  {
    // torch's namespace of a compiled operator library without the operator the code calls (`'_OpNamespace'
    // '_C_ascend' object has no attribute 'weak_ref_tensor'`): the library was built for another release of the code,
    // or it did not load (a warning above says why).
    id: 'compiled-op-missing',
    class: 'dependency',
    weight: 70,
    needles: ['_OpNamespace'],
    pattern: /'_OpNamespace' '(\w+)' object has no attribute '(\w+)'/,
    samples: ["AttributeError: '_OpNamespace' '_C_ascend' object has no attribute 'weak_ref_tensor'"],
    facts: (m) => ({ package: m[1] ?? '', value: m[2] ?? '', kind: 'abi' }),
    summary: (f) =>
      `the compiled operator library ${f.package ?? ''} has no operator ${f.value ?? ''}: it was built for another release of the code that calls it, or it did not load`,
  },
  {
    // A module or class without an attribute its caller expects: two packages from different releases (a model's
    // own code against the installed engine, an engine against transformers). An object's missing attribute is a
    // bug, not this.
    id: 'api-drift',
    class: 'dependency',
    weight: 60,
    needles: ['Error'],
    pattern: /^(?:[\w.]+\.)?AttributeError: (?:module|type object) '([\w.]+)/,
    // Not an engine's own Python module missing what the engine's own code calls (`module
    // 'sglang.srt.layers.quantization.deep_gemm_wrapper' has no attribute …` below a frame in sglang/): that is a bug
    // of the release (read as any other exception). Its compiled modules (`vllm._C`) stay a build of another release.
    holdsWhen: (f) => !ownModuleOfEngine(f.package, f.frame),
    samples: [
      "AttributeError: module 'transformers.utils' has no attribute 'is_flash_attn_greater_or_equal_2_10'",
      "AttributeError: type object 'BaseMultiModalItemTracker' has no attribute '_placeholder_str'",
    ],
    facts: (m) => ({ package: m[1] ?? '', kind: 'api' }),
    summary: (f) =>
      `code expected an attribute of ${f.package ?? 'a module'} that the installed release does not have: two packages from releases that do not fit together`,
  },
  {
    // A shared library the process needs is not on this machine (a CUDA runtime library of another version).
    id: 'shared-library-missing',
    class: 'dependency',
    weight: 97,
    needles: ['shared object file'],
    pattern: /(?<!\S)(\S+\.so(?:\.[\d.]+)?): cannot open shared object file/,
    samples: ['ImportError: libnvrtc.so.12: cannot open shared object file: No such file or directory'],
    facts: (m) => ({ package: m[1] ?? '', kind: 'abi' }),
    summary: (f) =>
      `the shared library ${f.package ?? ''} is not installed here: the build expects another CUDA or system library version`,
  },
  {
    // The GPU runtime itself could not be loaded (`hip runtime failed to load.`): the driver or toolkit install is
    // broken or missing, before any code of the model ran.
    id: 'gpu-runtime-not-loaded',
    class: 'dependency',
    weight: 90,
    needles: ['failed to load', 'could not be loaded'],
    pattern:
      /\b(HIP|hip|CUDA|cuda|HSA|hsa|ROCm|rocm|GPU|gpu) runtime (?:library )?(?:failed to load|could not be loaded)\b/,
    samples: ['hip runtime failed to load.', 'CUDA runtime library could not be loaded'],
    facts: (m) => ({ package: `${m[1] ?? 'GPU'} runtime`, kind: 'abi' }),
    summary: (f) =>
      `the ${f.package ?? 'GPU runtime'} could not be loaded: the driver or toolkit on this machine is missing or does not match the build`,
  },
  {
    // A compiled extension without the operator for this device: built for another platform or torch.
    id: 'op-missing-for-backend',
    class: 'dependency',
    weight: 90,
    needles: ['with arguments from the'],
    pattern: /Could not run '([\w:.]+)' with arguments from the '(\w+)' backend/,
    samples: ["NotImplementedError: Could not run '_C::rms_norm' with arguments from the 'CUDA' backend."],
    facts: (m) => ({ value: m[1] ?? '', package: m[2] ?? '', kind: 'abi' }),
    summary: (f) =>
      `the compiled operator ${f.value ?? ''} has no ${f.package ?? ''} kernel in this build: the package was built for another device or torch release`,
  },
  {
    // transformers older than the model: it has no class of that name to load.
    id: 'tokenizer-class-missing',
    class: 'dependency',
    weight: 90,
    needles: ['currently imported'],
    pattern: /Tokenizer class "?(\w+)"? does not exist or is not currently imported/,
    samples: ['ValueError: Tokenizer class GemmaTokenizer does not exist or is not currently imported.'],
    facts: (m) => ({ package: 'transformers', value: m[1] ?? '' }),
    summary: (f) =>
      `the installed transformers has no tokenizer class ${f.value ?? ''}: it is older than the model (upgrade transformers, or the image that ships it)`,
  },
  {
    id: 'undefined-symbol',
    class: 'dependency',
    weight: 100,
    needles: ['undefined symbol'],
    pattern: /undefined symbol: (\S+)/,
    facts: (m) => ({ value: m[1] ?? '', kind: 'abi' }),
    summary: () =>
      'a compiled extension does not match the installed libraries (undefined symbol: built against another torch/CUDA)',
  },
  {
    // A library's table of GPU architectures without this one (aiter's `KeyError: 'gfx1151'`): the installed build
    // does not support the GPU.
    id: 'unknown-gpu-arch',
    class: 'dependency',
    weight: 60,
    // A library's table (`KeyError: 'gfx1151'`), or the CUDA toolkit's compilers, older than the GPU (`ptxas fatal :
    // Value 'sm_121a' is not defined for option 'gpu-name'`, `nvcc fatal : Unsupported gpu architecture 'compute_121a'`).
    needles: ['KeyError', 'ptxas', 'nvcc fatal'],
    pattern:
      /KeyError: '((?:gfx\d{3,4}[a-z]?|sm_?\d{2,3}[a-z]?))'|(?:ptxas|nvcc) fatal\s*: (?:Value '(sm_\w+)' is not defined for(?: option 'gpu-name')?|Unsupported gpu architecture '(\w+)')|\bptxas\b.*\berror\s*: PTX \.version [\d.]+ does not support \.target (sm_\w+)/,
    samples: [
      "KeyError: 'gfx1151'",
      "ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'",
      'ptxas /tmp/tmpmwke15zw.ptx, line 6; error   : PTX .version 8.4 does not support .target sm_120a',
      "nvcc fatal   : Unsupported gpu architecture 'compute_121a'",
    ],
    facts: (m) => ({ value: m[1] ?? m[2] ?? m[3] ?? m[4] ?? '', kind: 'gpu-arch' }),
    summary: (f) =>
      `an installed library or compiler does not know this GPU's architecture (${f.value ?? ''}): its build is older than this GPU`,
  },
  {
    // A kernel build (Triton's or Inductor's C helper, a JIT-compiled extension) whose compiler finds no header:
    // `fatal error: stddef.h: No such file or directory` (gcc), `fatal error: 'cuda.h' file not found` (clang). The
    // compiler or the development headers (Python's, CUDA's) are missing or not on its path. Inside a capture or a
    // warm-up the step decides, as for any kernel built there.
    id: 'missing-header',
    class: 'dependency',
    weight: 90,
    needles: ['fatal error'],
    pattern:
      /\bfatal error: (?:([\w./+-]+\.(?:h|hpp|cuh)): No such file or directory|'([\w./+-]+\.(?:h|hpp|cuh))' file not found)/,
    samples: [
      '/usr/include/stdlib.h:31:10: fatal error: stddef.h: No such file or directory',
      "/tmp/tmpx/main.c:1:10: fatal error: 'cuda.h' file not found",
    ],
    stepDecides: true,
    facts: (m) => ({ value: m[1] ?? m[2] ?? '', kind: 'toolchain' }),
    summary: (f) =>
      `a kernel build found no ${f.value ?? 'header'}: the C compiler or the development headers (Python's, CUDA's) are missing or not on its path`,
  },
  {
    // A check of free GPU memory against what the start needs, in any wording that names both (`observed free HBM is
    // below the runtime reserve: 13330546688 bytes available, 15000000000 required`).
    id: 'free-memory-below-need',
    class: 'cuda-oom',
    weight: 90,
    needles: ['free HBM', 'free VRAM', 'free memory', 'free GPU memory', 'free device memory'],
    pattern:
      /\bfree (?:HBM|VRAM|(?:GPU |device )?memory)\b[^:]{0,40}\b(?:is below|is less than|below|less than)\b.*\b(?:required|reserve|requested|needed)\b/,
    samples: [
      'RuntimeError: Tiered MoE observed free HBM is below the runtime reserve: 13330546688 bytes available, 15000000000 required.',
    ],
    summary: () => 'the GPU has less free memory than the start needs',
  },
  {
    id: 'driver',
    class: 'dependency',
    weight: 100,
    needles: ['Error', 'xception', 'too old'],
    pattern:
      /(?:Error|Exception|Warning)\b.*(NVIDIA driver on your system is too old|CUDA driver version is insufficient|[Ff]ound no NVIDIA driver|libcuda\.so[.\d]*: cannot open shared object file|GLIBC_[\w.]+' not found)/,
    facts: (m) => ({ value: m[1] ?? '', kind: 'driver' }),
    summary: (f) => `the GPU driver or system libraries do not fit this build: ${f.value ?? ''}`,
  },
  {
    id: 'bf16-capability',
    class: 'invalid-value',
    weight: 100,
    needles: ['Bfloat16 is only supported'],
    pattern: /Bfloat16 is only supported on GPUs with compute capability of at least ([\d.]+)/,
    facts: () => ({ flag: '--dtype', value: 'bfloat16', choices: 'half (float16)', kind: 'dtype' }),
    summary: () =>
      'this GPU cannot run bfloat16 (compute capability too low): the model needs another dtype here',
  },
  {
    id: 'transformers-arch',
    class: 'dependency',
    weight: 100,
    needles: ['does not recognize this architecture'],
    pattern: /has model type `([\w-]+)` but Transformers does not recognize this architecture/,
    facts: (m) => ({ package: 'transformers', arch: m[1] ?? '' }),
    summary: (f) => `the installed transformers is too old for model type ${f.arch ?? ''}`,
  },
  {
    // transformers' registry of model types has no entry for the checkpoint's `model_type` (a model newer than
    // the installed transformers): the KeyError is raised from this line of AutoConfig.
    id: 'transformers-model-type',
    class: 'dependency',
    weight: 99,
    needles: ['CONFIG_MAPPING['],
    pattern: /CONFIG_MAPPING\[config_dict\[["']model_type["']\]\]/,
    samples: ['config_class = CONFIG_MAPPING[config_dict["model_type"]]'],
    facts: () => ({ package: 'transformers' }),
    summary: () =>
      "the installed transformers does not know the checkpoint's model type (the model is newer than it)",
  },
  {
    // One package calls another with an argument the installed release does not take (a serving wrapper passing a
    // newer engine option, an engine calling an older transformers): the two releases do not fit together.
    id: 'unexpected-keyword',
    class: 'dependency',
    weight: 90,
    // Also a call with more or fewer arguments than the installed release takes (a compiled kernel package older
    // than the engine that calls it: `moe_fused_gate() takes 5 positional arguments but 7 were given`).
    needles: ['unexpected keyword', 'positional argument'],
    pattern:
      /\b([\w.]+)\(\) got an unexpected keyword argument '(\w+)'|\b([\w.]+)\(\) takes (?:from \d+ to )?(\d+) positional arguments? but \d+ (?:were|was) given/,
    samples: [
      "TypeError: [address=0.0.0.0:37737, pid=1025864] AsyncEngineArgs.__init__() got an unexpected keyword argument 'limit_mm_per_prompt'",
      'TypeError: moe_fused_gate() takes 5 positional arguments but 7 were given',
    ],
    facts: (m) => ({
      value: m[1] === undefined ? `${m[3] ?? ''}(${m[4] ?? ''} arguments)` : `${m[1]}(${m[2] ?? ''}=…)`,
      kind: 'api',
    }),
    summary: (f) =>
      `installed packages do not fit together: ${f.value ?? ''} is a call the installed release does not accept`,
  },
  {
    // A host program (a Rust or C++ launcher embedding Python) that cannot import the engine's package.
    id: 'embedded-import-failed',
    class: 'dependency',
    weight: 95,
    needles: ['ailed to import'],
    pattern: /[Ff]ailed to import (?:the )?(?:[Pp]ython )?'?([\w.]+)'? module\b[^:]*(?::\s*(.*))?$/,
    samples: [
      "Failed to import python 'torch' module. Are we running in the correct venv? AttributeError: class must define a '_type_' attribute",
    ],
    facts: (m) => ({ package: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) =>
      `the Python package ${f.package ?? ''} could not be imported${f.value ? `: ${f.value}` : ''}`,
  },
  {
    // A kernel built at run time (JIT) cannot link a library of the CUDA toolkit or the system: it is not installed
    // where the linker looks (a runtime image without the toolkit's development files, say).
    id: 'linker-missing-library',
    class: 'dependency',
    weight: 98,
    needles: ['cannot find -l'],
    pattern: /\bld(?:\.\w+)?: cannot find -l([\w.+-]+)/,
    samples: ['/usr/bin/ld: cannot find -lcudart: No such file or directory'],
    facts: (m) => ({ value: `lib${m[1] ?? ''}`, kind: 'driver' }),
    summary: (f) =>
      `a kernel compiled at run time cannot be linked: ${f.value ?? 'a library'} is not installed where the linker looks`,
  },
  {
    // Kernels compiled at run time (Triton, torch.compile's C++ wrappers, a JIT extension) need a C/C++ compiler:
    // a slim image or a fresh host without one fails at the first compile.
    id: 'compiler-missing',
    class: 'dependency',
    weight: 98,
    needles: ['C compiler', 'C++ compiler', "command '"],
    pattern:
      /Failed to find C compiler|No working C\+\+ compiler found|InvalidCxxCompiler|error: command '(?:gcc|cc|c\+\+|g\+\+)' failed/,
    samples: [
      'RuntimeError: Failed to find C compiler. Please specify via CC environment variable.',
      'torch._inductor.exc.InvalidCxxCompiler: No working C++ compiler found in torch._inductor.config.cpp.cxx',
      "error: command 'gcc' failed: No such file or directory",
    ],
    facts: () => ({ kind: 'toolchain' }),
    summary: () => 'a kernel compiled at run time needs a C/C++ compiler, and none was found',
  },
  {
    // An engine's fallback to the transformers implementation, for an architecture it has no class of its own for,
    // finds none in transformers either: the same case as SGLang's `has no SGlang implementation`.
    id: 'transformers-no-model-module',
    class: 'weight-mismatch',
    weight: 94,
    origin: 'dependency',
    needles: ['registered model'],
    pattern: /Cannot find model module\. '(\w+)' is not a registered model in the Transformers library/,
    samples: [
      "ValueError: Cannot find model module. 'Cosmos3ForConditionalGeneration' is not a registered model in the Transformers library (only relevant if the model is meant to be in Transformers) and 'AutoModel' is not present in the model config's 'auto_map' (relevant if the model is custom).",
    ],
    facts: (m) => ({ arch: m[1] ?? '', kind: 'arch' }),
    summary: (f) =>
      `no model class serves the architecture ${f.arch ?? ''}: the engine has none, and its transformers fallback found none either`,
  },
  {
    // CUDA's own refusal of the driver it finds: error 803 (driver and runtime do not fit) and 804 (a forward
    // compatibility package on a GPU that does not support it), often worded through cudaGetDeviceCount().
    id: 'cuda-driver-compat',
    class: 'dependency',
    weight: 100,
    needles: ['Error 80', 'forward compatibility', 'unsupported display driver'],
    pattern:
      /Error 80[34]: (.+)$|forward compatibility was attempted on non supported HW|system has unsupported display driver \/ cuda driver combination/,
    samples: [
      'Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW',
    ],
    facts: (m) => ({ value: m[1] ?? m[0], kind: 'driver' }),
    summary: (f) => `the CUDA runtime and the GPU driver do not fit together: ${f.value ?? ''}`,
  },
  {
    // CUDA error 802: on NVSwitch machines (HGX, DGX) the GPUs stay uninitialised until nvidia-fabricmanager runs,
    // at the driver's own version.
    id: 'cuda-system-not-initialized',
    class: 'dependency',
    weight: 100,
    needles: ['Error 80', 'not yet initialized'],
    pattern: /(?:Error 802: )?system not yet initialized/,
    samples: [
      'RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized',
    ],
    facts: () => ({ value: 'system not yet initialized (error 802)', kind: 'driver' }),
    summary: () =>
      'CUDA says the system is not yet initialized (error 802): on NVSwitch machines the nvidia-fabricmanager service must be running, at the same version as the driver',
  },
  {
    id: 'no-kernel-image',
    class: 'dependency',
    weight: 100,
    // Also the runtime's `invalid device function` (HIP's wording, and CUDA's cudaErrorInvalidDeviceFunction), and
    // HIP's loader finding no code object for a kernel (`hip_global.cpp:117 : … us: Cannot find Symbol with name:
    // _ZN7ck_tile…`): a kernel with no build for this GPU's architecture.
    needles: ['no kernel image', 'invalid device function', 'Cannot find Symbol with name'],
    pattern:
      /no kernel image is available for execution on the device|(?:HIP|CUDA|hip|cuda) error: invalid device function|hip_\w+\.cpp:\d+ : \d+ us: +Cannot find Symbol with name: /,
    samples: [
      'RuntimeError: CUDA error: no kernel image is available for execution on the device',
      'RuntimeError: HIP error: invalid device function',
      ':0:/src/clr/hipamd/src/hip_global.cpp:117 : 6190051732 us:  Cannot find Symbol with name: _ZN7ck_tile6kentryILi256E',
    ],
    facts: () => ({ kind: 'arch' }),
    summary: () => 'the installed CUDA kernels were not built for this GPU architecture',
  },
  {
    // The model path or repo has no config the server can read (no config.json or params.json): a wrong path, a gated
    // repo read without a token, or a repo id where a local folder was meant.
    id: 'no-config-format',
    class: 'model-not-found-or-auth',
    weight: 95,
    needles: ['No supported config format'],
    pattern: /No supported config format found in (\S+)/,
    samples: ['ValueError: No supported config format found in mistralai/Mistral-7B-v0.1'],
    facts: (m) => ({ model: m[1] ?? '', kind: 'not-found' }),
    summary: (f) =>
      `no config.json or params.json could be read for ${f.model ?? 'the model'}: check the path or repo id, and for a gated repo the Hugging Face token`,
  },
  {
    // Hugging Face's offline mode is on (HF_HUB_OFFLINE=1) and a file the server asked for is not in the cache.
    id: 'hub-offline',
    class: 'model-not-found-or-auth',
    weight: 90,
    needles: ['OfflineModeIsEnabled'],
    pattern: /OfflineModeIsEnabled: Cannot reach (\S+): offline mode is enabled/,
    samples: [
      'huggingface_hub.errors.OfflineModeIsEnabled: Cannot reach https://huggingface.co/org/m/resolve/main/config.json: offline mode is enabled. To disable it, please unset the `HF_HUB_OFFLINE` environment variable.',
    ],
    facts: (m) => ({ model: m[1] ?? '', kind: 'offline' }),
    summary: (f) =>
      `Hugging Face offline mode is on and ${f.model ?? 'a file'} is not in the local cache: download the model first, or unset HF_HUB_OFFLINE`,
  },
  {
    id: 'model-file-missing',
    class: 'model-not-found-or-auth',
    weight: 100,
    needles: ['No such file or directory'],
    pattern:
      /No such file or directory: '([^']*(?:config\.json|params\.json|tokenizer[^'/]*|\.safetensors|\.bin))'/,
    facts: (m) => ({ model: m[1] ?? '', kind: 'not-found' }),
    summary: (f) => `a model file is missing: ${f.model ?? ''}`,
  },
  // --- graph-capture-failed: CUDA graph capture failing for another reason than memory, with or without an
  // engine's wrapper (an out-of-memory error during capture stays cuda-oom: torch-oom outranks these).
  {
    id: 'stream-capture',
    class: 'graph-capture-failed',
    weight: 86,
    needles: [
      'capturing',
      'uncaptured',
      'StreamCapture',
      'stream capture',
      'graph capture',
      'CaptureStatus',
      'CAPTURE_STATUS',
      'captured-stream',
    ],
    // A capture-status assertion (torch's `cudaStreamCaptureStatus…`, torch_npu's `aclmdlRICaptureStatus::…`).
    pattern:
      /operation not permitted when stream is capturing|\w*(?:CaptureStatus|CAPTURE_STATUS)\w*.{0,80}(?:INTERNAL ASSERT FAILED|[Ee]rror)|dependency created on uncaptured work in another stream|cudaErrorStreamCapture\w+|stream capture (?:sequence )?(?:is )?invalidated|[Cc]annot (?:call|be called|\w+) [^.]{0,80}during CUDA graph capture|Not allow to synchronize captured-stream/,
    samples: [
      'RuntimeError: CUDA error: operation not permitted when stream is capturing',
      'RuntimeError: Cannot call CUDAGeneratorImpl::current_seed during CUDA graph capture.',
      'EE9999: [PID: 36130] 2025-08-21-08:26:21.385.272 Not allow to synchronize captured-stream, stream_id=9.',
      'RuntimeError: status == aclmdlRICaptureStatus::ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE INTERNAL ASSERT FAILED at "build/CMakeFiles/torch_npu.dir/compiler_depend.ts":93',
    ],
    summary: () =>
      'CUDA graph capture failed: an operation that is not allowed while a CUDA graph is being captured ran (often a custom kernel, torch.compile or NCCL on another stream)',
  },
  {
    id: 'triton-out-of-resources',
    class: 'graph-capture-failed',
    weight: 70,
    needles: ['OutOfResources'],
    pattern: /OutOfResources: out of resource: (shared memory|[\w ]+)/,
    samples: [
      'triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 131072, Hardware limit: 65536.',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `a Triton kernel compiled while capturing needs more ${f.value ?? 'resources'} than this GPU has (the kernel's block sizes do not fit this GPU)`,
  },
  // --- peer-rank-failed: this rank is fine and reports another one.
  {
    id: 'monitored-barrier',
    class: 'peer-rank-failed',
    weight: 85,
    needles: ['monitoredBarrier', 'faulty rank'],
    pattern:
      /received errors while waiting for send\/recv from rank (\d+)|check rank (\d+) logs for faulty rank/,
    samples: [
      'Rank 3 successfully reached monitoredBarrier, but received errors while waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank.',
    ],
    facts: (m) => ({ value: m[1] ?? m[2] ?? '' }),
    summary: (f) =>
      `rank ${f.value ?? '?'} failed (this rank waited for it at a barrier); rank ${f.value ?? '?'}'s own log has the cause`,
  },
  // --- weight-mismatch / invalid-value shapes several engines share.
  {
    id: 'shape-assert',
    class: 'weight-mismatch',
    weight: 90,
    needles: ['!= ['],
    pattern: /AssertionError: \[(\d+(?:, ?\d+)*)\] != \[(\d+(?:, ?\d+)*)\]/,
    samples: ['AssertionError: [12582912, 1] != [6144, 4096]'],
    facts: (m) => ({ value: `[${m[1] ?? ''}] vs [${m[2] ?? ''}]` }),
    summary: (f) => `a weight's shape does not match what the model class expects (${f.value ?? ''})`,
  },
  {
    id: 'only-supports-but-got',
    class: 'invalid-value',
    weight: 60,
    needles: ['but got'],
    pattern: /\bonly supports? (.{1,100}?), but got ['"]?([\w.-]+)/,
    samples: [
      "ValueError: BitsAndBytes quantization and QLoRA adapter only support 'bitsandbytes' load format, but got auto",
    ],
    facts: (m) => ({ choices: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) =>
      `a setting has a value this combination does not accept: ${f.value ?? ''} (it accepts only ${f.choices ?? ''})`,
  },
  {
    // A setting's value the server names and refuses: `Attention backend 'sage_attn' is not supported by this
    // attention layer`, `Quantization method 'x' is not supported`.
    id: 'value-not-supported',
    class: 'invalid-value',
    weight: 55,
    needles: ['not supported'],
    pattern:
      /^(?:[\w.]+\.)?(?:ValueError|NotImplementedError): ((?:[\w-]+ ){1,4})'([^']{1,80})' is not supported\b(.*)$/,
    samples: ["ValueError: Attention backend 'sage_attn' is not supported by this attention layer;"],
    facts: (m) => ({ flag: (m[1] ?? '').trim(), value: m[2] ?? '' }),
    summary: (f) => `the server does not support ${f.flag ?? 'the setting'} '${f.value ?? ''}' here`,
  },
  {
    // A kernel library built without what the model needs (`This flash attention build does not support headdim not
    // being a multiple of 32.`): another build of it, or another attention backend.
    id: 'build-lacks-feature',
    class: 'dependency',
    weight: 60,
    needles: [' build does not support'],
    pattern: /\bThis ((?:[\w-]+ ){1,3})build does not support (.+?)\.?'?$/,
    samples: [
      "RuntimeError: Worker failed with error 'This flash attention build does not support headdim not being a multiple of 32.'",
    ],
    facts: (m) => ({ package: (m[1] ?? '').trim(), value: m[2] ?? '' }),
    summary: (f) =>
      `the installed ${f.package ?? 'kernel'} build does not support ${f.value ?? 'what the model needs'}: install a build that does, or choose another attention backend`,
  },
  {
    // Two features the server has not implemented together (`Vlm do not work with prefix caching yet`): a refused
    // combination of settings, fixed by turning one of them off.
    id: 'features-not-together',
    class: 'invalid-value',
    weight: 60,
    needles: ['NotImplementedError'],
    pattern:
      /NotImplementedError: (.+?) (?:do|does) not (?:yet )?work with (.+?)(?: yet)?\.?(?: rank=\d+)?$|NotImplementedError: (.+?) (?:is|are) not (?:yet )?supported (?:together with|in combination with|with|when using) (.+?)\.?(?: rank=\d+)?$/,
    samples: [
      'NotImplementedError: Vlm do not work with prefix caching yet rank=0',
      'NotImplementedError: LoRA is not yet supported with speculative decoding.',
    ],
    facts: (m) => ({ value: `${m[1] ?? m[3] ?? ''} with ${m[2] ?? m[4] ?? ''}` }),
    summary: (f) =>
      `the server has not implemented ${f.value ?? 'these settings together'}: turn one of them off`,
  },
  {
    // A port read from the environment that holds a URL: Kubernetes sets `<SERVICE>_PORT=tcp://10.0.0.1:8000` for each
    // Service, so a Service named after the engine overrides the engine's own `<ENGINE>_PORT` variable.
    id: 'port-env-url',
    class: 'invalid-value',
    weight: 90,
    needles: ['appears to be a URI', "base 10: 'tcp://"],
    pattern:
      /\b([A-Z][A-Z0-9_]*_PORT) '(tcp:\/\/[^']+)' appears to be a URI|invalid literal for int\(\) with base 10: '(tcp:\/\/[^']+)'/,
    samples: [
      "ValueError: SERVE_PORT 'tcp://10.43.1.39:8000' appears to be a URI. This may be caused by a Kubernetes service discovery issue",
      "ValueError: invalid literal for int() with base 10: 'tcp://10.43.1.39:8000'",
    ],
    facts: (m) => ({ flag: m[1] ?? '', value: m[2] ?? m[3] ?? '' }),
    summary: (f) =>
      `a port setting${f.flag === '' || f.flag === undefined ? '' : ` (${f.flag})`} holds the URL ${f.value ?? ''}: Kubernetes sets <SERVICE>_PORT=tcp://… for every Service, so a Service named like the engine overrides its port variable (rename the Service, or set enableServiceLinks: false)`,
  },
  {
    // A rank that opened a GPU the process cannot see (`CUDA error: invalid device ordinal`, also HIP's): more ranks on
    // this node than visible GPUs, from the parallel sizes or a CUDA_VISIBLE_DEVICES that shows fewer.
    id: 'invalid-device-ordinal',
    class: 'invalid-value',
    weight: 60,
    needles: ['invalid device ordinal'],
    pattern: /\b(?:CUDA|HIP|XPU) error: invalid device ordinal\b/,
    samples: [
      'torch.AcceleratorError: HIP error: invalid device ordinal',
      'RuntimeError: CUDA error: invalid device ordinal',
    ],
    facts: () => ({ kind: 'device-count' }),
    summary: () =>
      'a rank opened a GPU this host does not show (invalid device ordinal): the parallel sizes (tensor x pipeline x data parallel per node) ask for more GPUs than are visible, or CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES shows fewer',
  },
  {
    // A model or feature that needs another attention backend than the one chosen: `GptOssForCausalLM requires one of
    // [...] attention backend`, `Gemma4 only supports trtllm_mha, triton … attention backend`, `KV4 MHA expects
    // attention_backend to be one of …`, `… requires TritonAttnBackend.` (also bare, as a model's own message). Not a
    // notice that the engine falls back or switches on its own.
    id: 'attention-backend-required',
    class: 'invalid-value',
    weight: 55,
    needles: ['ttention backend', 'ttention_backend', 'AttnBackend', 'AttentionBackend'],
    pattern:
      /^(?!.*\b(?:[Ff]all(?:s|ing)? back|[Ss]witch(?:es|ing)? to|instead\b))(?:[\w.]+(?:Error|Exception): )?(.*(?:\b(?:requires?|only supports?|expects?|needs?)\b.{0,120}?(?:attention[_ ]backends?\b|\b\w+Attn(?:ention)?Backend\b)|attention[_ ]backends?\b.{0,80}?\bis required\b|\bSelected backend \S+ is not valid for this configuration\b|\bNo valid attention backend found\b|\bonly\b.{0,60}?attention[_ ]backends? (?:is|are) supported\b).*)$/,
    samples: [
      "AssertionError: GptOssForCausalLM requires one of ['triton', 'trtllm_mha'] attention backend, but got 'fa3'",
      'AssertionError: Gemma4 only supports trtllm_mha, triton, or intel_xpu attention backend, got prefill=fa3, decode=fa3',
      'Bidirectional attention for image tokens requires TritonAttnBackend.',
      "AssertionError: KV4 MHA expects attention_backend to be one of ['fa3'], but got triton",
      "AssertionError: One of the attention backends in ['fa3', 'flashinfer'] is required for MLA models, but got triton",
      "ValueError: Currently only ['fa3', 'triton'] attention backends are supported for deterministic inference with DeepSeek models. But you're using flashinfer.",
      "ValueError: Selected backend AttentionBackendEnum.FLASHINFER is not valid for this configuration. Reason: ['attention sinks not supported']",
      'ValueError: No valid attention backend found for cuda with AttentionSelectorConfig(head_size=64, dtype=torch.bfloat16, kv_cache_dtype=fp8_ds_mla, block_size=64)',
    ],
    facts: (m) => ({ kind: 'attention-backend', value: m[1] ?? '' }),
    summary: (f) => `the attention backend in use does not fit: ${f.value ?? ''}`,
  },
  {
    // A setting whose value this release does not know: `Unknown quantization method: gptq`, `Unknown RoPE scaling
    // type extended`. Weaker than every specific shape.
    id: 'unknown-setting-value',
    class: 'invalid-value',
    weight: 30,
    needles: ['Error'],
    pattern:
      /^(?:[\w.]+\.)?ValueError: Unknown ([\w -]{2,40}?(?: type| method| format| mode)):? '?([\w.-]+)'?(.*)$/,
    samples: [
      "ValueError: Unknown quantization method: gptq. Must be one of ['awq', 'squeezellm'].",
      'ValueError: Unknown RoPE scaling type extended',
    ],
    facts: (m) => ({ flag: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) =>
      `this release does not know the ${f.flag ?? 'setting'} '${f.value ?? ''}' (a newer release may, or the value is misspelt)`,
  },
  {
    // A ValueError that states a requirement on a setting (`X must be ...`, `must encode to exactly one token`):
    // the server's own check of its configuration. Weaker than every specific shape.
    id: 'value-requirement',
    class: 'invalid-value',
    weight: 25,
    needles: ['Error'],
    pattern: /^(?:[\w.]+\.)?ValueError: (.*\bmust (?:be|encode|have|match|divide|not exceed)\b.*)$/,
    samples: [
      "ValueError: think_end_token '</think>' must encode to exactly one token for constrained reasoning.",
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `the server rejected its configuration: ${f.value ?? ''}`,
  },
  {
    // transformers refuses a model whose code lives in its repository unless told to trust it.
    id: 'trust-remote-code',
    class: 'invalid-value',
    weight: 90,
    needles: ['trust_remote_code'],
    pattern:
      /requires you to execute the configuration file in that repo|set the option `trust_remote_code=True`/,
    samples: [
      'ValueError: Loading /models/phi-3 requires you to execute the configuration file in that repo on your local machine. Make sure you have read the code there to avoid malicious use, then set the option `trust_remote_code=True` to remove this error.',
    ],
    facts: () => ({ flag: '--trust-remote-code', kind: 'trust-remote-code' }),
    summary: () =>
      "the model's own code must run to load it, and the server was not told to trust it (--trust-remote-code)",
  },
  {
    // The repository exists but holds no weights in a format the server loads (a GGUF-only repository, say).
    id: 'hub-no-weights',
    class: 'model-not-found-or-auth',
    weight: 100,
    needles: ['weights found for model'],
    pattern: /(?:EntryNotFoundError|FileNotFoundError|Error): No (\.?\w+) weights found for model (\S+)/,
    samples: [
      'huggingface_hub.utils._errors.EntryNotFoundError: No .bin weights found for model Qwen/CodeQwen1.5-7B-Chat-GGUF and revision None.',
    ],
    facts: (m) => ({ model: m[2] ?? '', value: m[1] ?? '', kind: 'no-weights' }),
    summary: (f) =>
      `the model ${f.model ?? ''} has no ${f.value ?? ''} weights, nor any other format the server loads`,
  },
  {
    id: 'hub-repo-id',
    class: 'model-not-found-or-auth',
    weight: 100,
    needles: ['Repo id must'],
    pattern:
      /HFValidationError: Repo id must (?:use alphanumeric chars|be in the form)[^:]*?(?:: '([^']*)')?/,
    samples: [
      "huggingface_hub.errors.HFValidationError: Repo id must use alphanumeric chars or '-', '_', '.'",
    ],
    facts: (m) => ({ model: m[1] ?? '', kind: 'not-found' }),
    summary: () =>
      'the model name is neither an existing local folder nor a valid Hugging Face Hub id (a local path that does not exist is read as a Hub id)',
  },
  // --- killed: signals, with or without a traceback.
  {
    id: 'shell-killed',
    class: 'killed',
    weight: 40,
    consequence: true,
    needles: ['Killed'],
    pattern: SHELL_KILLED,
    facts: () => ({ signal: 9 }),
    summary: (_f, c) => `the server was killed with SIGKILL (signal 9); ${explainSignal(9, c.phase)}`,
  },
  {
    // Ray's word for an actor (an engine or a worker) whose process vanished: SIGKILL, often the OOM killer.
    id: 'ray-worker-died',
    class: 'killed',
    weight: 39,
    consequence: true,
    needles: ['worker process has died', 'Worker unexpectedly exits'],
    pattern:
      /The actor is dead because its worker process has died|Worker unexpectedly exits with a connection error code/,
    samples: [
      'The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file.',
    ],
    summary: (_f, c) =>
      `Ray reported that the server's process died without an error of its own; ${explainSignal(9, c.phase)}`,
  },
  {
    id: 'exit-code-signal',
    class: 'killed',
    weight: 40,
    // After an error, the signal is the launcher ending its process tree (SGLang's SIGQUIT, -3), not the cause.
    consequence: true,
    // A start that went on past it lost no process of its own to it (a probe's child, `Check failed with … -6.`).
    untilNextPhase: true,
    needles: ['xit code', 'xitcode', 'xited with code'],
    // Also a launcher's report of its server process: `Server process exited with code -9.`
    pattern: /(?:[Ee]xit ?code|exited with code)\s*[:=]?\s*(-\d+|1(?:29|[3-8]\d|9[0-2]))\b/,
    samples: ['Exception: Server process exited with code -9. Check server logs for errors.'],
    facts: (m) => {
      const code = Number(m[1]);
      return { signal: code < 0 ? -code : code - 128 };
    },
    summary: (f, c) =>
      `the server was killed by ${named(f.signal)}; ${explainSignal(f.signal ?? 0, c.phase)}`,
  },
  {
    id: 'signal-number',
    class: 'killed',
    weight: 40,
    needles: ['ignal'],
    pattern:
      /(?:signaled to shutdown with|(?:killed|terminated|stopped) by|received|got) signal (\d+)|[Ss]ignal (\d+) \(SIG\w+\) received|<Signals\.(SIG[A-Z]+): (\d+)>/,
    facts: (m) => ({ signal: Number(m[1] ?? m[2] ?? m[4] ?? signalNumber(m[3] ?? '') ?? 0) }),
    summary: (f, c) => `the server died from ${named(f.signal)}; ${explainSignal(f.signal ?? 0, c.phase)}`,
  },
  {
    // ROCm's runtime aborts the process when a kernel touches memory it does not own (CUDA raises an error instead).
    id: 'gpu-memory-fault',
    class: 'killed',
    weight: 41,
    needles: ['Memory access fault by GPU'],
    pattern: /Memory access fault by GPU (node-\d+)?.*?(?:Reason: (.+))?$/,
    samples: [
      'Memory access fault by GPU node-1 (Agent handle: 0x3d1bda20) on address 0x7fa18d83f000. Reason: Page not present or supervisor privilege.',
    ],
    facts: (m) => ({ signal: 6, kind: 'gpu-fault', value: m[2] ?? '' }),
    summary: (f) =>
      `a GPU memory access fault aborted the server (SIGABRT)${f.value ? `: ${f.value}` : ''}; a kernel read or wrote memory it does not own`,
  },
  {
    // ROCm's runtime aborts the process on a hardware exception it cannot recover from (`HW Exception by GPU node-1
    // (Agent handle: 0x…) reason :GPU Hang`): a kernel that never finished, or a GPU fault.
    id: 'gpu-hw-exception',
    class: 'killed',
    weight: 41,
    needles: ['HW Exception by GPU'],
    pattern: /HW Exception by GPU (?:node-\d+)?.*?reason ?:\s*(.+)$/,
    samples: ['HW Exception by GPU node-1 (Agent handle: 0x2f0fbb70) reason :GPU Hang'],
    facts: (m) => ({ signal: 6, kind: 'gpu-fault', value: m[1] ?? '' }),
    summary: (f) =>
      `the GPU runtime aborted the server (SIGABRT) on a hardware exception: ${f.value ?? ''}; a kernel hung or faulted on the GPU`,
  },
  {
    // Python's faulthandler reporting SIGABRT (`Fatal Python error: Aborted`): a native library aborted the process,
    // often right after saying why (`terminate called after throwing …`, a HIP loader error), which then explains it.
    id: 'python-fatal-abort',
    class: 'killed',
    weight: 40,
    consequence: true,
    needles: ['Fatal Python error: Aborted'],
    pattern: /^Fatal Python error: Aborted$/,
    samples: ['Fatal Python error: Aborted'],
    facts: () => ({ signal: 6 }),
    summary: (f, c) => `the server crashed with ${named(f.signal)}; ${explainSignal(f.signal ?? 0, c.phase)}`,
  },
  {
    id: 'native-crash',
    class: 'killed',
    weight: 40,
    // `Segfault encountered` is the banner of native stack printers that GPU shims and extensions install; `*** SIGBUS
    // received at time=…` is abseil's failure signal handler; `Quit (core dumped)` is a shell reporting SIGQUIT.
    needles: [
      'Segmen',
      'Segfault',
      'rror',
      'Illega',
      'Aborted',
      'core dumped',
      'Floating point',
      'received at time',
    ],
    pattern:
      /Segmentation fault|Segfault encountered|Bus error|Illegal instruction|Aborted \(core dumped\)|Quit \(core dumped\)|Floating point exception|\b(SIG[A-Z]+) received at time=/,
    facts: (m) => ({
      signal: m[1] !== undefined ? (signalNumber(m[1]) ?? 0) : (CRASH_SIGNALS[m[0].split(' ')[0] ?? ''] ?? 0),
    }),
    summary: (f, c) => `the server crashed with ${named(f.signal)}; ${explainSignal(f.signal ?? 0, c.phase)}`,
  },
  {
    // The same reports from a shell running in another language: glibc's translated signal names (zh_CN here, the
    // locale most often met in these logs): `段错误 (核心已转储)` is `Segmentation fault (core dumped)`.
    id: 'native-crash-translated',
    class: 'killed',
    weight: 40,
    needles: TRANSLATED_SIGNAL_NAMES,
    pattern: TRANSLATED_SIGNAL_REPORT,
    samples: ['段错误 (核心已转储)', '/bin/bash: 行 1: 118001 已杀死 python3 -m server'],
    facts: (m) => ({ signal: TRANSLATED_SIGNALS[m[1] ?? ''] ?? 0 }),
    summary: (f, c) =>
      `the server was killed by ${named(f.signal)}; ${explainSignal(f.signal ?? 0, c.phase)}`,
  },
  // --- wrappers that only point elsewhere; they name the failure when nothing better is in the log.
  {
    // A Rust program's panic (TGI's launcher and router): the process ends; the message says why.
    id: 'rust-panic',
    class: 'unknown',
    weight: 21,
    needles: ['panicked at'],
    pattern: /thread '[^']*' panicked at ([^\s:]+(?::\d+){0,2}):?\s*(.*)$/,
    samples: [
      "thread 'main' panicked at router/src/infer.rs:324:14: called `Result::unwrap()` on an `Err` value",
    ],
    facts: (m) => ({ frame: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) => `the program panicked at ${f.frame ?? ''}${f.value ? `: ${f.value}` : ''}`,
  },
  {
    // Triton Inference Server's last word on a model it could not load (its vLLM backend among others).
    id: 'model-load-failed',
    class: 'unknown',
    weight: 20,
    needles: ['failed to load'],
    pattern: /\bfailed to load '([^']+)' version \d+: (?:\w+: )?(.+)$/,
    samples: [
      "failed to load 'vllm_model' version 1: Internal: TypeError: 'NoneType' object is not subscriptable",
    ],
    facts: (m) => ({ model: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) => `the model server could not load ${f.model ?? 'the model'}: ${f.value ?? ''}`,
  },
  {
    // A serving wrapper's own last word on the start (KServe and others): fatal, with the error's text only.
    id: 'server-start-failed',
    class: 'unknown',
    weight: 20,
    needles: ['ailed to start'],
    pattern: /\bFailed to start (?:the )?(?:model )?server: (.+)$/,
    samples: ['Failed to start model server: integer division or modulo by zero'],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `the server failed to start: ${f.value ?? ''}`,
  },
  {
    // An uncaught C++ exception aborts the process (SIGABRT); its `what():` line follows.
    id: 'native-exception',
    class: 'unknown',
    weight: 21,
    needles: ['terminate called'],
    pattern: /terminate called after throwing an instance of '([^']+)'/,
    samples: ["terminate called after throwing an instance of 'c10::Error'"],
    facts: (m) => ({ kind: m[1] ?? '' }),
    summary: (f) =>
      `native code threw ${f.kind ?? 'an exception'} that nothing caught, and the process aborted`,
  },
  {
    // A traceback's header with no error line after it (a log cut off inside it): an error, of an unknown kind.
    id: 'traceback-cut',
    class: 'unknown',
    weight: 5,
    untilNextPhase: true,
    needles: ['Traceback'],
    pattern: TRACEBACK_HEADER,
    samples: ['Traceback (most recent call last):'],
    summary: (f) =>
      f.value === undefined || f.value === ''
        ? 'the server printed a traceback, but the log ends before its error line'
        : `the server logged the error "${f.value}", and the log ends inside its traceback`,
  },
  {
    // A GPU runtime call that failed, without a Python exception around it: a native kernel's own check that exits the
    // process (vLLM's custom all-reduce: `Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:164 'invalid
    // argument'`), or torch's message logged alone (`ERROR … engine.py:366] HIP error: invalid argument`). Above a
    // worker's death that follows it; the phase or a frame gives it a class (during capture: graph-capture-failed).
    id: 'gpu-runtime-error',
    class: 'unknown',
    weight: 39,
    needles: ['Cuda error', 'HIP error', 'CUDA error'],
    pattern: /^Failed: (?:Cuda|HIP) error (\S+?:\d+) '([^']+)'|^(?:CUDA|HIP) error: (.+)$/,
    samples: [
      "Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:164 'invalid argument'",
      'HIP error: invalid argument',
    ],
    facts: (m) => ({ value: m[2] === undefined ? (m[3] ?? '').trim() : `${m[2]} (at ${m[1] ?? ''})` }),
    summary: (f) => `a GPU runtime call failed: ${f.value ?? ''}`,
  },
  {
    // An exception whose message names a command-line option as the remedy (`… Pass --numa-bind-nodes explicitly or
    // disable --numa-bind.`): the engine refused its settings. Just above a bare exception; a message about memory
    // (`Increase --mem-fraction-static`) is left to the memory rules.
    id: 'remedy-names-option',
    class: 'invalid-value',
    weight: 21,
    needles: ['--'],
    pattern: new RegExp(
      String.raw`(?:Error|Exception): ((?!.*(?:[Mm]emory|KV|pool|OOM|mem-fraction)).*\b${REMEDY_VERB}(?: the| a)?(?: smaller| larger| lower| higher)?(?: flag| option| argument| value of)? [\x60'"]?--[a-z].*)$`,
    ),
    samples: [
      'RuntimeError: NUMA binding was requested, but the GPU-to-NUMA topology could not be detected automatically. Pass --numa-bind-nodes explicitly or disable --numa-bind.',
    ],
    // The first option the message names as the remedy.
    facts: (m) => ({
      value: (m[1] ?? '').trim(),
      flag: FIRST_REMEDY_OPTION.exec(m[1] ?? '')?.[1] ?? '',
    }),
    summary: (f) =>
      `the server refused its settings and names ${f.flag ?? 'an option'} as the fix: ${f.value ?? ''}`,
  },
  {
    // A launcher or test harness that waits for the server gave up on its own timeout (SGLang's test utilities:
    // `TimeoutError: Server failed to start within the timeout period.`): the server was alive but never got ready.
    // Weighted just above the exception lines it raises, below any error of the server's own.
    id: 'launcher-timeout',
    class: 'hang',
    weight: 25,
    needles: ['within '],
    pattern: /[Ss]erver (?:failed to start|did not (?:start|become ready)) within (?:the timeout|\d)/,
    samples: ['TimeoutError: Server failed to start within the timeout period.'],
    summary: () =>
      'the launcher waiting for the server gave up on its own timeout: the server was still starting, with no error of its own',
  },
  {
    // A program that words its fatal error as a bare `Error: …` line (Node's uncaught errors, Rust's anyhow, Go):
    // the last resort, below any named exception. A single word is a launcher naming the kind of a failure told
    // above it (TGI's `Error: DownloadError`), not the failure.
    id: 'bare-error',
    class: 'unknown',
    weight: 19,
    fallback: true,
    needles: ['Error: '],
    pattern: /^Error: (\S+\s.*)$/,
    samples: ["Error: Cannot find module '/srv/server.mjs'"],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `the program stopped with the error: ${f.value ?? ''}`,
  },
  {
    id: 'python-exception',
    class: 'unknown',
    weight: 20,
    fallback: true,
    needles: ['Error', 'xception', '.exc.', 'errors.'],
    // Any class named …Error or …Exception, or any class of a module of exceptions (`torch._dynamo.exc.Unsupported`,
    // `…exceptions.X`, `…errors.X`). asyncio's CancelledError is a task cancelled because something else ended the
    // start, never the cause; so is Ray's ActorDiedError (an actor's death told to its caller: Ray's lines around it
    // say how it died).
    pattern: new RegExp(
      String.raw`^(?:[\w.]+\.)?(?!(?:CancelledError|ActorDiedError|RayActorError)\b)(?:([A-Z]\w*(?:Error|Exception))|${AFTER_EXCEPTION_MODULE}([A-Z]\w*))(?::\s*(.*))?$`,
    ),
    samples: [
      'ValueError: bad value',
      'torch._dynamo.exc.Unsupported: Attempted to inline function marked as skipped',
      'triton.compiler.errors.CompilationFailed: at 12:4',
    ],
    facts: (m) => ({ kind: m[1] ?? m[2] ?? '', value: m[3] ?? '' }),
    summary: (f) =>
      `the server raised ${f.kind ?? 'an exception'}${f.value === '' || f.value === undefined ? '' : `: ${f.value}`}`,
  },
];

// torch's own CUDA graph capture (`with torch.cuda.graph(…)` entering or leaving it): an error below this frame broke
// a capture, whichever engine ran it and whether or not its progress bar is in the log.
export const TORCH_CAPTURE_FRAME: FrameContext = {
  class: 'graph-capture-failed',
  label: 'CUDA graph capture failed',
  needle: 'graphs.py',
  pattern: /torch[\\/]cuda[\\/]graphs\.py", line \d+,? in (?:capture_begin|capture_end|__enter__|__exit__)\b/,
  samples: ['File "/venv/lib/python3.12/site-packages/torch/cuda/graphs.py", line 130, in capture_end'],
};

// torch's CUDA graph object in the native stack printed below an uncaught C++ exception (`frame #3:
// at::cuda::CUDAGraph::~CUDAGraph() + 0x4c (… libtorch_cuda.so)`): the crash happened in graph capture or teardown.
const TORCH_NATIVE_GRAPH_FRAME: FrameContext = {
  class: 'graph-capture-failed',
  label: 'CUDA graph capture failed',
  needle: 'CUDAGraph::',
  pattern: /^frame #\d+: at::cuda::CUDAGraph::/,
  samples: [
    'frame #3: at::cuda::CUDAGraph::~CUDAGraph() + 0x4c (0x7e6cc6ab2acc in /usr/local/lib/python3.12/dist-packages/torch/lib/libtorch_cuda.so)',
  ],
};

// Traceback frames that place the error below them in one step of the start: torch's capture, and the engines' own
// steps (SGLang's warm-up, the engines' capture loops).
export const FRAME_CONTEXTS: readonly FrameContext[] = [
  TORCH_CAPTURE_FRAME,
  TORCH_NATIVE_GRAPH_FRAME,
  ...NAMED_ENGINES.flatMap((spec) => spec.frameContexts ?? []),
];
