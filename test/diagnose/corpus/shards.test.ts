import { readdirSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SHARDS } from './check-shard.ts';

it('has one test file per shard, so every fixture log is checked', () => {
  const files = readdirSync(import.meta.dirname).filter((name) => /^shard-\d+\.test\.ts$/.test(name));
  expect(files.sort()).toEqual(Array.from({ length: SHARDS }, (_, i) => `shard-${String(i + 1)}.test.ts`));
});
