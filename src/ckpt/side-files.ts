// The files vigil keeps beside a checkpoint while it rewrites one. Every name ends in something other than
// `.safetensors`, because engines load every `*.safetensors` file of a folder that has no index.
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** The saved copy of a header being rewritten in place (exists only while a rewrite is under way). */
export const headerCopyPath = (file: string): string =>
  join(dirname(file), `.${basename(file)}.vigil-header`);

/** A unique temporary file in the same folder (same filesystem, so the final rename is atomic). */
export const tempPath = (file: string): string =>
  join(dirname(file), `.${basename(file)}.vigil-tmp-${randomBytes(6).toString('hex')}`);

/** The original file kept after a rewrite by copy. */
export const backupPath = (file: string, now: Date = new Date()): string =>
  join(
    dirname(file),
    `${basename(file)}.${now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}.vigil-bak`,
  );

/** The journal of a folder-wide rename (exists only while one is under way). */
export const JOURNAL_NAME = '.vigil-ckpt-journal.json';

/** Whether a name is one of vigil's temporary files for `file`. */
export const isTempOf = (file: string, name: string): boolean =>
  name.startsWith(`.${basename(file)}.vigil-tmp-`) || name === `.${basename(file)}.vigil-header.tmp`;
