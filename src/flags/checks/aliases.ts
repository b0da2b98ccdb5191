// Cross-engine equivalents no string metric can find (`--gpu-memory-utilization` ↔ `--mem-fraction-static`),
// from docs/engines/flag-history.md, plus options a later release replaced under another name.
import type { EngineName, FlagSchema } from '../schema/schema.ts';
import { optionLookup } from '../argparse/parse.ts';

export interface CrossEnginePair {
  purpose: string;
  /** Each engine's spellings, the preferred one first. */
  vllm: readonly string[];
  sglang: readonly string[];
  /** How the two differ, when they are only near-equivalents. */
  note?: string;
}

export const CROSS_ENGINE_PAIRS: readonly CrossEnginePair[] = [
  {
    purpose: 'tensor parallelism',
    vllm: ['--tensor-parallel-size', '-tp'],
    sglang: ['--tp-size', '--tensor-parallel-size'],
  },
  {
    purpose: 'pipeline parallelism',
    vllm: ['--pipeline-parallel-size', '-pp'],
    sglang: ['--pp-size', '--pipeline-parallel-size'],
  },
  {
    purpose: 'data parallelism',
    vllm: ['--data-parallel-size', '-dp'],
    sglang: ['--dp-size', '--data-parallel-size'],
  },
  {
    purpose: 'expert parallelism',
    vllm: ['--enable-expert-parallel', '-ep'],
    sglang: ['--ep-size', '--expert-parallel-size', '--ep'],
    note: "vLLM's is an on/off switch, SGLang's takes the expert-parallel size",
  },
  {
    purpose: 'context length',
    vllm: ['--max-model-len'],
    sglang: ['--context-length'],
    note: 'size suffixes differ: vLLM reads 1k as 1000 and 1K as 1024, SGLang uses SI (k) and IEC (Ki) suffixes',
  },
  {
    purpose: 'GPU memory budget',
    vllm: ['--gpu-memory-utilization'],
    sglang: ['--mem-fraction-static'],
    note: "not numerically interchangeable: vLLM's fraction covers the whole executor, SGLang's only the weights and KV cache",
  },
  {
    purpose: 'model',
    vllm: ['--model'],
    sglang: ['--model-path'],
    note: 'vLLM also takes the model positionally: vllm serve <model>',
  },
  { purpose: 'tokenizer', vllm: ['--tokenizer'], sglang: ['--tokenizer-path'] },
  { purpose: 'concurrent requests', vllm: ['--max-num-seqs'], sglang: ['--max-running-requests'] },
  {
    purpose: 'tokens per batch',
    vllm: ['--max-num-batched-tokens'],
    sglang: ['--chunked-prefill-size', '--max-prefill-tokens'],
    note: 'SGLang splits this into a chunk size and a prefill-batch limit',
  },
  { purpose: 'random seed', vllm: ['--seed'], sglang: ['--random-seed'] },
  {
    purpose: 'disabling CUDA graphs',
    vllm: ['--enforce-eager'],
    sglang: ['--disable-cuda-graph', '--cuda-graph-backend-decode', '--cuda-graph-backend-prefill'],
    note: 'newer SGLang spells it --cuda-graph-backend-decode disabled --cuda-graph-backend-prefill disabled',
  },
  {
    purpose: 'disabling prefix caching',
    vllm: ['--no-enable-prefix-caching'],
    sglang: ['--disable-radix-cache'],
  },
  {
    purpose: 'speculative decoding settings',
    vllm: ['--speculative-config'],
    sglang: [
      '--speculative-algorithm',
      '--speculative-draft-model-path',
      '--speculative-num-steps',
      '--speculative-draft-model',
      '--speculative-num-draft-tokens',
      '--speculative-eagle-topk',
    ],
    note: 'vLLM ≥ v0.8.3 takes them as keys of one JSON value, SGLang as individual --speculative-* options',
  },
  {
    purpose: 'speculative draft model',
    vllm: ['--speculative-model'],
    sglang: ['--speculative-draft-model-path', '--speculative-draft-model'],
  },
  {
    purpose: 'number of speculative tokens',
    vllm: ['--num-speculative-tokens'],
    sglang: ['--speculative-num-draft-tokens', '--speculative-num-steps', '--speculative-eagle-topk'],
  },
];

/** Options a later release of the same engine replaced, for names the schema lacks. */
export const REPLACED: Readonly<Record<EngineName, Readonly<Record<string, readonly string[]>>>> = {
  vllm: {
    '--num-speculative-tokens': ['--speculative-config'],
    '--speculative-model': ['--speculative-config'],
    '--speculative-draft-tensor-parallel-size': ['--speculative-config'],
    '--enable-reasoning': ['--reasoning-parser'],
  },
  sglang: {},
};

const other = (engine: EngineName): EngineName => (engine === 'sglang' ? 'vllm' : 'sglang');

export interface CrossEngineMatch {
  pair: CrossEnginePair;
  /** The schema's own spellings for it, preferred first, deprecated ones last. */
  suggestions: string[];
}

// What the schema's engine calls a name that belongs to the other engine; null when no pair knows it
// or the schema has none of the counterparts.
export const crossEngineMatch = (schema: FlagSchema, typed: string): CrossEngineMatch | null => {
  const lookup = optionLookup(schema);
  for (const pair of CROSS_ENGINE_PAIRS) {
    if (!pair[other(schema.engine)].includes(typed)) continue;
    const present = pair[schema.engine].filter((name) => lookup.has(name));
    if (present.length === 0) continue;
    const current = present.filter((name) => lookup.get(name)?.deprecated !== true);
    const deprecated = present.filter((name) => lookup.get(name)?.deprecated === true);
    return { pair, suggestions: [...current, ...deprecated] };
  }
  return null;
};
