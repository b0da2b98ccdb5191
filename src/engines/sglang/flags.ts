// SGLang's command line: entrypoints, bundled tables, how its options relate to other engines' (docs/engines/flag-history.md).
import type { EngineFlags, EngineHint, FlagPurpose, UnknownOptionQuery } from '../types.ts';
import { speculativeFindings } from './speculative.ts';

export const SGLANG_PURPOSES: readonly FlagPurpose[] = [
  { purpose: 'tensor parallelism', options: ['--tp-size', '--tensor-parallel-size'] },
  { purpose: 'pipeline parallelism', options: ['--pp-size', '--pipeline-parallel-size'] },
  { purpose: 'data parallelism', options: ['--dp-size', '--data-parallel-size'] },
  {
    purpose: 'expert parallelism',
    options: ['--ep-size', '--expert-parallel-size', '--ep'],
    note: "SGLang's takes the expert-parallel size",
  },
  {
    purpose: 'context length',
    options: ['--context-length'],
    note: 'SGLang uses SI (k) and IEC (Ki) size suffixes',
  },
  {
    purpose: 'GPU memory budget',
    options: ['--mem-fraction-static'],
    note: "SGLang's fraction covers only the weights and KV cache",
  },
  { purpose: 'model', options: ['--model-path'] },
  { purpose: 'tokenizer', options: ['--tokenizer-path'] },
  { purpose: 'concurrent requests', options: ['--max-running-requests'] },
  {
    purpose: 'tokens per batch',
    options: ['--chunked-prefill-size', '--max-prefill-tokens'],
    note: 'SGLang splits this into a chunk size and a prefill-batch limit',
  },
  { purpose: 'random seed', options: ['--random-seed'] },
  {
    purpose: 'disabling CUDA graphs',
    options: ['--disable-cuda-graph', '--cuda-graph-backend-decode', '--cuda-graph-backend-prefill'],
    note: 'newer SGLang spells it --cuda-graph-backend-decode disabled --cuda-graph-backend-prefill disabled',
  },
  { purpose: 'disabling prefix caching', options: ['--disable-radix-cache'] },
  {
    purpose: 'speculative decoding settings',
    options: [
      '--speculative-algorithm',
      '--speculative-draft-model-path',
      '--speculative-num-steps',
      '--speculative-draft-model',
      '--speculative-num-draft-tokens',
      '--speculative-eagle-topk',
    ],
    note: 'SGLang takes them as individual --speculative-* options',
  },
  {
    purpose: 'speculative draft model',
    options: ['--speculative-draft-model-path', '--speculative-draft-model'],
  },
  {
    purpose: 'number of speculative tokens',
    options: ['--speculative-num-draft-tokens', '--speculative-num-steps', '--speculative-eagle-topk'],
  },
];

// Chain drafting with N tokens (another engine's num_speculative_tokens / --spec-tokens) is SGLang's steps N,
// topk 1, N+1 draft tokens (docs/engines/flag-history.md).
const seedAdvice = (value: string | undefined): string => {
  const n = value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
  const steps = n === null ? 'N' : String(n);
  const tokens = n === null ? 'N+1' : String(n + 1);
  return (
    `vLLM's num_speculative_tokens=${steps} (chain drafting) corresponds to SGLang ` +
    `--speculative-num-steps ${steps} --speculative-eagle-topk 1 --speculative-num-draft-tokens ${tokens}`
  );
};

const SPECULATIVE_TOKEN_SPELLINGS = new Set(['--num-speculative-tokens', '--spec-tokens']);

// A speculative token count spelled the other engine's way needs SGLang's three settings, not one name.
const unknownOptionHint = (query: UnknownOptionQuery): EngineHint | null =>
  SPECULATIVE_TOKEN_SPELLINGS.has(query.option)
    ? {
        reasons: [`it is vLLM's spelling: ${seedAdvice(query.value)}`],
        suggestions: [],
        explainsOrigin: true,
      }
    : null;

export const SGLANG_FLAGS: EngineFlags = {
  bundled: ['0.4.3', '0.4.10', '0.5.1', '0.5.9', '0.5.18', 'main'],
  newest: '0.5.18',
  dialect: 'argparse',
  modules: ['sglang.launch_server'],
  script: { name: 'sglang', subcommand: 'serve' },
  helpArgs: ['--help'],
  distribution: 'sglang',
  helpHint: 'python -m sglang.launch_server --help > FILE',
  defaultBind: '127.0.0.1',
  replaced: {},
  purposes: SGLANG_PURPOSES,
  underscoreDashes: false,
  modelOption: '--model-path',
  unknownOptionHint,
  extraChecks: speculativeFindings,
};
