// vLLM's log line shapes (docs/engines/log-patterns.md): phases and heartbeats, V0 (≤0.7) and V1 shapes.
// Patterns match normalised messages (process tags, level and location removed).
import type { LineRule, PhaseRule, StopRule } from '../types.ts';

// Lines that prove the process is alive but not moving forward; they never reset the stall timer.
export const VLLM_HEARTBEATS: RegExp[] = [
  /Waiting for \d+ local, \d+ remote core engine proc\(s\) to start\./,
  /No available shared memory broadcast block found in \d+ seconds?/,
  /"GET \/health HTTP\/1\.[01]" (?:503|500)/,
];

// vLLM has no decisive ready line: this one only means uvicorn started (it is printed before the socket binds).
// `Supported tasks: […]` (the API server's, and the offline LLM class's up to 0.18), `Starting vLLM API server N on URL`
// and the route list are printed once the engine client is up, right before the HTTP server takes requests (the LLM
// class returns): a pasted log that ends there shows a start that got through.
// A served request (uvicorn's access line), a request the engine took (`Added request chatcmpl-….`: behind another
// HTTP front end, such as Ray Serve's, uvicorn prints nothing) or the serving metrics line shows the same.
export const VLLM_STARTED_LINE =
  /^Application startup complete\.|^Supported[_ ]tasks: |^Starting vLLM (?:API )?server (?:\d+ )?on |^Available routes are:|^Route: \/\S*, Methods: |"(?:GET|POST|HEAD|PUT|DELETE) \/\S* HTTP\/[\d.]+" \d{3}|^(?:Engine \d+: )?Avg prompt throughput: |^Added request \S+\.$|\bduring inference: .*\bThis causes a latency spike\b/;

// The app started (from V1 the engine is up by then: what fails later fails while serving; a port found taken when
// uvicorn binds after it is told apart by its class), a request answered (uvicorn's access line; a 5xx from /health is
// a start still warming up), the serving metrics, or the dump of a failed step's scheduled requests (only requests
// go through the scheduler: the start's profiling and warm-up runs do not), the engine core's word that its busy loop
// failed (`EngineCore encountered a fatal error.`: a failed start says `EngineCore failed to start.`), a request's
// stream that failed, the client's word that its engine core died (`EngineDeadError`: a core that dies while starting
// fails the client's start instead), or the offline LLM class's progress bars over the prompts it was given
// (`Adding requests: 100%|…`, `Processed prompts: 100%|…`, from 0.19 `Rendering prompts: 0%|…`: drawn once the engine is up), or a V1 engine core's
// traceback through its busy loop (`in run_busy_loop`: the loop that runs requests starts once the core is up), or
// a failed call a client made on the running core (`Invocation of sleep method failed`), or the V1 client's output
// handler failing (`AsyncLLM output_handler failed.`, a traceback through `output_handler` or `get_output_async`: it
// runs once the engine cores have answered their start, and fails on what they sent back), or uvicorn's own shutdown
// (`Waiting for application shutdown.`: uvicorn runs it only after its startup, which comes after the engine's), or
// sleep mode put to use (`It took 3.7 seconds to fall asleep.`, `… to wake up tags …`: asked of a running engine), or
// a request handler of its OpenAI server failing (`Error in preprocessing prompt inputs`, a traceback through
// `serving_chat.py … in create_chat_completion`: a client's request reached it, also where a host such as Ray Serve
// prints no uvicorn line), or the kernel JIT monitor's word that a kernel compiled during inference (`Triton kernel JIT
// compilation during inference: … This causes a latency spike`, vLLM main: it watches only after the warm-up).
export const VLLM_SERVING_LINE =
  /^Application startup complete\.|^It took [\d.]+ seconds to (?:fall asleep|wake up)\b|^Waiting for application shutdown\.|^AsyncLLM output_handler failed\.|^File "[^"]*\/v1\/engine\/core\.py", line \d+, in run_busy_loop$|^File "[^"]*\/v1\/engine\/(?:async_llm|core_client)\.py", line \d+, in (?:output_handler|get_output_async)$|^Invocation of \w+ method failed$|"(?:GET|POST|HEAD|PUT|DELETE) \/\S* HTTP\/[\d.]+" [1-4]\d\d|^(?:Engine \d+: )?Avg prompt throughput: |^Added request \S+\.$|^Dumping (?:input data for V1 LLM engine|scheduler output for model execution|scheduler stats)\b|^EngineCore encountered a fatal error\.|^Error in chat completion stream generator\.|^Error in preprocessing prompt inputs$|^File "[^"]*\/entrypoints\/openai\/\S*serving\w*\.py", line \d+, in create_\w+$|\bEngineDeadError: EngineCore (?:encountered an issue|error: )|^(?:Adding requests|Processed prompts|Rendering prompts): +\d+%\||\bduring inference: .*\bThis causes a latency spike\b/;

// The engine run by the offline `LLM` class in the caller's process: its start begins at the engine's config line
// (`Initializing an LLM engine (v0.6.6) with config: …`, from 0.8 `a V0 LLM engine`, and V1's `a V1 LLM engine` where
// no `(EngineCore_DP0 pid=…)` tag marks an engine process of its own, as up to 0.9), and the constructor returns after
// its last step, `init engine (profile, create kv cache, warmup model) took 70.40 seconds` (0.6 and later) or, before
// that line existed, `Graph capturing finished in 11 secs.`. The API server says so first (`vLLM API server version`,
// its `args:`, its engine process) and prints its own lines after; a tagged V1 engine core's start is a server's
// as often (`Supported_tasks` from `llm.py` says an offline one returned).
export const VLLM_IN_PROCESS_START = {
  begin: /^Initializing (?:an|a V[01]) LLM engine \(v/,
  tagged: /\(EngineCore\w*(?: pid=\d+)?\)/,
  done: /^init engine \(profile, create kv cache, warmup model\) took [\d.]+ s|^Graph capturing finished in \d+ secs?\b/,
  server:
    /vLLM API server version|^args: Namespace\(|^non-default args: |^Started engine process with PID|\bapi_server\b|^Started server process|^Uvicorn running/,
} as const;

// The capture's end: `Graph capturing finished in 16 secs, took 0.13 GiB`.
export const VLLM_CAPTURE_ENDS = /^Graph capturing finished in /;

const bar = (match: RegExpExecArray): { done: number; total: number } | null =>
  match[1] === undefined || match[2] === undefined
    ? null
    : { done: Number(match[1]), total: Number(match[2]) };

const BAR_COUNTS = String.raw`:?\s*\d{1,3}%(?:\|[^|]*\||\s+Completed\s*\|)\s*(\d+)\/(\d+)`;

/** A phase shape with the lines that show it, for the catalogue test. */
export type SampledRule = PhaseRule & { samples: readonly string[] };

// In phase order. torch.compile runs before KV-cache sizing in V1; the API server comes up last.
export const VLLM_PHASES: SampledRule[] = [
  {
    // Up to 0.14: `vLLM API server version X`.
    phase: 'process-up',
    pattern: /^vLLM API server version /,
    releases: { until: '0.15.0' },
    samples: ['vLLM API server version 0.8.5.post1'],
  },
  {
    // From 0.15: `vLLM server version X, serving model Y` (after a logo block).
    phase: 'process-up',
    pattern: /^vLLM server version \S+, serving model /,
    releases: { since: '0.15.0' },
    samples: ['vLLM server version 0.20.1, serving model Qwen/Qwen3-8B'],
  },
  {
    // Printed on import: also by SGLang's workers where SGLang imports vLLM's kernels.
    phase: 'process-up',
    pattern: /^Automatically detected platform /,
    printedOnImport: true,
    // Not in 0.6.6.post1's sources; seen in 0.7.2 logs (February 2025).
    releases: { since: '0.7.0' },
    samples: ['Automatically detected platform cuda.'],
  },
  {
    phase: 'process-up',
    pattern: /^non-default args: |^Initializing an? (?:V[01] )?LLM engine /,
    samples: [
      "non-default args: {'model': 'm'}",
      'Initializing an LLM engine (v0.6.6.post1) with config: model=m',
      "Initializing a V0 LLM engine (v0.8.5.post1) with config: model='m', seed=0, use_cached_outputs=False, ",
    ],
  },
  {
    phase: 'dist-init',
    pattern: /^rank \d+ in world size \d+ is assigned as |^vLLM is using nccl==|^world_size=\d+ rank=\d+/,
    samples: ['vLLM is using nccl==2.27.3'],
  },
  {
    phase: 'weight-load',
    pattern:
      /^Starting to load model |^Loading weights took |^Model loading took |^Loading model weights took |^Loading drafter model/,
    samples: [
      'Loading weights took 4.12 seconds',
      'Model loading took 15.3 GiB and 5.01 seconds',
      'Loading model weights took 15.2 GB',
    ],
  },
  {
    phase: 'weight-load',
    pattern: new RegExp(String.raw`^Loading (?:safetensors|pt) checkpoint shards${BAR_COUNTS}`),
    progress: bar,
    origin: 'dependency',
    samples: [],
  },
  {
    phase: 'compile',
    pattern:
      /for vLLM's torch\.compile$|^Dynamo bytecode transform time|^Compiling a graph for|^Directly load the compiled graph|^torch\.compile takes /,
    samples: ['Dynamo bytecode transform time: 7.21 s'],
  },
  {
    // From 0.19 the memory profiling that sizes the KV cache says so first: `Initial profiling/warmup run took 0.55 s`,
    // then `Profiling CUDA graph memory: PIECEWISE=51 (largest=512), FULL=51 (largest=512)`.
    phase: 'kv-cache',
    pattern: /^Initial profiling\/warmup run took [\d.]+ s|^Profiling CUDA graph memory: /,
    releases: { since: '0.19.0' },
    samples: [
      'Initial profiling/warmup run took 0.55 s',
      'Profiling CUDA graph memory: PIECEWISE=51 (largest=512), FULL=51 (largest=512)',
    ],
  },
  {
    // vLLM main merged `GPU KV cache size: N tokens` and `Maximum concurrency ...` into one line.
    phase: 'kv-cache',
    pattern:
      /^Available KV cache memory: |^GPU KV cache size: |^# (?:GPU|cuda) blocks: |^Memory profiling takes |^Maximum concurrency for /,
    samples: [
      'GPU KV cache size: 452,864 tokens',
      'Available KV cache memory: 52.31 GiB',
      'GPU KV cache size: 452,864 tokens, Maximum concurrency for 40,960 tokens per request: 11.06x',
      '# GPU blocks: 2000, # CPU blocks: 512',
    ],
  },
  {
    phase: 'graph-capture',
    pattern: /^Capturing the model for CUDA graphs|^Graph capturing finished in /,
    samples: ['Graph capturing finished in 12 secs, took 0.54 GiB'],
  },
  {
    phase: 'graph-capture',
    pattern: new RegExp(String.raw`^Capturing CUDA graphs?(?: shapes| \([^)]*\))${BAR_COUNTS}`),
    progress: bar,
    releases: { since: '0.8.0' },
    samples: [
      'Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 100%|██████████| 67/67 [00:03<00:00, 19.50it/s]',
      'Capturing CUDA graph shapes: 100%|██████████| 67/67 [00:25<00:00,  2.61it/s]',
    ],
  },
  {
    phase: 'warmup',
    pattern:
      /^init engine \(profile, create kv cache, warmup model\) took |^(?:Readonly )?Multi-modal warmup completed/,
    samples: ['init engine (profile, create kv cache, warmup model) took 41.20 seconds'],
  },
  {
    phase: 'http-up',
    pattern: /^Starting vLLM (?:API )?server (?:\d+ )?on /,
    releases: { since: '0.8.0' },
    samples: [
      'Starting vLLM server on http://0.0.0.0:8000',
      'Starting vLLM API server 0 on http://0.0.0.0:8000',
      'Starting vLLM API server on http://0.0.0.0:8000',
    ],
  },
  {
    // vLLM main: its first line after the socket is bound.
    phase: 'http-up',
    pattern: /^API server: HTTP server started/,
    releases: { since: 'main' },
    samples: ['API server: HTTP server started'],
  },
  {
    phase: 'http-up',
    pattern:
      /^Available routes are:|^Started server process \[\d+\]|^Uvicorn running on |^Application startup complete\./,
    origin: 'dependency',
    samples: [],
  },
];

// A request logged with its prompt and parameters (--enable-log-requests): user text, never a failure.
export const VLLM_QUOTED_LINES: LineRule[] = [
  {
    pattern: /^Received request \S+: (?:prompt|params): /,
    samples: [
      "Received request chatcmpl-4bb3: prompt: 'is not divisible by n', params: SamplingParams(n=1), prompt_token_ids: None, lora_request: None, prompt_adapter_request: None.",
      'Received request cmpl-1: params: SamplingParams(n=1), lora_request: None.',
    ],
  },
];

// A stop the server was asked for: a signal (main's shutdown trace) or Ctrl-C with several API servers.
export const VLLM_STOP_LINES: StopRule[] = [
  {
    pattern: /^(?:\[shutdown\] )?(?:API server: shutdown triggered|EngineCore: trigger received signal=)/,
    needle: '[shutdown] ',
    releases: { since: 'main' },
    samples: [
      '[shutdown] API server: shutdown triggered',
      '[shutdown] EngineCore: trigger received signal=SIGTERM',
    ],
  },
  {
    pattern: /^Received KeyboardInterrupt, shutting down API servers/,
    needle: 'KeyboardInterrupt',
    releases: { since: '0.15.0' },
    samples: ['Received KeyboardInterrupt, shutting down API servers...'],
  },
];

// Literals of which every phase and hint line above contains one.
export const VLLM_PHASE_NEEDLES: readonly string[] = [
  'vLLM',
  'Automat',
  'non-def',
  'LLM e',
  'rank',
  'nccl==',
  'world_size',
  'Starti',
  'Load',
  'Model l',
  'compile',
  'Dynamo',
  'Compil',
  'Direct',
  'KV',
  'blocks',
  'Memory',
  'Maximum',
  'Captur',
  'Graph',
  'init e',
  'warmup',
  'Availab',
  'Profiling CUDA',
  'Started',
  'Uvicorn',
  'Applic',
  'API server',
  'Added r',
  'Dumping',
  'latency spike',
  'Processed prompts',
  'Adding requests',
  'Rendering prompts',
  'Supported',
  'busy_l', // a V1 engine core's traceback through `run_busy_loop`: it was serving
  'output_h', // the V1 client's output handler failed: it was serving
  'get_output_a',
  'Waiting for application shutdown',
  'seconds to fall asleep',
  'seconds to wake up',
];
