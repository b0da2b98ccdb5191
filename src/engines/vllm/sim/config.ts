// The simulated vLLM's settings from its command line (dests of vLLM's argparse).
import type { ArgparseResult } from '../../../flags/argparse/parse.ts';
import type { ArgReader, SimConfig, SpeculativeConfig } from '../../../sim/config.ts';

// vLLM's --speculative-config is JSON: {"method": "eagle3", "model": "...", "num_speculative_tokens": 5}.
const readVllmSpeculative = (text: string | null): SpeculativeConfig | null => {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const method = typeof record['method'] === 'string' ? record['method'] : 'eagle3';
  const tokens = typeof record['num_speculative_tokens'] === 'number' ? record['num_speculative_tokens'] : 3;
  return {
    algorithm: method,
    draftModelPath: typeof record['model'] === 'string' ? record['model'] : null,
    numSteps: tokens,
    eagleTopk: 1,
    numDraftTokens: tokens + 1,
  };
};

export const readVllm = (reader: ArgReader, result: ArgparseResult): SimConfig => {
  const modelPath = result.positionals[0]?.value ?? reader.text('model') ?? 'Qwen/Qwen3-0.6B';
  return {
    engine: 'vllm',
    modelPath,
    servedModelName: reader.text('served_model_name') ?? modelPath,
    host: reader.text('host') ?? '0.0.0.0',
    port: reader.int('port', 8000),
    tpSize: reader.int('tensor_parallel_size', 1),
    apiKeys: reader.all('api_key'),
    speculative: readVllmSpeculative(reader.text('speculative_config')),
    enableMetrics: true,
    contextLength: reader.int('max_model_len', 131072),
    skipWarmup: false,
    eager: reader.flag('enforce_eager'),
    decodeLogInterval: 40,
  };
};
