// The bundled name→versions index: in sync with the tables, and read the way messages need it.
import { describe, expect, it } from 'vitest';
import { loadNameIndex } from '../../src/flags/schema/bundled.ts';
import { describeHistory, describeVersions } from '../../src/flags/schema/history.ts';
import { nameIndexFromTables } from './name-index-source.ts';

describe('name index', () => {
  it('equals what the bundled tables say (regenerate with `npx tsx test/flags/write-name-index.ts`)', () => {
    expect(loadNameIndex()).toEqual(nameIndexFromTables());
  });

  it('lists every bundled release of each engine', () => {
    const index = loadNameIndex();
    expect(index.sglang.versions).toEqual(['0.4.3', '0.4.10', '0.5.1', '0.5.9', '0.5.18', 'main']);
    expect(index.vllm.versions).toEqual(['0.6.6.post1', '0.8.5.post1', '0.19.1', '0.20.1', 'main']);
    expect(index.tgi.versions).toEqual(['3.3.7']);
  });

  it('knows removed, added and hidden options', () => {
    const { sglang, vllm } = loadNameIndex();
    expect(sglang.options['--enable-nan-detection']?.versions).toEqual(['0.4.3', '0.4.10', '0.5.1', '0.5.9']);
    expect(sglang.options['--num-speculative-tokens']).toBeUndefined();
    expect(vllm.options['--num-speculative-tokens']?.versions).toEqual(['0.6.6.post1']);
    expect(sglang.options['--speculative-dflash-draft-window-size']?.hidden).toEqual(['0.5.18', 'main']);
    expect(vllm.options['--spec-tokens']?.versions).toEqual(['main']);
    expect(vllm.options['--calculate-kv-scales']?.versions).toEqual(['0.8.5.post1', '0.19.1', '0.20.1']);
  });

  it('describes version ranges and removals', () => {
    const { sglang } = loadNameIndex();
    const record = sglang.options['--enable-nan-detection'];
    expect(record).toBeDefined();
    if (record === undefined) return;
    expect(describeVersions(record.versions, sglang.versions)).toBe('v0.4.3–v0.5.9');
    expect(describeVersions(['0.4.3', '0.5.9'], sglang.versions)).toBe('v0.4.3, v0.5.9');
    expect(describeHistory('sglang', record, sglang.versions)).toBe(
      'it existed in SGLang v0.4.3–v0.5.9 and is gone in v0.5.18',
    );
  });
});
