// Advice for a failed vLLM start, naming vLLM's own flags (engines do no I/O: data and small functions).
import { portHolder, type Advisor, type FailureFacts } from '../../diagnose/facts.ts';

const divisors = (n: number): string =>
  Array.from({ length: n }, (_, i) => i + 1)
    .filter((d) => n % d === 0)
    .join(', ');

// SGLang spellings people pass to vLLM, with vLLM's own.
const SGLANG_SPELLINGS: Record<string, string> = {
  '--mem-fraction-static': '--gpu-memory-utilization',
  '--context-length': '--max-model-len',
  '--max-running-requests': '--max-num-seqs',
  '--tp-size': '--tensor-parallel-size (-tp)',
  '--model-path': 'the positional model argument of `vllm serve` (or --model)',
  '--speculative-num-draft-tokens': '--speculative-config \'{"num_speculative_tokens": N, ...}\'',
};

const adviseUnknownFlag = (facts: FailureFacts): string[] => {
  const advice: string[] = [];
  for (const flag of (facts.flag ?? '').split(/\s+/).filter((arg) => arg.startsWith('-'))) {
    const name = flag.split('=')[0] ?? flag;
    const own = SGLANG_SPELLINGS[name];
    if (own !== undefined) advice.push(`${name} is SGLang's spelling; vLLM's is ${own}.`);
    if (name === '--enable-reasoning')
      advice.push('--enable-reasoning was removed: --reasoning-parser alone enables reasoning.');
  }
  if (facts.prog === 'api_server.py')
    advice.push(
      'The image runs the api_server module directly: pass flags only (no `serve <model>`; use --model).',
    );
  advice.push(
    'Check the flag in `vllm serve --help=all` of the installed version, or run `vigil check -- <command>` before launching.',
  );
  return advice;
};

const adviseOom = (facts: FailureFacts, phase: string | null): string[] => {
  if (facts.kind === 'kv-cache' || facts.kind === 'kv-len')
    return [
      'Give the KV cache room: raise --gpu-memory-utilization (e.g. 0.9; it is the share of the whole GPU vLLM may use), or lower --max-model-len / --max-num-seqs.',
      'If the weights alone nearly fill the GPU, raise --tensor-parallel-size or use a quantized checkpoint; --kv-cache-dtype fp8 halves the KV cache.',
    ];
  if (facts.kind === 'nccl-calloc')
    return [
      'Lower --gpu-memory-utilization (e.g. 0.85) so NCCL keeps some free GPU memory; check `nvidia-smi` for other processes.',
    ];
  if (phase === 'graph-capture')
    return [
      'Lower --gpu-memory-utilization a little or capture fewer sizes (--max-num-seqs); --enforce-eager skips CUDA graphs (slower).',
    ];
  return [
    'Lower --gpu-memory-utilization, --max-model-len or --max-num-seqs; if the weights do not fit, raise --tensor-parallel-size or use a quantized checkpoint.',
    'Check `nvidia-smi` for other processes holding memory on these GPUs.',
  ];
};

const adviseHang = (phase: string | null): string[] => {
  switch (phase) {
    case null:
    case 'process-up':
    case 'dist-init':
      return [
        'The engine core or a worker did not come up: rerun with VLLM_LOGGING_LEVEL=DEBUG and NCCL_DEBUG=INFO; check that --tensor-parallel-size GPUs are visible (CUDA_VISIBLE_DEVICES).',
        'Set NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME to the right interface; in a container use --ipc=host or a larger --shm-size.',
      ];
    case 'weight-load':
      return [
        'Weight loading can take many minutes from a slow or network disk; raise --stall-timeout if it is only slow.',
      ];
    case 'compile':
      return [
        'torch.compile can take minutes on a cold cache; --enforce-eager (or -O0) skips compilation to confirm.',
      ];
    case 'graph-capture':
      return [
        'A rank may be stuck in a collective: rerun with NCCL_DEBUG=INFO; --enforce-eager skips CUDA graph capture to confirm.',
      ];
    default:
      return [
        'The API server did not finish starting: check the route list and `Application startup complete.` in the log, and probe /health.',
      ];
  }
};

// Advice for a failed vLLM start, naming vLLM's flags.
export const adviseVllm: Advisor = (cls, facts, context) => {
  switch (cls) {
    case 'unknown-flag':
      return adviseUnknownFlag(facts);
    case 'invalid-value':
      if (facts.kind === 'tp-heads' && facts.heads !== undefined)
        return [
          `Use a --tensor-parallel-size that divides ${facts.heads}: ${divisors(Number(facts.heads))}.`,
        ];
      return facts.choices !== undefined && facts.choices !== ''
        ? [
            `Use one of the values ${facts.flag ?? 'the flag'} accepts in this vLLM version: ${facts.choices}.`,
          ]
        : ['Fix the value named above; `vigil check -- <command>` checks values before launching.'];
    case 'cuda-oom':
      return adviseOom(facts, context.phase);
    case 'nccl':
      return [
        'Rerun with NCCL_DEBUG=INFO (`vigil up --env NCCL_DEBUG=INFO ...`) to see which transport failed.',
        'In a container use --ipc=host or --shm-size 16g; NCCL_P2P_DISABLE=1 / NCCL_IB_DISABLE=1 isolate P2P/InfiniBand problems; check that the visible GPUs match --tensor-parallel-size.',
      ];
    case 'port-in-use':
      return [
        `Stop ${portHolder(facts.port)} or pass another --port.`,
        'If the holder is a vigil launch: `vigil stop ID`, or `vigil up --replace`.',
      ];
    case 'model-not-found-or-auth':
      return facts.kind === 'auth'
        ? ['Request access on the model page, then pass a token: `vigil up --env HF_TOKEN ...`.']
        : [
            'Check the model argument of `vllm serve`: a local directory must exist on the server host and contain config.json (or params.json); a Hub id must be exact and reachable (or cached, with HF_HUB_OFFLINE=1).',
          ];
    case 'weight-mismatch':
      return (facts.key ?? '').startsWith('layers.') || (facts.key ?? '').startsWith('midlayer.')
        ? [
            "The EAGLE draft was loaded by the target model's class: convert the draft to a format vLLM's EAGLE loader reads (speculators / vLLM EAGLE-3 layout) and pass it through --speculative-config.",
          ]
        : [
            'The checkpoint does not match the model class vLLM chose from config.json "architectures": check the model path and the vLLM version.',
          ];
    case 'dependency':
      return facts.kind === 'inspect' || facts.kind === 'abi'
        ? [
            'Reinstall a vLLM wheel built for the installed torch and CUDA (the compiled extension vllm/_C does not match).',
          ]
        : facts.package !== undefined && facts.package !== ''
          ? [
              `Install ${facts.package}${facts.choices === undefined || facts.choices === '' ? '' : `>=${facts.choices}`} in the server's environment.`,
            ]
          : ['Reinstall vLLM with a torch/CUDA set that matches this driver.'];
    case 'hang':
      return adviseHang(context.phase);
    case 'killed':
      return facts.signal === 7
        ? ['Give the container more shared memory: --ipc=host or --shm-size 16g.']
        : [
            'Check the host OOM killer (`dmesg -T | grep -i "killed process"`) and container memory limits; loading needs host RAM too.',
          ];
    case 'graph-capture-failed':
      return [
        '--enforce-eager skips CUDA graphs; with -O0 torch.compile is skipped too, to see which part fails.',
      ];
    case 'peer-rank-failed':
      return ["Find the failing worker's own error above (each worker prints its own traceback)."];
    case 'unknown':
      return [
        'Give vigil the whole log from the start: vLLM prints the root cause in the EngineCore/worker lines before this wrapper.',
      ];
    default:
      return [];
  }
};
