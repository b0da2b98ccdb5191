// Advice for a failed SGLang start, naming SGLang's own flags (engines do no I/O: data and small functions).
import { portHolder, type Advisor, type FailureFacts } from '../../diagnose/facts.ts';

// vLLM spellings people pass to SGLang, with SGLang's own (docs/engines/flag-history.md).
const VLLM_SPELLINGS: Record<string, string> = {
  '--num-speculative-tokens':
    '--speculative-num-draft-tokens (with --speculative-num-steps and --speculative-eagle-topk, all three set or none)',
  '--gpu-memory-utilization': '--mem-fraction-static',
  '--max-model-len': '--context-length',
  '--max-num-seqs': '--max-running-requests',
  '--max-num-batched-tokens': '--chunked-prefill-size',
  '--speculative-model': '--speculative-draft-model-path',
};

const divisors = (n: number): string =>
  Array.from({ length: n }, (_, i) => i + 1)
    .filter((d) => n % d === 0)
    .join(', ');

const adviseUnknownFlag = (facts: FailureFacts): string[] => {
  const flags = (facts.flag ?? '').split(/\s+/).filter((arg) => arg.startsWith('-'));
  const advice: string[] = [];
  for (const flag of flags) {
    const name = flag.split('=')[0] ?? flag;
    const vllm = VLLM_SPELLINGS[name];
    if (vllm !== undefined) advice.push(`${name} is vLLM's spelling; SGLang's is ${vllm}.`);
    else if (name.includes('_'))
      advice.push(`SGLang flags use dashes: write ${name.replaceAll('_', '-')}, not ${name}.`);
  }
  advice.push(
    'Check the flag in `python -m sglang.launch_server --help` of the installed version (flags are renamed and removed between releases), or run `vigil check -- <command>` before launching.',
  );
  return advice;
};

const adviseWeights = (facts: FailureFacts): string[] => {
  const key = facts.key ?? '';
  if (key.startsWith('midlayer.')) {
    return [
      `The draft checkpoint uses the EAGLE-3 \`midlayer.*\` key layout, but SGLang built it with ${facts.frame === undefined || facts.frame === '' ? "the target model's class" : facts.frame} instead of its EAGLE-3 class: set "architectures": ["LlamaForCausalLMEagle3"] in the draft's config.json (--speculative-draft-model-path).`,
      'Check the key layout against your SGLang version: builds before the EAGLE-3 multi-layer change (PR #24663) load only `midlayer.*`; newer builds name the layer `layers.0.*` and still map legacy `midlayer.*` to it. speculators checkpoints use `layers.0.*`.',
      "List the draft's tensor names (the safetensors header) to see which layout it has: `midlayer.*` or `layers.0.*`.",
    ];
  }
  if (key.startsWith('layers.0.')) {
    return [
      'The draft checkpoint uses the speculators `layers.0.*` layout; SGLang builds before PR #24663 expect EAGLE-3 weights named `midlayer.*`.',
      'Rename the keys (`layers.0.` → `midlayer.`, keeping the tensors) or use an SGLang build that maps `layers.0.*` itself, and make sure config.json declares "architectures": ["LlamaForCausalLMEagle3"].',
    ];
  }
  if (facts.kind === 'arch') {
    return [
      `This SGLang version has no model class for ${facts.arch ?? 'the architecture'}: upgrade SGLang, or fix "architectures" in the checkpoint's config.json (--model-path / --speculative-draft-model-path).`,
    ];
  }
  return [
    'The checkpoint does not match the model class SGLang chose from its config.json: check "architectures" and that --model-path / --speculative-draft-model-path point at the intended checkpoints.',
  ];
};

const adviseOom = (facts: FailureFacts, phase: string | null): string[] => {
  if (facts.kind === 'kv-cache' || facts.kind === 'kv-len') {
    return [
      'Give the KV cache more room: raise --mem-fraction-static (e.g. 0.85–0.9), or lower --context-length / --max-running-requests.',
      'If the weights alone nearly fill the GPU, raise --tp-size or use a quantized checkpoint (--quantization fp8).',
    ];
  }
  if (facts.kind === 'nccl-calloc') {
    return [
      'Lower --mem-fraction-static (e.g. 0.85) so NCCL and CUDA graphs keep some free GPU memory.',
      'Check `nvidia-smi` for other processes holding memory on these GPUs.',
    ];
  }
  if (facts.kind === 'graph-capture' || phase === 'graph-capture' || phase === 'draft-graph-capture') {
    return [
      'Leave memory for CUDA graph capture: lower --cuda-graph-max-bs (e.g. 16) or --mem-fraction-static (e.g. 0.8).',
      '--disable-cuda-graph confirms the cause (much slower serving; not a fix).',
    ];
  }
  return [
    'Lower --mem-fraction-static (e.g. 0.8), --cuda-graph-max-bs or --chunked-prefill-size; if the weights do not fit, raise --tp-size or use a quantized checkpoint.',
    'Check `nvidia-smi` for other processes holding memory on these GPUs.',
  ];
};

const adviseHang = (phase: string | null): string[] => {
  switch (phase) {
    case 'process-up':
    case 'dist-init':
      return [
        'Ranks did not finish distributed init: rerun with NCCL_DEBUG=INFO (`vigil up --env NCCL_DEBUG=INFO`), check that every rank process started, and that --dist-init-addr / --nnodes / --node-rank match on all nodes.',
        'Set NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME (and NCCL_IB_HCA) to the interfaces that connect the GPUs/nodes.',
      ];
    case 'weight-load':
      return [
        'Weight loading can take many minutes from a slow or network disk: compare the shard rate with the disk speed, and raise --stall-timeout if it is only slow.',
      ];
    case 'graph-capture':
    case 'draft-graph-capture':
    case 'compile':
      return [
        'A first run may JIT-compile kernels for minutes (DeepGEMM: run `python3 -m sglang.compile_deep_gemm` once beforehand); otherwise a rank is stuck in a collective: rerun with NCCL_DEBUG=INFO.',
        '--disable-cuda-graph tells whether capture itself hangs.',
      ];
    case 'http-up':
    case 'warmup':
      return [
        "SGLang's warm-up request to itself did not complete: check http_proxy/no_proxy (add 127.0.0.1,localhost to no_proxy).",
      ];
    default:
      return ['Raise NCCL_DEBUG=INFO and --log-level debug to see where the start stops.'];
  }
};

const adviseKilled = (facts: FailureFacts, phase: string | null): string[] => {
  switch (facts.signal) {
    case 7:
      return ['Give the container more shared memory: `docker run --shm-size 16g` (or --ipc=host).'];
    case 4:
      return [
        'Use an SGLang image/wheel built for this CPU and GPU (sgl-kernel and flashinfer must match the GPU architecture).',
      ];
    default:
      return [
        phase === 'weight-load' || phase === null
          ? 'Check the host OOM killer: `dmesg -T | grep -i "killed process"`; loading needs host RAM (free memory, add swap, or run fewer servers at once).'
          : 'Check what killed the server: `dmesg -T | grep -i "killed process"`, container memory limits, or another user.',
      ];
  }
};

// Advice for a failed SGLang start, naming SGLang's flags.
export const adviseSglang: Advisor = (cls, facts, context) => {
  switch (cls) {
    case 'unknown-flag':
      return adviseUnknownFlag(facts);
    case 'invalid-value':
      if (facts.kind === 'tp-heads' && facts.heads !== undefined)
        return [`Use a --tp-size that divides ${facts.heads}: ${divisors(Number(facts.heads))}.`];
      return facts.choices !== undefined && facts.choices !== ''
        ? [
            `Use one of the values ${facts.flag ?? 'the flag'} accepts in this SGLang version: ${facts.choices}.`,
          ]
        : ['Fix the value named above; `vigil check -- <command>` checks values before launching.'];
    case 'cuda-oom':
      return adviseOom(facts, context.phase);
    case 'nccl':
      return [
        'Rerun with NCCL_DEBUG=INFO (`vigil up --env NCCL_DEBUG=INFO ...`) to see which transport failed.',
        'In a container give shared memory (--shm-size 16g or --ipc=host); across nodes set NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME and check --dist-init-addr; NCCL_P2P_DISABLE=1 or NCCL_IB_DISABLE=1 isolate P2P/InfiniBand problems.',
        'A lower --dist-timeout makes a stuck rank fail sooner.',
      ];
    case 'port-in-use':
      return [
        `Stop ${portHolder(facts.port)} (often an earlier SGLang still exiting) or choose another ${facts.flag === undefined || facts.flag === 'port' || facts.flag === '' ? '--port' : `--${facts.flag.replaceAll('_', '-')}`}.`,
        'If the holder is a vigil launch: `vigil stop ID`, or `vigil up --replace`.',
      ];
    case 'model-not-found-or-auth':
      return facts.kind === 'auth'
        ? [
            'Request access on the model page, then pass a token: `vigil up --env HF_TOKEN ...` (or use a local --model-path).',
          ]
        : [
            'Check --model-path: a local directory must exist on the server host and contain config.json; a Hub id must be spelled exactly (and reachable, or cached with HF_HUB_OFFLINE=1).',
          ];
    case 'weight-mismatch':
      return adviseWeights(facts);
    case 'dependency':
      return facts.package !== undefined &&
        facts.package !== '' &&
        facts.choices !== undefined &&
        facts.choices !== ''
        ? [
            `Install ${facts.package}>=${facts.choices} in the server's environment (or pick another --attention-backend).`,
          ]
        : [
            'Reinstall SGLang so that sglang, sgl-kernel, flashinfer and torch come from one matching set for this CUDA version.',
          ];
    case 'hang':
      return adviseHang(context.phase);
    case 'killed':
      return adviseKilled(facts, context.phase);
    case 'warmup-failed':
      return [
        "SGLang's warm-up request to itself failed: unset http_proxy/https_proxy for the server or add 127.0.0.1,localhost to no_proxy.",
        '--skip-server-warmup starts without it (then prove generation with one request of your own).',
      ];
    case 'graph-capture-failed':
      return [
        'If --enable-torch-compile is set, drop it (torch.compile often fails during capture).',
        'Lower --cuda-graph-max-bs; --disable-cuda-graph confirms the cause (much slower serving).',
      ];
    case 'peer-rank-failed':
      return [
        "Find the failing rank's own error (other nodes' logs, `dmesg` for the OOM killer); this rank only reports that the others did not finish loading.",
      ];
    default:
      return [];
  }
};
