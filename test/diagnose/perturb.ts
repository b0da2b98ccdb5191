// Robustness of the corpus readings: diagnoses every log in test/fixtures/logs after one change made to all of its
// lines, and prints the logs whose class then differs from the label, with a count per change of class.
// Run: npx tsx test/diagnose/perturb.ts MODE [ARG]
//   prefix [TEXT]  an unknown wrapper's prefix before every line (TEXT, then a pid-like number)
//   numbered       `cat -n` line numbers
//   quote          a quote marker and an indent (`>     …`)
//   tail [N]       only the last N lines (default 40)
//   joined [N]     the last N lines joined into one by spaces, as a page shows them (compare with `tail N`)
//   wrapped [W]    lines hard-wrapped at W columns (default 160)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diagnoseLogFile } from '../../src/diagnose/file/diagnose-file.ts';

interface Entry {
  file: string;
  expected_diagnosis: string;
}

const [mode = '', arg] = process.argv.slice(2);
const number = (fallback: number): number => (arg === undefined ? fallback : Number(arg));

const perturb = (lines: string[]): string[] => {
  switch (mode) {
    case 'prefix':
      return lines.map((line, i) => `${arg ?? 'myjob-7f9c'}[${String(1000 + (i % 7))}]: ${line}`);
    case 'numbered':
      return lines.map((line, i) => `${String(i + 1).padStart(6)}\t${line}`);
    case 'quote':
      return lines.map((line) => `>     ${line}`);
    case 'tail':
      return lines.slice(-number(40));
    case 'joined':
      return [lines.slice(-number(40)).join(' ')];
    case 'wrapped': {
      const width = number(160);
      return lines.flatMap((line) =>
        Array.from({ length: Math.max(1, Math.ceil(line.length / width)) }, (_, i) =>
          line.slice(i * width, (i + 1) * width),
        ),
      );
    }
    default:
      throw new Error(
        `unknown mode ${JSON.stringify(mode)}: prefix, numbered, quote, tail, joined or wrapped`,
      );
  }
};

const dir = join(import.meta.dirname, '..', 'fixtures', 'logs');
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Entry[];
const scratch = mkdtempSync(join(tmpdir(), 'vigil-perturb-'));
const changes = new Map<string, number>();
try {
  for (const entry of manifest) {
    const path = join(scratch, entry.file);
    writeFileSync(path, perturb(readFileSync(join(dir, entry.file), 'utf8').split('\n')).join('\n'));
    const got = (await diagnoseLogFile(path, { engine: 'auto' })).class;
    if (got === entry.expected_diagnosis) continue;
    const change = `${entry.expected_diagnosis} -> ${got}`;
    changes.set(change, (changes.get(change) ?? 0) + 1);
    console.log(`${entry.file}\t${change}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const changed = [...changes.values()].reduce((sum, count) => sum + count, 0);
console.log(`${mode} ${arg ?? ''}: ${String(changed)} of ${String(manifest.length)} logs change class`);
for (const [change, count] of [...changes].sort((a, b) => b[1] - a[1]))
  console.log(`  ${change}\t${String(count)}`);
