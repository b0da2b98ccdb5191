// Failure signatures shared by every engine, wrappers that only point elsewhere; they name the failure when nothing
// better is in the log.
import type { Signature } from '../facts.ts';
import { AFTER_EXCEPTION_MODULE, EXCEPTION_CLASS } from '../exception-modules.ts';
import { REMEDY_VERB, FIRST_REMEDY_OPTION, TRACEBACK_HEADER } from './shared.ts';

export const POINTER_SIGNATURES: readonly Signature[] = [
  // --- wrappers that only point elsewhere; they name the failure when nothing better is in the log.
  {
    // A Rust program's panic (TGI's launcher and router): the process ends; the message says why.
    id: 'rust-panic',
    class: 'unknown',
    weight: 21,
    needles: ['panicked at'],
    // Rust before 1.73 put the message first: `panicked at 'message', src/main.rs:213:18`.
    pattern: /thread '[^']*' panicked at (?:'(.*)', (\S+:\d+:\d+)|([^\s:]+(?::\d+){0,2}):?\s*(.*))$/,
    samples: [
      "thread 'main' panicked at router/src/infer.rs:324:14: called `Result::unwrap()` on an `Err` value",
      "thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: Io', launcher/src/main.rs:1013:54",
    ],
    facts: (m) => ({ frame: m[2] ?? m[3] ?? '', value: m[1] ?? m[4] ?? '' }),
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
    needles: ['Cuda error', 'HIP error', 'CUDA error', '.cu'],
    // A message may relay it after its own words (vLLM 0.6's `Error in model execution: CUDA error: …`). Some releases'
    // check names only the source file: `Failed: /workspace/csrc/custom_all_reduce.cuh:368 'invalid argument'`.
    pattern:
      /^Failed: (?:(?:Cuda|HIP) error (\S+?:\d+)|(\S+?\.cuh?:\d+)) '([^']+)'|^(?:[A-Z][^:]{2,60}: )?(?:CUDA|HIP) error: (.+)$/,
    samples: [
      "Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:164 'invalid argument'",
      "Failed: /workspace/csrc/custom_all_reduce.cuh:368 'invalid argument'",
      'HIP error: invalid argument',
      'Error in model execution: CUDA error: an illegal memory access was encountered',
    ],
    facts: (m) => ({
      value: m[3] === undefined ? (m[4] ?? '').trim() : `${m[3]} (at ${m[1] ?? m[2] ?? ''})`,
    }),
    summary: (f) => `a GPU runtime call failed: ${f.value ?? ''}`,
  },
  {
    // A CUDA error that NCCL's watchdog thread met and relayed (`Process group watchdog thread terminated with exception:
    // CUDA error: an illegal memory access was encountered`, then `c10::DistBackendError`): the GPU failed, not the
    // collective. Weighted above NCCL's own errors; the phase or a frame gives it a class, as for any GPU runtime error.
    id: 'watchdog-relayed-cuda-error',
    class: 'unknown',
    weight: 86,
    needles: ['watchdog thread terminated'],
    pattern: /watchdog thread terminated with exception: CUDA error: (.+?)\s*$/,
    samples: [
      '[rank0]:[E520 03:47:04.619668070 ProcessGroupNCCL.cpp:1896] [PG ID 2 PG GUID 3 Rank 0] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `a GPU runtime call failed, and NCCL's watchdog relayed it: ${f.value ?? ''}`,
  },
  {
    // A GPU kernel's own assertion (CUDA's and Triton's device-side asserts print the kernel's source line, the block
    // and thread, then the failed condition): the process cannot go on. The Python error that may follow
    // (`CUDA error: device-side assert triggered`), or a traceback after it, says where it broke: weighted below both.
    id: 'device-assert',
    class: 'unknown',
    weight: 4,
    needles: ['], thread: ['],
    pattern:
      /\bblock: \[\d+,\d+,\d+\], thread: \[\d+,\d+,\d+\] Assertion [`'](.+?)[`'] failed|\bblock: \[\d+,\d+,\d+\], thread: \[\d+,\d+,\d+\] Assertion [`'](.+)$/,
    samples: [
      '/root/.cache/torchinductor/se/cse.py:62: unknown: block: [486,0,0], thread: [8,0,0] Assertion `index out of bounds: 0 <= tmp34 < 128256` failed.',
      '../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [0,0,0], thread: [64,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed.',
    ],
    facts: (m) => ({ value: (m[1] ?? m[2] ?? '').trim() }),
    summary: (f) => `a GPU kernel's assertion failed: ${f.value ?? ''}`,
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
    // A serving wrapper's word that the engine it embeds did not start, quoting the error (Triton's Python backend:
    // `Failed to initialize Python stub: ValueError: …`, `[<engine>] Failed to start engine: …`): below any named
    // exception the quoted text matches on its own.
    id: 'wrapper-start-failed',
    class: 'unknown',
    weight: 19,
    fallback: true,
    needles: ['ailed to '],
    pattern: /\bFailed to (?:start (?:the )?engine|initialize Python stub): (.+?)"?$/,
    samples: [
      'pb_stub.cc:366] "Failed to initialize Python stub: ValueError: signal only works in main thread of the main interpreter',
      'model.py:244] "Failed to start engine: signal only works in main thread of the main interpreter"',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `the serving wrapper could not start the engine: ${f.value ?? ''}`,
  },
  {
    // An operating-system error a program reports in its own words (`LLM init error: [Errno 122] Disk quota
    // exceeded`): Python's text of an OSError without the exception's name. Below any named exception.
    id: 'os-error-reported',
    class: 'unknown',
    weight: 19,
    fallback: true,
    needles: ['[Errno '],
    pattern: /\b[Ee]rror: \[Errno (\d+)\] (.+)$/,
    samples: ['LLM init error: [Errno 122] Disk quota exceeded'],
    facts: (m) => ({ value: `${(m[2] ?? '').trim()} (errno ${m[1] ?? ''})` }),
    summary: (f) => `the server stopped on an operating-system error: ${f.value ?? ''}`,
  },
  {
    // Ascend's runtime listing an error by its CANN code (`EZ9999: [PID: 326600] 2025-04-27-17:10:32.990.354 The error
    // from device(chipId:5, dieId:0), … there is an aivec error exception`), where no Python error names it: the
    // device failed, for a reason the code's text gives. Below any named exception.
    id: 'npu-error-code',
    class: 'unknown',
    weight: 19,
    fallback: true,
    needles: ['9999: '],
    pattern: /^E[A-Z]9999: (?:\[PID: \d+\] \S+ )?(?!Inner Error!?$)(.+?)\s*$/,
    samples: [
      'EZ9999: [PID: 326600] 2025-04-27-17:10:32.990.354 The error from device(chipId:5, dieId:0), serial number is 3, there is an aivec error exception',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `the NPU runtime reported a device error: ${f.value ?? ''}`,
  },
  {
    // Ascend's runtime naming a failed call by its error code and reason (`rtGetDevMsg:ErrCode=107002, desc=[context
    // pointer null]`), where no Python error names it: the device could not be used, for the reason given. Below any
    // named exception.
    id: 'npu-runtime-errcode',
    class: 'unknown',
    weight: 19,
    fallback: true,
    needles: ['ErrCode='],
    pattern: /^(\w+):ErrCode=(\d+), desc=\[([^\]]+)\]/,
    samples: ['rtGetDevMsg:ErrCode=107002, desc=[context pointer null], InnerCode=0x7070001'],
    facts: (m) => ({ value: `${m[1] ?? ''} failed with error ${m[2] ?? ''} (${m[3] ?? ''})` }),
    summary: (f) => `the NPU runtime reported an error: ${f.value ?? ''}`,
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
      String.raw`^(?:[\w.]+\.)?(?!(?:CancelledError|ActorDiedError|RayActorError)\b)(?:(${EXCEPTION_CLASS})|${AFTER_EXCEPTION_MODULE}([A-Z]\w*))(?::\s*(.*))?$`,
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
