// Lists the exception messages of the bundled catalogue (data/catalogue/*.json) that the diagnoser leaves `unknown`
// when one is the only line of a failed start: where the engines raise errors vigil cannot yet name.
// Usage: npx tsx scripts/diagnose/unclassified.ts [--engine sglang|vllm|tgi] [--grep REGEX]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDiagnoser } from '../../src/diagnose/diagnoser.ts';
import type { EngineId } from '../../src/engines/types.ts';

const { values } = parseArgs({
  options: { engine: { type: 'string' }, grep: { type: 'string' } },
});
const filter = values.grep === undefined ? null : new RegExp(values.grep, 'i');
const DIR = join(import.meta.dirname, '../../data/catalogue');

interface Catalogue {
  engine: EngineId;
  version: string;
  messages: { text: string; kind: string }[];
}

const seen = new Set<string>();
const unknown = new Map<EngineId, string[]>();
let total = 0;
for (const name of readdirSync(DIR).filter((file) => file.endsWith('.json'))) {
  const catalogue = JSON.parse(readFileSync(join(DIR, name), 'utf8')) as Catalogue;
  if (values.engine !== undefined && catalogue.engine !== values.engine) continue;
  for (const message of catalogue.messages) {
    if (message.kind !== 'raise') continue;
    // Format placeholders become a plain value, the way a real line would carry one.
    const text = message.text.replace(/\{[^}]*\}|%[sdr]/g, 'X');
    const key = `${catalogue.engine}\t${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    total++;
    const diagnoser = createDiagnoser({ engine: catalogue.engine });
    diagnoser.push({ line: 1, text });
    if (diagnoser.finish({ exitCode: 1 }).class !== 'unknown') continue;
    if (filter !== null && !filter.test(text)) continue;
    unknown.set(catalogue.engine, [...(unknown.get(catalogue.engine) ?? []), text]);
  }
}
for (const [engine, texts] of unknown) {
  console.log(`## ${engine}: ${String(texts.length)} unclassified`);
  for (const text of texts.sort()) console.log(text);
}
const left = [...unknown.values()].reduce((sum, texts) => sum + texts.length, 0);
console.error(`${String(left)} of ${String(total)} distinct exception messages left unknown`);
