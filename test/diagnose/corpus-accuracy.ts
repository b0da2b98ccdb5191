// Corpus accuracy: diagnoses every log in test/fixtures/logs (auto engine, as `vigil diagnose` does) and compares
// the class with the manifest's label. Prints a table per engine and class, then the misses.
// Run: npx tsx test/diagnose/corpus-accuracy.ts [--engine-given]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diagnoseLogFile } from '../../src/diagnose/file/diagnose-file.ts';
import type { EngineId } from '../../src/engines/types.ts';

interface Entry {
  file: string;
  engine: EngineId;
  expected_diagnosis: string;
}

const dir = join(import.meta.dirname, '..', 'fixtures', 'logs');
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Entry[];
const engineGiven = process.argv.includes('--engine-given');

const cells = new Map<string, { right: number; total: number }>();
const misses: string[] = [];
for (const entry of manifest) {
  // As `vigil diagnose` reads a file: a log pasted newest line first is put in time order.
  const got = (await diagnoseLogFile(join(dir, entry.file), { engine: engineGiven ? entry.engine : 'auto' }))
    .class;
  const key = `${entry.engine}\t${entry.expected_diagnosis}`;
  const cell = cells.get(key) ?? { right: 0, total: 0 };
  cell.total += 1;
  if (got === entry.expected_diagnosis) cell.right += 1;
  else misses.push(`${entry.file}: expected ${entry.expected_diagnosis}, got ${got}`);
  cells.set(key, cell);
}

let right = 0;
console.log('engine\tclass\tright/total');
for (const [key, cell] of [...cells].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`${key}\t${cell.right}/${cell.total}`);
  right += cell.right;
}
console.log(`all\t\t${right}/${manifest.length} (${((100 * right) / manifest.length).toFixed(1)}%)`);
for (const miss of misses) console.log(`miss ${miss}`);
