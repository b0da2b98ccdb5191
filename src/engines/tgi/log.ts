// TGI's launcher log line shapes (docs/engines/log-patterns.md): phases and heartbeats.
import type { PhaseRule } from '../types.ts';

// Lines that prove the process is alive but not moving forward; they never reset the stall timer.
export const TGI_HEARTBEATS: RegExp[] = [/Waiting for shard to be ready\.\.\./];

// In phase order: weights are downloaded, shards load them, then the router starts and warms the model up.
export const TGI_PHASES: PhaseRule[] = [
  { phase: 'process-up', pattern: /^Args \{/ },
  {
    phase: 'weight-load',
    pattern: /^Starting download process|^Successfully downloaded weights|^Starting shard\b|^Shard ready in /,
  },
  { phase: 'http-up', pattern: /^Starting Webserver/ },
  { phase: 'warmup', pattern: /^Warming up model|^Setting max batch total tokens to / },
];
