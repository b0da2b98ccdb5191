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
  {
    // torch.distributed's store client finding its connection closed by the store's side: the process that hosts the
    // store (rank 0, or the launcher) died or exited. torch logs it as a warning, and the rank goes down with it.
    id: 'store-host-gone',
    class: 'peer-rank-failed',
    weight: 33,
    consequence: true,
    needles: ['recvValue failed'],
    pattern:
      /recvValue failed on SocketImpl\(.*?\): (?:Failed to recv, got 0 bytes\. Connection was likely closed|Connection reset by peer)/,
    samples: [
      '[rank1]:[W1119 17:59:26.271588084 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=61, addr=[localhost]:33850, remote=[localhost]:30005): Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?',
    ],
    summary: () =>
      "a rank lost its connection to torch.distributed's store: the process that hosts it (rank 0, or the launcher) died or exited, and its own error is the cause",
  },
];
