// vLLM's own failure shapes (docs/engines/log-patterns.md); the advice that names vLLM's flags is in advice.ts.
import type { Signature } from '../../diagnose/facts.ts';

export const VLLM_SIGNATURES: readonly Signature[] = [
  {
    id: 'vllm-no-cache-blocks',
    class: 'cuda-oom',
    weight: 90,
    needles: ['No available memory for the cache blocks'],
    pattern: /No available memory for the cache blocks/,
    facts: () => ({ kind: 'kv-cache' }),
    summary: () => 'no GPU memory is left for the KV cache after the weights and activations',
  },
  {
    id: 'vllm-zero-blocks',
    class: 'cuda-oom',
    weight: 89,
    needles: ['blocks: 0'],
    pattern: /# (?:GPU|cuda) blocks: 0\b/,
    facts: () => ({ kind: 'kv-cache' }),
    summary: () => 'memory profiling left 0 GPU blocks for the KV cache',
  },
  {
    id: 'vllm-inspect',
    class: 'dependency',
    weight: 100,
    needles: ['Error'],
    pattern: /Error in inspecting model architecture '([^']+)'/,
    facts: (m) => ({ arch: m[1] ?? '', kind: 'inspect' }),
    summary: (f) =>
      `vLLM could not import its model code for ${f.arch ?? 'the model'}: the inspection subprocess crashed, usually a broken install (a compiled extension that does not match torch/CUDA)`,
  },
  {
    id: 'vllm-died',
    class: 'killed',
    weight: 38,
    needles: ['died'],
    pattern: /(Worker proc|Engine core proc) (\S+) died unexpectedly/,
    facts: (m) => ({ value: m[2] ?? '' }),
    summary: (f) =>
      `vLLM process ${f.value ?? ''} died without a Python traceback (killed by a signal: the OOM killer, a segfault or a driver crash)`,
  },
  {
    id: 'vllm-engine-core-failed',
    class: 'unknown',
    weight: 10,
    needles: ['root cause', 'failed to start'],
    pattern: /Engine core initialization failed\. See root cause above|Engine process failed to start/,
    summary: () =>
      "vLLM's engine core failed to start; the root cause was printed earlier by the EngineCore/worker processes and is not in this part of the log",
  },
  {
    id: 'vllm-workerproc',
    class: 'unknown',
    weight: 10,
    needles: ['failed to start', 'initialization failed'],
    pattern: /WorkerProc (?:initialization failed|failed to start)|EngineCore failed to start/,
    summary: () => 'a vLLM worker process failed to start; its own traceback names the cause',
  },
];
