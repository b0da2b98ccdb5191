// What the simulated server takes from its command line: model, address, parallelism, key, speculative decoding.
import { invalidOption } from '../errors.ts';
import type { ArgparseResult, ParsedOption } from '../flags/argparse/parse.ts';
import type { FlagOption } from '../flags/schema/schema.ts';
import type { SimEngine } from './types.ts';
import { simEngineOf } from '../engines/sim.ts';

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
  /** The address to bind (an engine without --host may bind every interface). */
  host: string;
  port: number;
  tpSize: number;
  /** Keys accepted as `Authorization: Bearer <key>` (some engines take several); empty when none. */
  apiKeys: string[];
  speculative: SpeculativeConfig | null;
  /** Whether /metrics is served (some engines serve it only when asked). */
  enableMetrics: boolean;
  contextLength: number;
  skipWarmup: boolean;
  /** No graph capture (and no torch.compile where the engine compiles): the engine's eager option. */
  eager: boolean;
  decodeLogInterval: number;
}

/** The config, or the message argparse would print after `error: ` for a value of the wrong type. */
export type ConfigResult = { ok: true; config: SimConfig } | { ok: false; message: string };

// Reads option values by dest the way argparse stores them: the last occurrence wins.
export class ArgReader {
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

// Builds the simulated server's config from an argv that argparse accepted; throws a UsageError past vigil's limits.
export const buildSimConfig = (engine: SimEngine, result: ArgparseResult): ConfigResult => {
  const reader = new ArgReader(result);
  const config = simEngineOf(engine).readConfig(reader, result);
  const problem = reader.problems[0];
  if (problem !== undefined) return { ok: false, message: problem };
  checkLimits(config);
  return { ok: true, config };
};
