// The bundled flag tables (data/flags, see data/flags/SOURCE.md): the newest schema per engine and a name→versions index.
// Which releases are bundled is each engine's own knowledge (src/engines/<engine>/flags.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINES, getEngine } from '../../engines/index.ts';
import { packageRoot } from '../../self.ts';
import type { NameIndex } from './history.ts';
import { schemaFromFlagsJson, type EngineName, type FlagSchema, type FlagsJsonAction } from './schema.ts';

// The bundled releases of an engine, oldest first (`main`, an engine's development branch, last).
export const bundledVersions = (engine: EngineName): readonly string[] =>
  getEngine(engine).flags?.bundled ?? [];

// The newest bundled release of an engine: the default schema for preflight and `vigil sim`.
export const newestBundled = (engine: EngineName): string => {
  const newest = getEngine(engine).flags?.newest;
  if (newest === undefined) throw new Error(`vigil has no flag table for ${getEngine(engine).label}`);
  return newest;
};

/** Every engine's bundled releases, oldest first (empty for an engine without tables). */
export const BUNDLED_VERSIONS: Readonly<Record<EngineName, readonly string[]>> = Object.fromEntries(
  Object.values(ENGINES).map((spec) => [spec.id, spec.flags?.bundled ?? []]),
) as Record<EngineName, readonly string[]>;

/** Every engine's default table ('' for an engine without tables). */
export const NEWEST_BUNDLED: Readonly<Record<EngineName, string>> = Object.fromEntries(
  Object.values(ENGINES).map((spec) => [spec.id, spec.flags?.newest ?? '']),
) as Record<EngineName, string>;

const cache = new Map<string, FlagSchema>();

// The file name of one bundled table: `sglang-v0.5.18.flags.json`, `vllm-main.flags.json`.
const tableFile = (engine: EngineName, version: string): string =>
  version === 'main' ? `${engine}-main.flags.json` : `${engine}-v${version}.flags.json`;

// The path of one bundled table.
export const bundledPath = (engine: EngineName, version: string): string =>
  join(packageRoot(), 'data', 'flags', tableFile(engine, version));

// Loads one bundled release's schema (cached).
export const loadBundledSchema = (
  engine: EngineName,
  version: string = newestBundled(engine),
): FlagSchema => {
  const key = `${engine}@${version}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const path = bundledPath(engine, version);
  const actions = JSON.parse(readFileSync(path, 'utf8')) as FlagsJsonAction[];
  const schema = schemaFromFlagsJson(actions, {
    engine,
    version,
    source: { kind: 'bundled', engine, version, path: `data/flags/${tableFile(engine, version)}` },
  });
  cache.set(key, schema);
  return schema;
};

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
  bundledVersions(engine).includes(version);
