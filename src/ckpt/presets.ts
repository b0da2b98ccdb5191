// The bundled rename presets (data/ckpt/eagle3-presets.json, see data/ckpt/SOURCE.md): tensor-name rules plus
// the config.json rewrite that goes with them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../self.ts';
import { invalidOption } from '../errors.ts';
import type { RenameRule } from './name-map.ts';
import { DRAFT_PRESET_NAMES } from '../engines/index.ts';

// The engines name their own presets (src/engines/<engine>/draft.ts); the data file holds their rules.
export const PRESET_NAMES: readonly string[] = DRAFT_PRESET_NAMES;
export type PresetName = string;

export interface PresetConfig {
  /** Which config.json rewrite applies; the engine that owns the preset knows it. */
  kind: string;
  architectures: string[];
  flatten?: string;
  nest?: string;
  keep: string[];
  keepIfNotNull: string[];
  remove: string[];
  speculativeTokens?: number;
}

export interface Preset {
  name: PresetName;
  summary: string;
  rules: RenameRule[];
  config: PresetConfig;
  /** Names the target engine would ignore; reported, kept. */
  ignoredByEngine: RegExp[];
}

interface PresetJson {
  summary: string;
  rules: [string, string][];
  config: PresetConfig;
  ignoredByEngine: string[];
}

let loaded: Record<string, PresetJson> | null = null;

export const isPresetName = (value: string): value is PresetName => PRESET_NAMES.includes(value);

export const loadPreset = (name: string): Preset => {
  if (!isPresetName(name)) throw invalidOption('--preset', PRESET_NAMES.join(' or '), name);
  loaded ??= JSON.parse(
    readFileSync(join(packageRoot(), 'data', 'ckpt', 'eagle3-presets.json'), 'utf8'),
  ) as Record<string, PresetJson>;
  const raw = loaded[name];
  if (raw === undefined) throw invalidOption('--preset', PRESET_NAMES.join(' or '), name);
  return {
    name,
    summary: raw.summary,
    rules: raw.rules.map(([pattern, replacement]) => ({
      pattern: new RegExp(pattern),
      replacement,
      text: `${pattern}=>${replacement}`,
    })),
    config: raw.config,
    ignoredByEngine: raw.ignoredByEngine.map((p) => new RegExp(p)),
  };
};
