// SGLang's log line shapes (docs/engines/log-patterns.md): phases, the ready line, heartbeats, the version banner.
// Patterns match normalised messages (prefixes removed). Each shape names the releases that print it (from the
// catalogue, data/catalogue/sglang-*.json) and a sample line a test checks against that catalogue.
import type { LineRule, PhaseRule, StopRule } from '../types.ts';

// Only this line means SGLang is ready; uvicorn's `Application startup complete.` comes before the warm-up. A node
// other than the first (`--node-rank 1`) serves no API and prints no such line: from 0.5.9 it says its schedulers are up
// by starting a health-check server of its own (`Dummy health check server started in background thread at …`).
export const SGLANG_READY_LINE =
  /The server is fired up and ready to roll!|^Dummy health check server started in background thread at /;

// A client's generation request answered (a readiness poll's `GET /v1/models` is answered during the warm-up too), also
// with an error when it came from another host (a warm-up sent to the server's own loopback may fail so), or
// SGLang's own warm-up request, `/generate` or `/encode`, answered: the warm-up is then over and succeeded, also in
// early releases that printed no ready line after it. Or a decode step with several requests and a thousand tokens
// or more in flight: the warm-up sends one short prompt per DP rank (eight new tokens each), so this is clients'
// work, also on a node that serves no HTTP itself (`--node-rank 1`, which never prints the ready line). Or a client's
// request refused as longer than the context (`Input length (160062 tokens) exceeds the maximum allowed length …`):
// the warm-up's prompt is a few tokens.
export const SGLANG_SERVING_LINE =
  /The server is fired up and ready to roll!|^Input length \(\d+ tokens\) exceeds the maximum allowed length |^Dummy health check server started in background thread at |^Decode batch[.,] #running-req: (?:[2-9]|[1-9]\d+), #(?:full )?token: \d{4,}|"POST \/v1\/(?:chat\/completions|completions|embeddings|responses|messages|rerank|score)\S* HTTP\/[\d.]+" 2\d\d|(?:^|\s)(?!127\.)\d+\.\d+\.\d+\.\d+:\d+ - "POST \/v1\/(?:chat\/completions|completions|embeddings|responses|messages)\S* HTTP\/[\d.]+" (?:4\d\d|500)\b|"POST \/(?:generate|encode) HTTP\/[\d.]+" 200/;

// A decode step's metrics: requests generating. The warm-up request logs them too (with --decode-log-interval 1), so
// they count only where no start is in view. A hybrid model's lines count its full-attention tokens (`#full token: N`).
// A prefill step beside running or queued requests: the warm-up's one request per rank has no company. So is a decode
// step that ran out of KV cache and put several requests back in the queue (`Decode out of memory happened.
// #retracted_reqs: 3`). So is early SGLang's prefill line with a prefix cache mostly hit (`new fill batch. … tree_cache_hit_rate:
// 49.92%.`): many requests came before it, more than a warm-up sends.
export const SGLANG_SERVING_WITHOUT_START =
  /^Decode batch[.,] #running-req: \d+, #(?:full )?token: \d+|^new fill batch\. .*\btree_cache_hit_rate: (?:[1-9]\d(?:\.\d+)?|100(?:\.0+)?)%|^Prefill batch[.,] .*#running-req: (?:[1-9]\d*, #queue-req: \d+|\d+, #queue-req: [1-9])|^Decode out of memory happened\. #retracted_reqs: (?:[2-9]|[1-9]\d+)\b/;

// The offline Engine (`sgl.Engine(...)`) logs only errors unless told otherwise: after its weights (and graphs) are
// set up it prints nothing, and the caller's own progress bar finishing shows the engine returned and served.
// A capture's end: `Capture cuda graph end. Time elapsed: 12.31 s.` (up to 0.5.13), `Capture target decode CUDA graph
// end. elapsed=12.31 s, …` (0.5.14 and later), and the draft worker's.
export const SGLANG_CAPTURE_ENDS =
  /^Capture (?:(?:draft )?(?:extend )?cuda graph|(?:target|draft) \w+ (?:CUDA|CPU|NPU|XPU) graph) end\b/;

export const SGLANG_QUIET_START = {
  line: /^server_args=ServerArgs\(.*\blog_level='error'/,
  from: 'weight-load',
} as const;

// Lines that prove the process is alive but not moving forward; they never reset the stall timer.
export const SGLANG_HEARTBEATS: RegExp[] = [
  /Scheduler watchdog timeout \(self\.watchdog_timeout=\d+, self\.soft=True\)/,
  // Health pollers (a parent process re-logging the child) wait without progress.
  /Please wait for sglang server to become ready/,
  /"GET \/health(?:_generate)? HTTP\/1\.[01]" (?:503|500)/,
];

const bar = (match: RegExpExecArray): { done: number; total: number } | null =>
  match[1] === undefined || match[2] === undefined
    ? null
    : { done: Number(match[1]), total: Number(match[2]) };

// A tqdm bar's counts after its label: `<label>:  50% Completed | 1/2 [...]` or `<label>: 100%|███| 23/23 [...]`.
const BAR_COUNTS = String.raw`:?\s*\d{1,3}%(?:\|[^|]*\||\s+Completed\s*\|)\s*(\d+)\/(\d+)`;

/** A phase shape with the lines that show it, for the catalogue test. */
export type SampledRule = PhaseRule & { samples: readonly string[] };

// In phase order. The tracker keys phases off rank 0 and untagged (main process) lines.
export const SGLANG_PHASES: SampledRule[] = [
  {
    phase: 'process-up',
    pattern: /^server_args=ServerArgs\(|^ServerArgs\(/,
    origin: 'dependency',
    samples: ["server_args=ServerArgs(model_path='m', tp_size=8)"],
  },
  {
    phase: 'dist-init',
    pattern: /^Init torch distributed (?:begin|ends)/,
    samples: ['Init torch distributed begin.'],
  },
  {
    // ≥ 0.5.9 prints how long it took (`elapsed=2.36 s`).
    phase: 'dist-init',
    pattern: /^Init torch distributed ends\. elapsed=/,
    releases: { since: '0.5.9' },
    samples: ['Init torch distributed ends. elapsed=2.36 s, mem usage=0.12 GB'],
  },
  { phase: 'dist-init', pattern: /^sglang is using nccl==/, origin: 'dependency', samples: [] },
  {
    phase: 'weight-load',
    pattern: /^Load weight (?:begin|end)/,
    samples: ['Load weight begin. avail mem=78.50 GB'],
  },
  {
    // The end line carries `elapsed=X s` from 0.5.9 on.
    phase: 'weight-load',
    pattern: /^Load weight end\. elapsed=[\d.]+ s/,
    releases: { since: '0.5.9' },
    samples: [
      'Load weight end. elapsed=23.18 s, type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=60.1 GB, mem usage=15.2 GB.',
    ],
  },
  {
    phase: 'weight-load',
    pattern: new RegExp(String.raw`^Loading (?:safetensors|pt) checkpoint shards${BAR_COUNTS}`),
    progress: bar,
    samples: ['Loading safetensors checkpoint shards:  50% Completed | 1/2 [00:01<00:01,  1.20s/it]'],
  },
  {
    phase: 'kv-cache',
    pattern:
      /^(?:\w+ )?KV Cache is allocated|^Memory pool end|^max_total_tokens=\d+ is larger than the profiled value/,
    samples: [
      'KV Cache is allocated. #tokens: 383872, KV size: 19.36 GB',
      'Memory pool end. avail mem=11.2 GB',
    ],
  },
  {
    // From 0.5.9 the KV line names the cache dtype first (`dtype: torch.bfloat16, #tokens: ...`).
    phase: 'kv-cache',
    pattern: /^(?:\w+ )?KV Cache is allocated\. dtype: /,
    releases: { since: '0.5.13' },
    samples: ['KV Cache is allocated. dtype: torch.bfloat16, #tokens: 383872, KV size: 19.36 GB'],
  },
  {
    phase: 'compile',
    pattern: new RegExp(String.raw`^Compiling num tokens \([^)]*\)${BAR_COUNTS}`),
    progress: bar,
    origin: 'dependency',
    samples: [],
  },
  {
    // Up to 0.5.13: `Capture cuda graph begin. This can take up to several minutes.` (and `bs ` progress lines).
    phase: 'graph-capture',
    pattern: /^Capture (?:cuda graph|piecewise CUDA graph|[a-z]+ graph) (?:begin|bs |end)/,
    releases: { until: '0.5.14' },
    samples: ['Capture cuda graph begin. This can take up to several minutes. avail mem=11.16 GB'],
  },
  {
    // ≥ 0.5.14: `Capture target decode CUDA graph begin. backend=full, ..., bs=[1, 2, 4], avail mem=...`, also
    // `target verify` (speculative), `target prefill`, and the `... CUDA graph end. elapsed=...` lines.
    phase: 'graph-capture',
    pattern: /^Capture target (?:decode|verify|prefill) (?:CUDA|CPU|NPU|XPU) graph (?:begin|end)\./,
    releases: { since: '0.5.14' },
    samples: [
      'Capture target decode CUDA graph begin. backend=full, num_tokens_per_req=1, bs=[1, 2, 4, 8], avail mem=11.16 GB',
      'Capture target decode CUDA graph end. elapsed=12.31 s, mem usage=0.52 GB, avail mem=10.64 GB.',
      'Capture target prefill CUDA graph begin. backend=full, num_tokens=[512, 1024], avail mem=10.60 GB',
    ],
  },
  {
    phase: 'graph-capture',
    pattern: new RegExp(String.raw`^Capturing (?:batches|num tokens) \([^)]*\)${BAR_COUNTS}`),
    progress: bar,
    origin: 'dependency',
    samples: [],
  },
  {
    // After 0.4.3 and up to 0.5.13: `Capture draft cuda graph begin.` and `Capture draft extend cuda graph begin.`.
    phase: 'draft-graph-capture',
    pattern: /^Capture draft (?:extend )?cuda graph (?:begin|end)/,
    releases: { since: '0.4.4', until: '0.5.14' },
    samples: ['Capture draft cuda graph end. Time elapsed: 62.67 s. mem usage=0.21 GB. avail mem=15.31 GB.'],
  },
  {
    // ≥ 0.5.14: the draft worker's `Capture draft decode|verify|prefill CUDA graph begin.`, EAGLE's
    // `Capture draft extend CUDA graph begin. step=...`, and the frozen-KV MTP and single-graph drafters.
    phase: 'draft-graph-capture',
    pattern:
      /^Capture (?:draft (?:decode|verify|prefill|extend) (?:CUDA|CPU|NPU|XPU) graph|Frozen-KV MTP draft cuda graph|single-CG draft extend) (?:begin|end)\b/,
    releases: { since: '0.5.14' },
    samples: [
      'Capture draft extend CUDA graph begin. step=1, avail mem=15.52 GB',
      'Capture draft decode CUDA graph begin. backend=full, num_tokens_per_req=1, bs=[1, 2, 4], avail mem=15.60 GB',
    ],
  },
  {
    phase: 'http-up',
    pattern: /^Started server process \[\d+\]|^Uvicorn running on |^Application startup complete\./,
    origin: 'dependency',
    samples: [],
  },
  {
    phase: 'http-up',
    pattern: /^max_total_num_tokens=/,
    samples: [
      'max_total_num_tokens=383872, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=2048, context_len=40960',
      'max_total_num_tokens=383872, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=2048, context_len=40960, available_gpu_mem=12.47 GB',
    ],
  },
  {
    // The named warm-ups SGLang runs before it serves (`--warmups`, DeepGEMM's compile warm-up): an unnamed error
    // while one runs is the warm-up's failure.
    phase: 'warmup',
    pattern: /^Running warmup \S+$/,
    releases: { since: '0.4.9' },
    samples: ['Running warmup compile-deep-gemm'],
  },
  // SGLang's own warm-up requests, as uvicorn logs them: `GET /get_model_info` up to 0.5.8, `GET /model_info` from
  // 0.5.9 on, then `POST /generate`.
  {
    phase: 'warmup',
    pattern:
      /^[\d.:[\]a-f]+ - "(?:GET \/(?:get_)?model_info|POST \/generate|POST \/encode) HTTP\/1\.[01]" 200/,
    origin: 'dependency',
    samples: [],
  },
  {
    phase: 'ready',
    pattern: /^The server is fired up and ready to roll!/,
    samples: ['The server is fired up and ready to roll!'],
  },
  {
    // A node other than the first, once its schedulers are up.
    phase: 'ready',
    pattern: /^Dummy health check server started in background thread at /,
    releases: { since: '0.5.9' },
    samples: ['Dummy health check server started in background thread at 10.0.0.2:30000'],
  },
];

// Lines that quote other text, never SGLang's own failure: a request logged with its content (--log-requests, user
// text), and the watchdog's stack dump failing (`py-spy: command not found` is the dump's tool missing, not the start's).
export const SGLANG_QUOTED_LINES: LineRule[] = [
  {
    pattern: /^Receive: obj=/,
    // Until 0.5.9, which logs requests in other words.
    releases: { until: '0.5.9' },
    samples: ["Receive: obj=GenerateReqInput(text='must be divisible by 3', rid='1')"],
  },
  {
    pattern: /^Pyspy failed (?:to dump PID \d+|\([^)]*\))\. +Error: /,
    releases: { since: '0.4.9' },
    samples: [
      'Pyspy failed to dump PID 63217.   Error: /bin/sh: py-spy: command not found',
      'Pyspy failed to dump PID 63217. Error: /bin/sh: 1: py-spy: not found',
      'Pyspy failed (pid=63217). Error: /bin/sh: 1: py-spy: not found',
    ],
  },
];

// A stop the server was asked for: SIGTERM (Ctrl-C raises KeyboardInterrupt, which the diagnoser knows itself).
export const SGLANG_STOP_LINES: StopRule[] = [
  {
    pattern: /^SIGTERM received\. signum=/,
    needle: 'SIGTERM received',
    samples: ['SIGTERM received. signum=None frame=None. Draining requests and shutting down...'],
  },
];

// Literals of which every phase, ready and hint line above contains one.
export const SGLANG_PHASE_NEEDLES: readonly string[] = [
  'Init t',
  'Load',
  'KV',
  'Memory',
  'Captur',
  'Uvicorn',
  'Applic',
  'Compil',
  'fired',
  'Running warm',
  'max_total',
  'Started',
  'HTTP/1',
  'xceeds the max', // a client's request refused as too long: `Input length (N tokens) exceeds the maximum allowed length`
  'nccl==',
  // a finished bar: the caller's own, after an offline Engine's quiet start (SGLANG_QUIET_START)
  '100%|',
];

// The release SGLang names in its log: `sglang_version=0.5.18` in older echoes, or a pip/launcher banner.
export const sglangVersionFromLog = (text: string): string | null =>
  /\bsglang(?:_version|==| version:?)\s*=?\s*v?(\d+\.\d+\.\d+(?:\.post\d+)?)/i.exec(text)?.[1] ?? null;
