// The watcher's framed stream and the line splitter, fed in awkward chunkings.
import { describe, expect, it } from 'vitest';
import { createRecordParser, type WatchRecord } from '../../../src/hosts/remote/records.ts';
import { createLineSplitter } from '../../../src/hosts/remote/lines.ts';

describe('createRecordParser', () => {
  it('reads records split at every byte boundary', () => {
    const stream = Buffer.from('B abc\nH 200 12 - 9\nL 0 9\nline\nx\ny\nH - 3 ECONNREFUSED -\nE 1\n');
    const records: WatchRecord[] = [];
    const parser = createRecordParser((r) => records.push(r));
    for (let i = 0; i < stream.length; i++) parser.push(stream.subarray(i, i + 1));
    expect(records.map((r) => r.kind)).toEqual(['boot', 'probe', 'log', 'probe', 'end']);
    expect(records[2]).toMatchObject({ kind: 'log', offset: 0 });
    expect((records[2] as { bytes: Buffer }).bytes.toString()).toBe('line\nx\ny\n');
    expect(records[1]).toEqual({ kind: 'probe', status: 200, ms: 12, error: null, logSize: 9 });
    expect(records[3]).toEqual({ kind: 'probe', status: null, ms: 3, error: 'ECONNREFUSED', logSize: null });
    expect(records[4]).toEqual({ kind: 'end', code: 1 });
  });
});

describe('createLineSplitter', () => {
  it('numbers lines across chunks, drops a trailing CR and flushes the unfinished line', () => {
    const split = createLineSplitter();
    expect(split.push(Buffer.from('a\r\nb'))).toEqual([{ line: 1, text: 'a' }]);
    expect(split.push(Buffer.from('c\nd'))).toEqual([{ line: 2, text: 'bc' }]);
    expect(split.flush()).toEqual([{ line: 3, text: 'd' }]);
  });

  it('hands over redraws of an unfinished progress line as partial', () => {
    const split = createLineSplitter(10);
    expect(split.push(Buffer.from('10%\r20%\r3'))).toEqual([{ line: 10, text: '10%\r20%', partial: true }]);
    expect(split.push(Buffer.from('0%\n'))).toEqual([{ line: 10, text: '10%\r20%\r30%' }]);
  });

  it('splits a multi-byte character across chunks correctly', () => {
    const split = createLineSplitter();
    const bytes = Buffer.from('日本\n');
    expect(split.push(bytes.subarray(0, 2))).toEqual([]);
    expect(split.push(bytes.subarray(2))).toEqual([{ line: 1, text: '日本' }]);
  });
});
