// vLLM's log line shapes (docs/engines/log-patterns.md): phases and heartbeats, V0 (≤0.7) and V1 shapes.
// Patterns match normalised messages (process tags, level and location removed).
import type { PhaseRule } from '../types.ts';

// Lines that prove the process is alive but not moving forward; they never reset the stall timer.
export const VLLM_HEARTBEATS: RegExp[] = [
  /Waiting for \d+ local, \d+ remote core engine proc\(s\) to start\./,
  /No available shared memory broadcast block found in \d+ seconds?/,
  /"GET \/health HTTP\/1\.[01]" (?:503|500)/,
];

// vLLM has no decisive ready line: this one only means uvicorn started (it is printed before the socket binds).
export const VLLM_STARTED_LINE = /^Application startup complete\./;

const bar = (match: RegExpExecArray): { done: number; total: number } | null =>
  match[1] === undefined || match[2] === undefined
    ? null
    : { done: Number(match[1]), total: Number(match[2]) };

const BAR_COUNTS = String.raw`:?\s*\d{1,3}%(?:\|[^|]*\||\s+Completed\s*\|)\s*(\d+)\/(\d+)`;

// In phase order. torch.compile runs before KV-cache sizing in V1; the API server comes up last.
export const VLLM_PHASES: PhaseRule[] = [
  {
    phase: 'process-up',
    pattern:
      /^vLLM API server version |^Automatically detected platform |^non-default args: |^Initializing an? (?:V1 )?LLM engine /,
  },
  {
    phase: 'dist-init',
    pattern: /^rank \d+ in world size \d+ is assigned as |^vLLM is using nccl==|^world_size=\d+ rank=\d+/,
  },
  {
    phase: 'weight-load',
    pattern:
      /^Starting to load model |^Loading weights took |^Model loading took |^Loading model weights took |^Loading drafter model/,
  },
  {
    phase: 'weight-load',
    pattern: new RegExp(String.raw`^Loading (?:safetensors|pt) checkpoint shards${BAR_COUNTS}`),
    progress: bar,
  },
  {
    phase: 'compile',
    pattern:
      /for vLLM's torch\.compile$|^Dynamo bytecode transform time|^Compiling a graph for|^Directly load the compiled graph|^torch\.compile takes /,
  },
  {
    phase: 'kv-cache',
    pattern:
      /^Available KV cache memory: |^GPU KV cache size: |^# (?:GPU|cuda) blocks: |^Memory profiling takes |^Maximum concurrency for /,
  },
  { phase: 'graph-capture', pattern: /^Capturing the model for CUDA graphs|^Graph capturing finished in / },
  {
    phase: 'graph-capture',
    pattern: new RegExp(String.raw`^Capturing CUDA graphs? \([^)]*\)${BAR_COUNTS}`),
    progress: bar,
  },
  {
    phase: 'warmup',
    pattern:
      /^init engine \(profile, create kv cache, warmup model\) took |^(?:Readonly )?Multi-modal warmup completed/,
  },
  {
    phase: 'http-up',
    pattern:
      /^Starting vLLM (?:API )?server (?:\d+ )?on http|^Available routes are:|^Started server process \[\d+\]|^Uvicorn running on |^Application startup complete\./,
  },
];
