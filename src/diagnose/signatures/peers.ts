// Failure signatures shared by every engine: a rank that is fine and reports another one.
import type { Signature } from '../facts.ts';

export const PEER_SIGNATURES: readonly Signature[] = [
  // --- peer-rank-failed: this rank is fine and reports another one.
  {
    id: 'monitored-barrier',
    class: 'peer-rank-failed',
    weight: 85,
    needles: ['monitoredBarrier', 'faulty rank'],
    pattern:
      /received errors while waiting for send\/recv from rank (\d+)|check rank (\d+) logs for faulty rank/,
    samples: [
      'Rank 3 successfully reached monitoredBarrier, but received errors while waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank.',
    ],
    facts: (m) => ({ value: m[1] ?? m[2] ?? '' }),
    summary: (f) =>
      `rank ${f.value ?? '?'} failed (this rank waited for it at a barrier); rank ${f.value ?? '?'}'s own log has the cause`,
  },
];
