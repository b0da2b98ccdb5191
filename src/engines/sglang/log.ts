// SGLang's log line shapes (../shared/research/PATTERNS.md §2): phases, the ready line, heartbeats.
import type { PhaseRule } from '../types.ts';

export const SGLANG_READY_LINE = /The server is fired up and ready to roll!/;

export const SGLANG_HEARTBEATS: RegExp[] = [
  /Scheduler watchdog timeout \(self\.watchdog_timeout=\d+, self\.soft=True\)/,
];

export const SGLANG_PHASES: PhaseRule[] = [];
