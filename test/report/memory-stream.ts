// An in-memory output stream for renderer tests: records every write, can pose as a terminal.
import { Writable } from 'node:stream';

export interface MemoryStream extends Writable {
  isTTY?: boolean;
  columns?: number;
  readonly chunks: string[];
  text(): string;
}

export const createMemoryStream = (tty?: { columns: number }): MemoryStream => {
  const chunks: string[] = [];
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      callback();
    },
  });
  return Object.assign(stream, {
    chunks,
    text: () => chunks.join(''),
    ...(tty === undefined ? {} : { isTTY: true, columns: tty.columns }),
  });
};
