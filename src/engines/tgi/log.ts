// TGI's launcher log line shapes (../shared/research/PATTERNS.md §3): phases and heartbeats.
import type { PhaseRule } from '../types.ts';

export const TGI_HEARTBEATS: RegExp[] = [/Waiting for shard to be ready\.\.\./];

export const TGI_PHASES: PhaseRule[] = [];
