// TGI's own failure shapes (docs/engines/log-patterns.md) and advice that names TGI's launcher flags.
import type { Advisor, Signature } from '../../diagnose/facts.ts';

export const TGI_SIGNATURES: readonly Signature[] = [
  {
    id: 'tgi-shard-failed',
    class: 'unknown',
    weight: 10,
    needles: ['failed to start', 'CannotStart'],
    pattern: /Shard (\d+) failed to start|ShardCannotStart/,
    summary: () => "a TGI shard failed to start; the shard's own output above names the cause",
  },
];

// Advice for a failed TGI start, naming text-generation-launcher's flags.
export const adviseTgi: Advisor = (cls, facts, context) => {
  switch (cls) {
    case 'port-in-use':
      return facts.port === '29500'
        ? [
            "Port 29500 is torch.distributed's master port: stop the old shard process or pass another --master-port.",
          ]
        : [`Stop the process holding port ${facts.port ?? ''} or pass another --port.`];
    case 'model-not-found-or-auth':
      return facts.kind === 'auth'
        ? [
            'Request access on the model page and pass HF_TOKEN (HUGGING_FACE_HUB_TOKEN on older TGI) to the container.',
          ]
        : [
            'Check --model-id: a local path must be mounted into the container; a Hub id must be exact and reachable.',
          ];
    case 'killed':
      if (facts.signal === 7)
        return ['Give the container more shared memory: `docker run --shm-size 1g` or more.'];
      if (facts.signal === 4)
        return ['Use a TGI image built for this CPU and GPU (signal 4 = an illegal instruction).'];
      return [
        'Check the host OOM killer (`dmesg -T | grep -i "killed process"`) and container memory limits.',
      ];
    case 'cuda-oom':
      return [
        'Lower --max-batch-prefill-tokens / --max-total-tokens or --cuda-memory-fraction; raise --num-shard if the weights do not fit.',
      ];
    case 'nccl':
      return [
        'Multi-shard NCCL needs shared memory (--shm-size 1g) and working P2P: try NCCL_P2P_DISABLE=1; rerun with NCCL_DEBUG=INFO.',
      ];
    case 'hang':
      return context.phase === 'weight-load' || context.phase === null
        ? [
            'Shards never became ready: multi-shard NCCL init often hangs without enough /dev/shm (--shm-size 1g) or P2P (NCCL_P2P_DISABLE=1); rerun with NCCL_DEBUG=INFO.',
          ]
        : ['Raise --stall-timeout if warm-up is only slow; lower --max-batch-prefill-tokens to shorten it.'];
    default:
      return [];
  }
};
