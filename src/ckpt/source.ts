// Where header bytes come from: a local file today, a remote host later. Header parsing only asks a source
// for a file's size and a few byte ranges, so no tensor data ever has to be read or sent.
import { open, stat } from 'node:fs/promises';

export interface ByteSource {
  /** Shown in messages: the file's path. */
  readonly name: string;
  /** The file's length in bytes. */
  size(): Promise<number>;
  /** Exactly `length` bytes from `offset` (fewer only at the end of the file). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

// A local file read with positioned reads; each call opens and closes it, so nothing stays open.
export const fileSource = (path: string): ByteSource => ({
  name: path,
  size: async () => (await stat(path)).size,
  read: async (offset, length) => {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(buffer, done, length - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return buffer.subarray(0, done);
    } finally {
      await handle.close();
    }
  },
});

// An in-memory file, for headers that already crossed a link or for tests.
export const bytesSource = (name: string, bytes: Uint8Array): ByteSource => ({
  name,
  size: () => Promise.resolve(bytes.length),
  read: (offset, length) => Promise.resolve(bytes.subarray(offset, Math.min(bytes.length, offset + length))),
});
