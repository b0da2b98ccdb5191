// The cheap prefilter in front of the expensive rules: literals of which every line a rule can match contains one.
// A line with none of them can change neither the diagnosis nor the phase, so a 1 GB log is searched for these
// literals only (String#indexOf is a Boyer-Moore search: far faster than one regular expression per line).
import { NAMED_ENGINES } from '../engines/index.ts';
import { escapeRegExp } from '../regexp.ts';
import { FRAME_CONTEXTS } from './signatures.ts';

// The prefilter is a cover: every line a failure signature matches contains one of ERROR_NEEDLES (a test checks
// each signature's sample lines and every fixture line). Needles are also chosen to be fast to search for: at most
// six characters (V8 then scans for the first character with memchr), or longer with a rare first character.
export const ERROR_NEEDLES: readonly string[] = [
  'rror', // Error, error: exceptions, argparse, NCCL error, [Errno 98] error, Value error, Bus error
  'ERROR', // oneCCL's `|CCL_ERROR|`; a line logged at error level: loggers print an exception's message alone (vLLM's `[engine.py:448] <message>`)
  'xcepti', // Exception, exception
  'shared obj', // a native logger's `Failed to load plugin …: libfabric.so.1: cannot open shared object file`
  'ptxas', // `ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'`
  'nvcc fatal', // `nvcc fatal   : Unsupported gpu architecture 'compute_121a'`
  'find option named', // an LLVM-based compiler without the chip's target: `for the --target option: Cannot find option named 'X'!`
  '.exc.', // a class of a module of exceptions: `torch._dynamo.exc.Unsupported: …`
  'failed',
  'Killed',
  'xFormers wasn', // `xFormers wasn't build with CUDA support`, among the reasons it lists for no kernel
  'Unsupported arch', // early SGLang's `Unsupported architectures: LlamaModel`, pasted without its exception
  'placement group', // vLLM with Ray: more ranks than GPUs; `Waiting for creating a placement group of specs for 30 seconds`
  'non-zero status', // NVSHMEM's bare status line: `…/ibrc.cpp:1433: non-zero status: 7`
  'gnal', // signal N, Signals.SIGKILL
  'xit', // Exit code: -9, exit code 137, exitcode: -9, vLLM `MPClient: engine core exited unexpectedly`
  'died',
  'dead',
  'NCCL',
  'CUDA', // CUDA out of memory, CUDA error, Failed to CUDA calloc
  'Gloo',
  'gloo/', // gloo's own enforce failure: `[enforce fail at /pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:456] …`
  'watchd',
  'Watchd',
  'Segmen',
  'Segfa', // `Segfault encountered` banners of native stack printers
  'Illega',
  'Aborted',
  'Symbol', // HIP's loader: `hip_global.cpp:117 : … us:  Cannot find Symbol with name: …`
  'be installed', // a library naming a package it needs: `Form data requires "python-multipart" to be installed.`
  'not exist', // a torch operator an extension lacks, quoted bare: `operator torchvision::nms does not exist`
  'warmup',
  'CPU b', // vLLM V0 `# GPU blocks: 0, # CPU blocks: 256`
  'value -', // SGLang `... is larger than the profiled value -N`
  'enough', // Not enough memory ...
  'No available memory', // vLLM's cache-blocks error as a wrapper prints it, its message alone on a line (Unsloth's `Error:` then the message)
  'already allocated', // docker `Bind for 0.0.0.0:9001 failed: port is already allocated`
  'bound already', // Ascend HCCL `The IP address and port have been bound already.`
  'EI0', // Ascend HCCL's error codes: `Get_Socket_Timeout(EI0006): Getting socket times out.`
  'EL0004', // Ascend's runtime out of device memory: `EL0004: [PID: 3132] … Failed to allocate memory.`
  'ErrCode=', // Ascend's runtime naming a failed call's code: `rtGetDevMsg:ErrCode=107002, desc=[context pointer null]`
  '9999: ', // Ascend's runtime errors by their CANN code: `EZ9999: [PID: 326600] … The error from device(…)`
  'not subscriptable', // `TypeError: type 'list' is not subscriptable` (code for a newer Python)
  'ecutab', // a container runtime's `exec: "vllm": executable file not found in $PATH`
  'ut of memory', // `NPU out of memory. Tried to allocate …` in a native error's `what():` line (no error word)
  'rashed', // TGI `Shard 0 crashed`, `Webserver Crashed`
  'annot start', // TGI `Shard cannot start`
  'gated', // Cannot access gated repo ...
  'Bfloat16', // Bfloat16 is only supported on GPUs with compute capability ...
  'OutOfRes', // triton OutOfResources
  'but got', // X only supports Y, but got Z
  'faulty rank', // Please check rank 0 logs for faulty rank
  'max seq len', // vLLM `The model's max seq len (N) is larger than the maximum number of tokens ...`
  'on startup', // vLLM `Free memory on device (...) on startup ...`
  'in PATH', // TGI `text-generation-server not found in PATH`
  // `zsh: command not found: vllm`, dash's `/bin/sh: 1: nvcc: not found` (`: not found` would add a first character
  // to the scan's set and made it 1.6x slower)
  'not found',
  'does not match', // `flashinfer-cubin version (0.6.13) does not match flashinfer version (0.6.14)`
  'C compiler', // Triton `Failed to find C compiler`
  'C++ compiler', // torch inductor `InvalidCxxCompiler: No working C++ compiler found`
  'terminate called', // C++ `terminate called after throwing an instance of ...`
  '], thread: [', // a GPU kernel's device-side assert: `… block: [0,0,0], thread: [64,0,0] Assertion …`
  'ArgumentValidation', // TGI launcher `Error: ArgumentValidation("...")`
  'client socket has', // torch.distributed socket and store timeouts
  'se from', // a named choice refused
  'undefined symbol', // a compiled extension built against another release, its error on a line of its own
  'not initialized from checkpoint', // vLLM's loader: parameters no tensor filled
  'No backend type', // torch.distributed process group without a backend for a device
  '"GET http', // a request line in absolute form: sent through an HTTP proxy
  '"POST http',
  'Memory access fault by GPU', // ROCm's runtime aborting on a GPU page fault
  'KV cache memory: -', // vLLM's INFO line with no memory left for the KV cache
  'waitForInput',
  'assert', // a quoted `assert …shape…` line above a bare AssertionError
  // a KeyError logged through str(): the quoted key alone, ending in a parameter's last name
  "weight'",
  "bias'",
  "scale'",
  "scales'",
  "absmax'",
  "qzeros'",
  "g_idx'",
  'Traceback', // a traceback whose error line was cut off
  'already in use', // port in use, also without an error word (`message: address already in use`)
  'EADDRINUSE',
  'panicked at',
  'ailed to start', // `Failed to start model server: …`
  'too old', // `UserWarning: … The NVIDIA driver on your system is too old`
  'derived max_model_len', // vLLM `User-specified max_model_len (N) is greater than the derived max_model_len`
  'core dumped', // `Quit (core dumped)`
  'received at time', // abseil `*** SIGBUS received at time=…`
  'with arguments from the', // torch `Could not run 'ns::op' with arguments from the 'CUDA' backend`
  'currently imported', // transformers `Tokenizer class X does not exist or is not currently imported`, bare
  'CONFIG_MAPPING', // transformers `config_class = CONFIG_MAPPING[config_dict["model_type"]]` above a KeyError
  // a frame of a step of the start (torch's graph capture, an engine's warm-up) above the error that broke it
  ...FRAME_CONTEXTS.map((context) => context.needle),
  'No platform', // vLLM's notice that it found no device platform, which a later unnamed failure comes from
  'PyTorch but', // the second half of torch's out-of-memory message, alone: `… is reserved by PyTorch but unallocated`
  'sigquit', // SGLang's launcher told by a failing child: `Received sigquit from a child process.`
  'unbalanced', // SGLang's check of free memory across GPUs, as a message built apart from its raise (0.5.9 on)
  '.cu', // a native kernel's own check naming its source: `Failed: /workspace/csrc/custom_all_reduce.cuh:368 'invalid argument'`
  'cannot find -l', // the linker of a kernel built at run time: `/usr/bin/ld: cannot find -lcudart`
  'Failed to find a kernel', // vLLM: no kernel for a quantized layer on this GPU
  'requires capability', // … each candidate kernel's `requires capability 90, current 89`
  'in this architecture', // Triton's `type fp8e4nv not supported in this architecture`, its message alone
  'Expected', // `Unsupported X: V. Expected A, B, or C`
  'forward compat', // CUDA error 804 worded through cudaGetDeviceCount()
  'unexpected keyword', // `X.__init__() got an unexpected keyword argument 'y'` after a wrapper's prefix
  'ailed to import', // a launcher embedding Python: `Failed to import python 'vllm' module.`
  'invalid device ordinal', // a rank opening a GPU the process cannot see
  'valid device range', // the same on Ascend: `Set device failed, invalid device, set device=1, valid device range is [0, 1)`
  ' build does not support', // a kernel library built without a feature the model needs
  // a model or feature that needs another attention backend (`… requires TritonAttnBackend.`)
  'ttention backend',
  'ttention_backend',
  'AttnBackend',
  'AttentionBackend',
  // IPython's traceback frames, a cell's and a file's: which one raised the error (diagnoser.ts, raisedInCell)
  'Cell In[',
  'File ~',
  'File /',
  'needed', // vLLM `... GiB KV cache is needed, which is larger than ...` (a wrapped line without the max seq len)
];

// Lines that begin a start (so a restarted server is tracked again), engine hints and stop lines; always searched.
export const ALWAYS_NEEDLES: readonly string[] = [
  'Args',
  'KeyboardInterrupt',
  // A launcher's word that the server is up at its URL (diagnoser.ts, LAUNCHER_SAYS_UP).
  'launched',
  'started',
  ' is up',
  'is ready',
  'are ready',
  'are all ready',
  'is now ready',
  'up and running',
  'loaded in', // a caller's word: `vLLM Engine loaded in 140.8s`
  'lized in',
  'is running',
  'registration succeeded',
  'Starting main benchmark', // a serving benchmark's test request answered (diagnoser.ts, LAUNCHER_SAYS_UP)
  'has been initiali',
  ...NAMED_ENGINES.flatMap((engine) => engine.hintNeedles),
  ...NAMED_ENGINES.flatMap((engine) => (engine.stopLines ?? []).map((rule) => rule.needle)),
];

// Engine hints that only a serving server prints, line after line: after the start got through, a file's search skips
// them (a day of SGLang's `Decode batch` lines would otherwise all be read).
export const SERVING_HINT_NEEDLES: readonly string[] = NAMED_ENGINES.flatMap(
  (engine) => engine.servingHintNeedles ?? [],
);

// Phase and ready lines, from each engine's rules; searched until the start reached its ready line (then only a
// restart brings them back).
export const PHASE_NEEDLES: readonly string[] = [
  ...new Set(NAMED_ENGINES.flatMap((engine) => engine.phaseNeedles)),
];

// Drops duplicates and needles that contain another needle (the shorter one already finds those lines).
export const minimizeNeedles = (needles: readonly string[]): string[] => {
  const unique = [...new Set(needles)].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const needle of unique) if (!kept.some((shorter) => needle.includes(shorter))) kept.push(needle);
  return kept;
};

// One regular expression that finds any of the needles in a single line.
export const needleRegExp = (needles: readonly string[]): RegExp =>
  new RegExp(needles.map(escapeRegExp).join('|'));
