// The engines' own format strings (data/catalogue/<engine>-<version>.json, regenerated from their sources by
// scripts/catalogue): the simulator prints a release's lines from them, so simulator and rules share one source.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.ts';
import { compareVersions } from '../flags/schema/versions.ts';
import { packageRoot } from '../self.ts';
import type { EngineId } from './types.ts';

export interface CatalogueMessage {
  /** The message with every interpolated value written as `{}`. */
  text: string;
  kind: 'log' | 'raise' | 'progress' | 'print';
  file: string;
}

export interface Catalogue {
  engine: EngineId;
  version: string;
  messages: CatalogueMessage[];
}

const folder = (): string => join(packageRoot(), 'data', 'catalogue');

// The catalogued releases of an engine, oldest first (`main` last).
export const catalogueVersions = (engine: EngineId): string[] =>
  readdirSync(folder())
    .filter((name) => name.startsWith(`${engine}-`) && name.endsWith('.json'))
    .map((name) => name.slice(engine.length + 1, -'.json'.length))
    .sort((a, b) => (a === 'main' ? 1 : b === 'main' ? -1 : compareVersions(a, b)));

const cache = new Map<string, Catalogue>();

// One release's catalogue; a UsageError naming the catalogued releases when there is none for it.
export const loadCatalogue = (engine: EngineId, version: string): Catalogue => {
  const key = `${engine}@${version}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const path = join(folder(), `${engine}-${version}.json`);
  if (!/^[\w.]+$/.test(version) || !existsSync(path)) {
    throw new UsageError(`vigil has no catalogue for ${engine} ${version}`, {
      option: '--engine-version',
      hint: `use one of ${catalogueVersions(engine).join(', ')}`,
    });
  }
  const catalogue = JSON.parse(readFileSync(path, 'utf8')) as Catalogue;
  cache.set(key, catalogue);
  return catalogue;
};

/** A line shape the simulator prints: the format string's start and the values for its `{}` in order. */
export interface LineShape {
  starts: string;
  values: readonly (string | number)[];
}

// The first shape whose format string the release logs, filled in; null when the release logs none of them.
export const formatFirst = (catalogue: Catalogue, shapes: readonly LineShape[]): string | null => {
  for (const shape of shapes) {
    const found = catalogue.messages.find((m) => m.kind !== 'raise' && m.text.startsWith(shape.starts));
    if (found === undefined) continue;
    let next = 0;
    const text = found.text.split('\n')[0] ?? '';
    return text.replace(/\{\}/g, () => String(shape.values[next++] ?? ''));
  }
  return null;
};
