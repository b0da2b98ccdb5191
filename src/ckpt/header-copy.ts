// The saved header copy that makes an in-place header rewrite recoverable after kill -9: the old and new
// header regions plus the file size, sealed by a SHA-256 so a half-written copy is never trusted.
import { createHash } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { headerCopyPath } from './side-files.ts';
import { syncDir } from './fsync.ts';

const MAGIC = Buffer.from('VIGILHD1', 'latin1');

export interface HeaderCopy {
  /** The file's first 8 + N bytes before the rewrite. */
  old: Buffer;
  /** The same region after it. */
  next: Buffer;
  fileSize: number;
}

const u64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};

// Writes the copy under a temporary name, fsyncs it, renames it into place and fsyncs the folder.
export const saveHeaderCopy = async (file: string, copy: HeaderCopy): Promise<string> => {
  const body = Buffer.concat([
    MAGIC,
    u64(copy.old.length),
    copy.old,
    u64(copy.next.length),
    copy.next,
    u64(copy.fileSize),
  ]);
  const sealed = Buffer.concat([body, createHash('sha256').update(body).digest()]);
  const path = headerCopyPath(file);
  const temp = `${path}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(sealed);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
  await syncDir(dirname(file));
  return path;
};

// Reads a saved copy; null when it is absent or incomplete (then the file itself was never touched).
export const loadHeaderCopy = async (file: string): Promise<HeaderCopy | null> => {
  let sealed: Buffer;
  try {
    sealed = await readFile(headerCopyPath(file));
  } catch {
    return null;
  }
  if (sealed.length < MAGIC.length + 56 || !sealed.subarray(0, 8).equals(MAGIC)) return null;
  const body = sealed.subarray(0, sealed.length - 32);
  if (
    !createHash('sha256')
      .update(body)
      .digest()
      .equals(sealed.subarray(sealed.length - 32))
  )
    return null;
  const oldLength = Number(body.readBigUInt64LE(8));
  const old = body.subarray(16, 16 + oldLength);
  const nextLength = Number(body.readBigUInt64LE(16 + oldLength));
  const next = body.subarray(24 + oldLength, 24 + oldLength + nextLength);
  const fileSize = Number(body.readBigUInt64LE(24 + oldLength + nextLength));
  return { old: Buffer.from(old), next: Buffer.from(next), fileSize };
};

export const removeHeaderCopy = async (file: string): Promise<void> => {
  await rm(headerCopyPath(file), { force: true });
  await rm(`${headerCopyPath(file)}.tmp`, { force: true });
};
