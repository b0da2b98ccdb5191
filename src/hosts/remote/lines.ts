// Splits streamed log bytes into file lines, numbered like the local follower numbers them: a trailing `\r` is
// dropped, and an unfinished line holding `\r` redraws is handed over as `partial` so progress bars advance.
import type { FollowedLine } from '../../logs/follow.ts';

const NEWLINE = 0x0a;
const CR = 0x0d;

export interface LineSplitter {
  push(bytes: Buffer): FollowedLine[];
  /** Hands over the unterminated last line (the writer is gone). */
  flush(): FollowedLine[];
  /** The file was truncated: numbering starts again at line 1. */
  reset(): void;
  setLineNo(next: number): void;
}

export const createLineSplitter = (firstLine = 1): LineSplitter => {
  let lineNo = firstLine;
  let pending: Buffer = Buffer.alloc(0);
  let partialSent = 0;
  const text = (bytes: Buffer): string => {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    return bytes.toString('utf8', 0, end);
  };
  return {
    push(bytes) {
      const lines: FollowedLine[] = [];
      let data = pending.length === 0 ? bytes : Buffer.concat([pending, bytes]);
      let start = 0;
      for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
        lines.push({ line: lineNo++, text: text(data.subarray(start, nl)) });
        start = nl + 1;
        partialSent = 0;
      }
      data = data.subarray(start);
      pending = Buffer.from(data);
      const lastCr = pending.lastIndexOf(CR);
      if (lastCr > 0 && lastCr > partialSent) {
        partialSent = lastCr;
        lines.push({ line: lineNo, text: pending.toString('utf8', 0, lastCr), partial: true });
      }
      return lines;
    },
    flush() {
      if (pending.length === 0) return [];
      const line = { line: lineNo++, text: text(pending) };
      pending = Buffer.alloc(0);
      partialSent = 0;
      return [line];
    },
    reset() {
      lineNo = 1;
      pending = Buffer.alloc(0);
      partialSent = 0;
    },
    setLineNo(next) {
      lineNo = next;
    },
  };
};
