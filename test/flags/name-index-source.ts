// Builds the name index straight from data/flags/*.flags.json (what names.json must equal).
import { readFileSync } from 'node:fs';
import { BUNDLED_VERSIONS, bundledPath } from '../../src/flags/schema/bundled.ts';
import { buildNameIndex, type NameIndex } from '../../src/flags/schema/history.ts';
import type { EngineName, FlagsJsonAction } from '../../src/flags/schema/schema.ts';

const releases = (engine: EngineName) =>
  BUNDLED_VERSIONS[engine].map((version) => ({
    version,
    actions: JSON.parse(readFileSync(bundledPath(engine, version), 'utf8')) as FlagsJsonAction[],
  }));

export const nameIndexFromTables = (): NameIndex =>
  buildNameIndex({ sglang: releases('sglang'), vllm: releases('vllm') });
