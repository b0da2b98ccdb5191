// Every fixture log, diagnosed fed line by line, from its file, and told its engine: the corpus check, split into
// shards (one test file each) so that the suite's workers share it instead of one of them running it last.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDiagnoser } from '../../../src/diagnose/diagnoser.ts';
import { diagnoseLogFile } from '../../../src/diagnose/file/diagnose-file.ts';
import type { EngineId } from '../../../src/engines/types.ts';
import type { Diagnosis } from '../../../src/events.ts';
import { normalizeLine } from '../../../src/logs/normalize.ts';
import type { RawLine } from '../../../src/logs/types.ts';
import { FIXTURE_DIR, fedLines, loadManifest } from '../fixture-logs.ts';

/** How many shard files test/diagnose/corpus holds. */
export const SHARDS = 4;

const diagnose = (lines: readonly RawLine[], engine: EngineId | 'auto' = 'auto'): Diagnosis => {
  const diagnoser = createDiagnoser({ engine });
  for (const line of lines) diagnoser.push(line);
  return diagnoser.finish({});
};

// Key lines may carry wrappers (docker compose, timestamps): compare the messages, not the raw text.
const messages = (text: string): string =>
  normalizeLine(text)
    .pieces.map((piece) => piece.text.trim())
    .join(' ')
    .trim();

/** Defines the checks of every SHARDS-th fixture log from `shard` (0-based). */
export const checkCorpusShard = (shard: number): void => {
  const manifest = loadManifest().filter((_, i) => i % SHARDS === shard);

  describe(`fixture logs, shard ${String(shard + 1)} of ${String(SHARDS)}`, () => {
    it('holds logs', () => {
      expect(manifest.length).toBeGreaterThan(100);
    });

    it.each(manifest.map((entry) => [entry.file, entry] as const))(
      '%s: class and key line, the same from the file',
      async (_file, entry) => {
        // Read from the file (diagnoseLogFile: the lines the prefilter keeps) while the lines are fed one by one.
        const fromFile = diagnoseLogFile(join(FIXTURE_DIR, entry.file));
        const { fed, newestFirst, unwrapped } = fedLines(entry.file);
        const diagnosis = diagnose(fed);
        expect(diagnosis.class).toBe(entry.expected_diagnosis);
        const quoted = diagnosis.evidence.map((evidence) => messages(evidence.text));
        // A key line the wrap broke is a piece of the line the evidence quotes.
        if (unwrapped) expect(quoted.join('\n')).toContain(messages(entry.key_line));
        else expect(quoted).toContain(messages(entry.key_line));
        expect(diagnosis.summary.length).toBeGreaterThan(10);
        if (diagnosis.class !== 'ready') expect(diagnosis.advice.length).toBeGreaterThan(0);
        if (newestFirst) {
          expect((await fromFile).class).toBe(entry.expected_diagnosis);
          expect((await fromFile).summary).toMatch(/newest line first/);
        } else if (unwrapped) {
          expect(await fromFile).toEqual({
            ...diagnosis,
            summary: expect.stringMatching(/broken at \d+ columns: read joined again\)$/) as unknown,
          });
        } else expect(await fromFile).toEqual(diagnosis);
        // Told its engine, the diagnoser reads it the same.
        expect(diagnose(fed, entry.engine).class).toBe(entry.expected_diagnosis);
      },
    );
  });
};
