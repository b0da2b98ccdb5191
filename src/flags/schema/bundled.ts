// The bundled flag tables (data/flags, see data/flags/SOURCE.md): the newest schema per engine and a name→versions index.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../self.ts';
import type { NameIndex } from './history.ts';
import { schemaFromFlagsJson, type EngineName, type FlagSchema, type FlagsJsonAction } from './schema.ts';

export const BUNDLED_VERSIONS: Readonly<Record<EngineName, readonly string[]>> = {
  sglang: ['0.4.3', '0.4.10', '0.5.1', '0.5.9', '0.5.18'],
  vllm: ['0.6.6.post1', '0.8.5.post1', '0.19.1'],
};

// The newest bundled release of each engine: the default schema for preflight and `vigil sim`.
export const NEWEST_BUNDLED: Readonly<Record<EngineName, string>> = { sglang: '0.5.18', vllm: '0.19.1' };

const cache = new Map<string, FlagSchema>();

// The path of one bundled table.
export const bundledPath = (engine: EngineName, version: string): string =>
  join(packageRoot(), 'data', 'flags', `${engine}-v${version}.flags.json`);

// Loads one bundled release's schema (cached).
export const loadBundledSchema = (
  engine: EngineName,
  version: string = NEWEST_BUNDLED[engine],
): FlagSchema => {
  const key = `${engine}@${version}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const path = bundledPath(engine, version);
  const actions = JSON.parse(readFileSync(path, 'utf8')) as FlagsJsonAction[];
  const schema = schemaFromFlagsJson(actions, {
    engine,
    version,
    source: { kind: 'bundled', engine, version, path: `data/flags/${engine}-v${version}.flags.json` },
  });
  cache.set(key, schema);
  return schema;
};

// Every bundled schema of an engine, oldest first.
export const loadAllBundled = (engine: EngineName): FlagSchema[] =>
  BUNDLED_VERSIONS[engine].map((version) => loadBundledSchema(engine, version));

let nameIndex: NameIndex | null = null;

// The name→versions index of every bundled release (data/flags/names.json, built from the tables).
export const loadNameIndex = (): NameIndex => {
  nameIndex ??= JSON.parse(
    readFileSync(join(packageRoot(), 'data', 'flags', 'names.json'), 'utf8'),
  ) as NameIndex;
  return nameIndex;
};

// Whether a release of an engine is bundled (then its table is exact for that release).
export const isBundled = (engine: EngineName, version: string): boolean =>
  BUNDLED_VERSIONS[engine].includes(version);
