// What the simulated server takes from its command line: model, address, parallelism, key, speculative decoding.
import { invalidOption } from '../errors.ts';
import type { ArgparseResult, ParsedOption } from '../flags/argparse/parse.ts';
import type { FlagOption } from '../flags/schema/schema.ts';
import type { SimEngine } from './types.ts';

export interface SpeculativeConfig {
  algorithm: string;
  draftModelPath: string | null;
  numSteps: number;
  eagleTopk: number;
  numDraftTokens: number;
}

export interface SimConfig {
  engine: SimEngine;
  modelPath: string;
  servedModelName: string;
  /** The address to bind; vLLM without --host binds every interface. */
  host: string;
  port: number;
  tpSize: number;
  /** Keys accepted as `Authorization: Bearer <key>` (vLLM takes several); empty when none. */
  apiKeys: string[];
  speculative: SpeculativeConfig | null;
  /** SGLang serves /metrics only with --enable-metrics; vLLM always. */
  enableMetrics: boolean;
  contextLength: number;
  skipWarmup: boolean;
  /** SGLang --disable-cuda-graph / vLLM --enforce-eager: no graph capture (and no torch.compile for vLLM). */
  eager: boolean;
  decodeLogInterval: number;
}

/** The config, or the message argparse would print after `error: ` for a value of the wrong type. */
export type ConfigResult = { ok: true; config: SimConfig } | { ok: false; message: string };

// Reads option values by dest the way argparse stores them: the last occurrence wins.
class ArgReader {
  readonly problems: string[] = [];
  private readonly byDest = new Map<string, ParsedOption>();

  constructor(result: ArgparseResult) {
    for (const parsed of result.options) this.byDest.set(parsed.option.dest, parsed);
  }

  all(dest: string): string[] {
    return this.byDest.get(dest)?.values ?? [];
  }

  text(dest: string): string | null {
    return this.byDest.get(dest)?.values[0] ?? null;
  }

  flag(dest: string): boolean {
    const parsed = this.byDest.get(dest);
    return parsed !== undefined && !parsed.resolved.startsWith('--no-');
  }

  int(dest: string, fallback: number): number {
    const parsed = this.byDest.get(dest);
    const text = parsed?.values[0];
    if (parsed === undefined || text === undefined) return fallback;
    if (/^[+-]?\d+$/.test(text.trim())) return Number.parseInt(text, 10);
    this.problems.push(`argument ${optionName(parsed.option)}: invalid int value: '${text}'`);
    return fallback;
  }
}

// argparse names an option in errors by all its strings joined with '/'.
const optionName = (option: FlagOption): string => option.strings.join('/');

// vigil's own limits, checked before anything starts: one worker process per rank, a port it can bind.
const checkLimits = (config: SimConfig): void => {
  if (config.tpSize < 1 || config.tpSize > 64) {
    throw invalidOption(
      'tensor parallel size',
      'a size from 1 to 64 (vigil sim runs one process per rank)',
      config.tpSize,
    );
  }
  if (config.port < 0 || config.port > 65535)
    throw invalidOption('--port', 'a port from 0 to 65535', config.port);
};

const readSglang = (reader: ArgReader): SimConfig => {
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

const readVllm = (reader: ArgReader, result: ArgparseResult): SimConfig => {
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

// Builds the simulated server's config from an argv that argparse accepted; throws a UsageError past vigil's limits.
export const buildSimConfig = (engine: SimEngine, result: ArgparseResult): ConfigResult => {
  const reader = new ArgReader(result);
  const config = engine === 'sglang' ? readSglang(reader) : readVllm(reader, result);
  const problem = reader.problems[0];
  if (problem !== undefined) return { ok: false, message: problem };
  checkLimits(config);
  return { ok: true, config };
};
