// Advice for a failed TGI start, naming text-generation-launcher's flags.
import { portHolder, type Advisor } from '../../diagnose/facts.ts';

export const adviseTgi: Advisor = (cls, facts, context) => {
  switch (cls) {
    case 'unknown-flag':
      return [
        `Check ${facts.flag ?? 'the argument'} against \`text-generation-launcher --help\` of the image's version (options are --kebab-case; most also read an environment variable such as MAX_TOTAL_TOKENS), or run \`vigil check -- <command>\`.`,
      ];
    case 'invalid-value':
      return [
        `Give ${facts.flag ?? 'the option'} a value it accepts: \`text-generation-launcher --help\` lists them (e.g. --quantize awq|gptq|fp8|bitsandbytes-nf4 ...).`,
      ];
    case 'port-in-use':
      return facts.port === '29500'
        ? [
            "Port 29500 is torch.distributed's master port: stop the old shard process or pass another --master-port.",
          ]
        : [`Stop ${portHolder(facts.port)} or pass another --port.`];
    case 'model-not-found-or-auth':
      return facts.kind === 'auth'
        ? [
            'Request access on the model page and pass HF_TOKEN (HUGGING_FACE_HUB_TOKEN on TGI before 2.x) to the container.',
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
        'Check the host OOM killer (`dmesg -T | grep -i "killed process"`) and container memory limits; loading shards needs host RAM.',
      ];
    case 'cuda-oom':
      return facts.kind === 'warmup'
        ? [
            'Warm-up runs a batch of --max-batch-prefill-tokens: lower it (and --max-total-tokens / --max-input-tokens), or lower --cuda-memory-fraction if other processes share the GPU.',
            'Raise --num-shard to spread the weights over more GPUs, or use --quantize.',
          ]
        : [
            'Lower --max-batch-prefill-tokens / --max-total-tokens or --cuda-memory-fraction; raise --num-shard if the weights do not fit.',
          ];
    case 'nccl':
      return [
        'Multi-shard NCCL needs shared memory (--shm-size 1g) and working P2P: try NCCL_P2P_DISABLE=1; rerun with NCCL_DEBUG=INFO.',
      ];
    case 'graph-capture-failed':
      return ['Pass --cuda-graphs 0 to start without CUDA graphs and see whether capture is the cause.'];
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
