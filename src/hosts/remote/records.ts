// Reads the watcher's framed stream: one header line per record, and for log records the bytes that follow it.

export type WatchRecord =
  | { kind: 'boot'; id: string }
  | { kind: 'lines'; count: number }
  | { kind: 'log'; offset: number; bytes: Buffer }
  | { kind: 'truncated' }
  | { kind: 'probe'; status: number | null; ms: number; error: string | null; logSize: number | null }
  | { kind: 'leader-exited'; code: number | null }
  | { kind: 'end'; code: number | null };

const NEWLINE = 0x0a;

const numberOrNull = (text: string | undefined): number | null =>
  text === undefined || !/^\d+$/.test(text) ? null : Number(text);

// Feeds chunks in, calls onRecord for each complete record; lines it does not know are skipped.
export const createRecordParser = (
  onRecord: (record: WatchRecord) => void,
): { push(chunk: Buffer): void } => {
  let buffer: Buffer = Buffer.alloc(0);
  let awaiting: { offset: number; length: number } | null = null;
  return {
    push(chunk) {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      for (;;) {
        if (awaiting !== null) {
          if (buffer.length < awaiting.length) return;
          onRecord({ kind: 'log', offset: awaiting.offset, bytes: buffer.subarray(0, awaiting.length) });
          buffer = buffer.subarray(awaiting.length);
          awaiting = null;
          continue;
        }
        const nl = buffer.indexOf(NEWLINE);
        if (nl === -1) return;
        const [tag, a, b, c, d] = buffer.toString('utf8', 0, nl).split(' ');
        buffer = buffer.subarray(nl + 1);
        if (tag === 'L') awaiting = { offset: Number(a), length: Number(b) };
        else if (tag === 'B' && a !== undefined) onRecord({ kind: 'boot', id: a });
        else if (tag === 'N') onRecord({ kind: 'lines', count: Number(a) || 0 });
        else if (tag === 'T') onRecord({ kind: 'truncated' });
        else if (tag === 'H')
          onRecord({
            kind: 'probe',
            status: numberOrNull(a),
            ms: Number(b) || 0,
            error: c === undefined || c === '-' ? null : c,
            logSize: numberOrNull(d),
          });
        else if (tag === 'X') onRecord({ kind: 'leader-exited', code: numberOrNull(a) });
        else if (tag === 'E') onRecord({ kind: 'end', code: numberOrNull(a) });
      }
    },
  };
};
