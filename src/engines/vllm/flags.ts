// vLLM's command line: entrypoints, bundled tables, how its options relate to other engines' (docs/engines/flag-history.md).
import type { EngineFlags, FlagPurpose } from '../types.ts';
import { versionFromVllmHelp } from './version.ts';
import { normalizeFlexibleArgv } from './normalize-argv.ts';

export const VLLM_PURPOSES: readonly FlagPurpose[] = [
  { purpose: 'tensor parallelism', options: ['--tensor-parallel-size', '-tp'] },
  { purpose: 'pipeline parallelism', options: ['--pipeline-parallel-size', '-pp'] },
  { purpose: 'data parallelism', options: ['--data-parallel-size', '-dp'] },
  {
    purpose: 'expert parallelism',
    options: ['--enable-expert-parallel', '-ep'],
    note: "vLLM's is an on/off switch",
  },
  {
    purpose: 'context length',
    options: ['--max-model-len'],
    note: 'vLLM reads 1k as 1000 and 1K as 1024',
  },
  {
    purpose: 'GPU memory budget',
    options: ['--gpu-memory-utilization'],
    note: "not numerically interchangeable: vLLM's fraction covers the whole executor",
  },
  {
    purpose: 'model',
    options: ['--model'],
    note: 'vLLM also takes the model positionally: vllm serve <model>',
  },
  { purpose: 'tokenizer', options: ['--tokenizer'] },
  { purpose: 'concurrent requests', options: ['--max-num-seqs'] },
  { purpose: 'tokens per batch', options: ['--max-num-batched-tokens'] },
  { purpose: 'random seed', options: ['--seed'] },
  { purpose: 'disabling CUDA graphs', options: ['--enforce-eager'] },
  { purpose: 'disabling prefix caching', options: ['--no-enable-prefix-caching'] },
  {
    purpose: 'speculative decoding settings',
    options: ['--speculative-config', '--spec-method', '--spec-model', '--spec-tokens'],
    note: 'vLLM ≥ v0.8.3 takes them as keys of one JSON value (--speculative-config); vLLM main also as --spec-method / --spec-model / --spec-tokens',
  },
  { purpose: 'speculative draft model', options: ['--speculative-model', '--spec-model'] },
  { purpose: 'number of speculative tokens', options: ['--num-speculative-tokens', '--spec-tokens'] },
];

export const VLLM_FLAGS: EngineFlags = {
  bundled: ['0.6.6.post1', '0.8.5.post1', '0.19.1', '0.20.1', 'main'],
  newest: '0.20.1',
  dialect: 'flexible',
  modules: ['vllm.entrypoints.openai.api_server'],
  script: { name: 'vllm', subcommand: 'serve' },
  helpArgs: ['--help=all'],
  distribution: 'vllm',
  versionFromHelp: versionFromVllmHelp,
  helpHint: 'vllm serve --help=all > FILE',
  defaultBind: '0.0.0.0',
  // Options a later release replaced, for names the schema lacks; only those the schema has are suggested.
  replaced: {
    '--num-speculative-tokens': ['--spec-tokens', '--speculative-config'],
    '--speculative-model': ['--spec-model', '--speculative-config'],
    '--speculative-method': ['--spec-method', '--speculative-config'],
    '--speculative-draft-tensor-parallel-size': ['--speculative-config'],
    '--enable-reasoning': ['--reasoning-parser'],
  },
  purposes: VLLM_PURPOSES,
  underscoreDashes: true,
  normalizeArgv: normalizeFlexibleArgv,
};
