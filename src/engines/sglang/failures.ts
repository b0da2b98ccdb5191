// SGLang's own failure shapes (docs/engines/log-patterns.md); the advice that names SGLang's flags is in advice.ts.
import type { Signature } from '../../diagnose/facts.ts';

export const SGLANG_SIGNATURES: readonly Signature[] = [
  // `Capture cuda graph failed:` is a wrapper: the text after the colon decides the class.
  {
    id: 'sglang-capture-oom',
    class: 'cuda-oom',
    weight: 92,
    needles: ['graph failed'],
    pattern: /Capture (?:draft )?cuda graph failed: .*(?:out of memory|OutOfMemory)/i,
    facts: () => ({ kind: 'graph-capture' }),
    summary: () => 'the GPU ran out of memory while capturing CUDA graphs',
  },
  {
    id: 'sglang-capture-dist',
    class: 'nccl',
    weight: 86,
    needles: ['graph failed'],
    pattern:
      /Capture (?:draft )?cuda graph failed: (.*(?:gloo|NCCL|nccl|[Tt]imed out|Connection (?:closed|reset|refused|cl)).*)$/,
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `communication between ranks failed during CUDA graph capture: ${f.value ?? ''}`,
  },
  {
    id: 'sglang-capture',
    class: 'graph-capture-failed',
    weight: 60,
    needles: ['graph failed'],
    pattern: /Capture (?:draft )?cuda graph failed:\s*(.*)$/,
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `CUDA graph capture failed${f.value === '' || f.value === undefined ? ' (no memory or communication error named: often torch.compile)' : `: ${f.value}`}`,
  },
  {
    id: 'sglang-profiled-negative',
    class: 'cuda-oom',
    weight: 90,
    needles: ['profiled value -'],
    pattern: /larger than the profiled value (-\d+)/,
    facts: (m) => ({ kind: 'kv-cache', value: m[1] ?? '' }),
    summary: (f) =>
      `no GPU memory is left for the KV cache after the weights (profiled token budget ${f.value ?? ''})`,
  },
  {
    id: 'sglang-not-enough-memory',
    class: 'cuda-oom',
    weight: 90,
    needles: ['Not enough memory'],
    pattern: /Not enough memory(?:\. Please try to increase --mem-fraction-static| to allocate KV cache)/,
    facts: () => ({ kind: 'kv-cache' }),
    summary: () => 'not enough GPU memory is left for the KV cache',
  },
  {
    id: 'sglang-port-check',
    class: 'port-in-use',
    weight: 100,
    needles: ['is not available'],
    pattern: /(\w*port) at (\d+) is not available/,
    facts: (m) => ({ port: m[2] ?? '', flag: m[1] ?? '' }),
    summary: (f) =>
      `${f.flag ?? 'a port'} ${f.port ?? ''} is held by another process (SGLang waited for it and gave up)`,
  },
  {
    id: 'sglang-peer-rank',
    class: 'peer-rank-failed',
    weight: 50,
    needles: ['could finish the model loading'],
    pattern:
      /TP rank (\d+) could finish the model loading, but there are other ranks that didn't finish loading/,
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `TP rank ${f.value ?? ''} finished loading but other ranks did not: another rank failed (often out of memory) or is slow; its own error is the root cause`,
  },
  {
    id: 'sglang-scheduler-dead',
    class: 'killed',
    weight: 35,
    needles: ['dead'],
    pattern: /Rank (\d+) scheduler is dead/,
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `SGLang's rank ${f.value ?? ''} scheduler process died without a traceback (killed by a signal)`,
  },
  {
    id: 'sglang-warmup',
    class: 'warmup-failed',
    weight: 100,
    needles: ['warmup error'],
    pattern: /warmup error/,
    summary: () => "SGLang's warm-up request to itself failed after the HTTP server came up",
  },
  {
    id: 'sglang-warmup-response',
    class: 'warmup-failed',
    weight: 95,
    needles: ['Error'],
    pattern: /AssertionError: res=<Response \[(\d+)\]>/,
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `SGLang's warm-up request to itself got HTTP ${f.value ?? ''}`,
  },
  {
    id: 'sglang-hard-watchdog',
    class: 'hang',
    weight: 30,
    needles: ['atchdog timeout'],
    pattern: /[Ww]atchdog timeout \(self\.watchdog_timeout=(\d+), self\.soft=False\)/,
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `the scheduler made no progress for ${f.value ?? ''} s and SGLang's watchdog stopped it`,
  },
  {
    id: 'sglang-scheduler-exception',
    class: 'unknown',
    weight: 10,
    needles: ['xception'],
    pattern: /Scheduler hit an exception/,
    summary: () => 'an SGLang scheduler raised an exception (the traceback that follows names it)',
  },
];
