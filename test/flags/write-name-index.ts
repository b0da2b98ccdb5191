// Regenerates data/flags/names.json from the bundled tables: `npx tsx test/flags/write-name-index.ts`.
import { writeFileSync } from 'node:fs';
import { nameIndexFromTables } from './name-index-source.ts';

writeFileSync(
  new URL('../../data/flags/names.json', import.meta.url),
  `${JSON.stringify(nameIndexFromTables())}\n`,
);
