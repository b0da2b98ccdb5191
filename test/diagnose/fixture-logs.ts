// The real server logs in test/fixtures/logs and their manifest, for the diagnosis and phase tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findWrapWidth, unwrapLines } from '../../src/logs/hard-wrap.ts';
import { isNewestFirst, timeOrder } from '../../src/diagnose/file/time-order.ts';
import type { RawLine } from '../../src/logs/types.ts';

export const FIXTURE_DIR = join(import.meta.dirname, '..', 'fixtures', 'logs');

export interface ManifestEntry {
  file: string;
  engine: 'sglang' | 'vllm' | 'tgi';
  expected_diagnosis: string;
  key_line: string;
  fragment: boolean;
}

export const loadManifest = (): ManifestEntry[] =>
  JSON.parse(readFileSync(join(FIXTURE_DIR, 'manifest.json'), 'utf8')) as ManifestEntry[];

// The file's physical lines with 1-based numbers (a final newline does not start another line).
export const readLines = (file: string): RawLine[] => {
  const lines = readFileSync(join(FIXTURE_DIR, file), 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((text, i) => ({ line: i + 1, text }));
};

// A fixture's lines as a file is read: a log pasted newest line first in time order (time-order.test.ts), a log
// broken at a window's width joined again (hard-wrap.test.ts).
export const fedLines = (file: string): { fed: RawLine[]; newestFirst: boolean; unwrapped: boolean } => {
  const lines = readLines(file);
  const texts = lines.map((line) => line.text);
  if (isNewestFirst(texts))
    return {
      fed: timeOrder(texts).map((n, i) => ({ line: i + 1, text: texts[n - 1] ?? '' })),
      newestFirst: true,
      unwrapped: false,
    };
  const width = findWrapWidth(texts);
  if (width === null) return { fed: lines, newestFirst: false, unwrapped: false };
  return { fed: unwrapLines(texts, width), newestFirst: false, unwrapped: true };
};
