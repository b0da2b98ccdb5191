// The bundled rename presets (data/ckpt/eagle3-presets.json, see data/ckpt/SOURCE.md): tensor-name rules plus
// the config.json rewrite that goes with them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../self.ts';
import { invalidOption } from '../errors.ts';
import type { RenameRule } from './name-map.ts';

export const PRESET_NAMES = ['eagle3-speculators-to-sglang', 'eagle3-sglang-to-speculators'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export interface PresetConfig {
  kind: 'speculators-to-sglang' | 'sglang-to-speculators';
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

export const isPresetName = (value: string): value is PresetName =>
  (PRESET_NAMES as readonly string[]).includes(value);

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
