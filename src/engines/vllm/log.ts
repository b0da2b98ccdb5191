// vLLM's log line shapes (../shared/research/PATTERNS.md §3): phases and heartbeats.
import type { PhaseRule } from '../types.ts';

export const VLLM_HEARTBEATS: RegExp[] = [
  /Waiting for \d+ local, \d+ remote core engine proc\(s\) to start\./,
  /No available shared memory broadcast block found in \d+ seconds?/,
];

export const VLLM_PHASES: PhaseRule[] = [];
