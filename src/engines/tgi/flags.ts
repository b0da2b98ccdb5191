// TGI's launcher command line (clap): entrypoints, the bundled table (data/flags/tgi-v3.3.7.flags.json).
import type { EngineFlags, FlagPurpose } from '../types.ts';

export const TGI_PURPOSES: readonly FlagPurpose[] = [
  {
    purpose: 'tensor parallelism',
    options: ['--num-shard'],
    note: 'TGI shards the model over --num-shard GPUs',
  },
  { purpose: 'model', options: ['--model-id'] },
  { purpose: 'tokenizer', options: ['--tokenizer-config-path'] },
  { purpose: 'concurrent requests', options: ['--max-concurrent-requests'] },
  { purpose: 'tokens per batch', options: ['--max-batch-prefill-tokens', '--max-batch-total-tokens'] },
  { purpose: 'context length', options: ['--max-total-tokens', '--max-input-tokens'] },
  { purpose: 'GPU memory budget', options: ['--cuda-memory-fraction'] },
  { purpose: 'disabling CUDA graphs', options: ['--cuda-graphs'], note: 'TGI spells it --cuda-graphs 0' },
  { purpose: 'number of speculative tokens', options: ['--speculate'] },
];

export const TGI_FLAGS: EngineFlags = {
  bundled: ['3.3.7'],
  newest: '3.3.7',
  dialect: 'clap',
  modules: [],
  script: { name: 'text-generation-launcher', subcommand: null },
  // The official image's entrypoint is the launcher: arguments follow the image name.
  images: [/(?:^|\/)text-generation-inference:[\w.-]+$/],
  helpArgs: ['--help'],
  distribution: null,
  helpHint: 'text-generation-launcher --help > FILE',
  defaultBind: '0.0.0.0',
  replaced: { '--max-input-length': ['--max-input-tokens'] },
  purposes: TGI_PURPOSES,
  underscoreDashes: false,
  modelOption: '--model-id',
};
