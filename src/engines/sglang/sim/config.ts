// The simulated SGLang's settings from its command line (dests of SGLang's argparse).
import type { ArgReader, SimConfig } from '../../../sim/config.ts';

export const readSglang = (reader: ArgReader): SimConfig => {
  const modelPath = reader.text('model_path') ?? '';
  const algorithm = reader.text('speculative_algorithm');
  const numSteps = reader.int('speculative_num_steps', 3);
  return {
    engine: 'sglang',
    modelPath,
    servedModelName: reader.text('served_model_name') ?? modelPath,
    host: reader.text('host') ?? '127.0.0.1',
    port: reader.int('port', 30000),
    tpSize: reader.int('tp_size', 1),
    apiKeys: reader.all('api_key'),
    speculative:
      algorithm === null
        ? null
        : {
            algorithm,
            draftModelPath: reader.text('speculative_draft_model_path'),
            numSteps,
            eagleTopk: reader.int('speculative_eagle_topk', 1),
            numDraftTokens: reader.int('speculative_num_draft_tokens', numSteps + 1),
          },
    enableMetrics: reader.flag('enable_metrics'),
    contextLength: reader.int('context_length', 131072),
    skipWarmup: reader.flag('skip_server_warmup'),
    eager: reader.flag('disable_cuda_graph'),
    decodeLogInterval: Math.max(1, reader.int('decode_log_interval', 40)),
  };
};
