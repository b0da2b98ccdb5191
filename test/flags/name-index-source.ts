// Builds the name index straight from data/flags/*.flags.json (what names.json must equal).
import { readFileSync } from 'node:fs';
import { FLAG_ENGINES } from '../../src/engines/index.ts';
import { BUNDLED_VERSIONS, bundledPath } from '../../src/flags/schema/bundled.ts';
import { buildNameIndex, type NameIndex } from '../../src/flags/schema/history.ts';
import type { EngineName, FlagsJsonAction } from '../../src/flags/schema/schema.ts';

const releases = (engine: EngineName) =>
  BUNDLED_VERSIONS[engine].map((version) => ({
    version,
    actions: JSON.parse(readFileSync(bundledPath(engine, version), 'utf8')) as FlagsJsonAction[],
  }));

export const nameIndexFromTables = (): NameIndex =>
  buildNameIndex(Object.fromEntries(FLAG_ENGINES.map((spec) => [spec.id, releases(spec.id)])));
