// SGLang's log line shapes (docs/engines/log-patterns.md): phases, the ready line, heartbeats.
// Patterns match normalised messages (prefixes removed); older shapes (2024 to 2026) are included.
import type { PhaseRule } from '../types.ts';

export const SGLANG_READY_LINE = /The server is fired up and ready to roll!/;

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

// In phase order. The tracker keys phases off rank 0 and untagged (main process) lines.
export const SGLANG_PHASES: PhaseRule[] = [
  { phase: 'process-up', pattern: /^server_args=ServerArgs\(|^ServerArgs\(/ },
  { phase: 'dist-init', pattern: /^Init torch distributed (?:begin|ends)|^sglang is using nccl==/ },
  { phase: 'weight-load', pattern: /^Load weight (?:begin|end)/ },
  {
    phase: 'weight-load',
    pattern: new RegExp(String.raw`^Loading (?:safetensors|pt) checkpoint shards${BAR_COUNTS}`),
    progress: bar,
  },
  {
    phase: 'kv-cache',
    pattern:
      /^KV Cache is allocated|^Memory pool end|^max_total_tokens=\d+ is larger than the profiled value/,
  },
  {
    phase: 'compile',
    pattern: new RegExp(String.raw`^Compiling num tokens \([^)]*\)${BAR_COUNTS}`),
    progress: bar,
  },
  { phase: 'graph-capture', pattern: /^Capture cuda graph (?:begin|bs |end)/ },
  {
    phase: 'graph-capture',
    pattern: new RegExp(String.raw`^Capturing (?:batches|num tokens) \([^)]*\)${BAR_COUNTS}`),
    progress: bar,
  },
  { phase: 'draft-graph-capture', pattern: /^Capture draft (?:extend )?cuda graph/ },
  {
    phase: 'http-up',
    pattern:
      /^Started server process \[\d+\]|^Uvicorn running on |^Application startup complete\.|^max_total_num_tokens=/,
  },
  // SGLang's own warm-up requests, as uvicorn logs them (`127.0.0.1:60028 - "GET /get_model_info HTTP/1.1" 200 OK`).
  {
    phase: 'warmup',
    pattern: /^[\d.:[\]a-f]+ - "(?:GET \/get_model_info|POST \/generate) HTTP\/1\.[01]" 200/,
  },
  { phase: 'ready', pattern: /^The server is fired up and ready to roll!/ },
];
