// Repairs what a killed rewrite left behind, before any other checkpoint command touches the path: an
// in-place header write is finished (the new header is whole) or rolled back from the saved copy; a folder
// rename with a journal is rolled back as a whole; temporary files are removed.
import { open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../state/atomic-write.ts';
import { CheckpointError } from './errors.ts';
import { loadHeaderCopy, removeHeaderCopy } from './header-copy.ts';
import { writeRegion } from './rename-file.ts';
import { headerCopyPath, isTempOf, JOURNAL_NAME } from './side-files.ts';
import { assertNotBusy } from './lock.ts';

export interface Recovery {
  path: string;
  action: 'finished' | 'rolled-back' | 'removed-temp';
  detail: string;
}

export interface Journal {
  version: 1;
  files: { name: string; mode: 'in-place' | 'copy'; backup: string | null }[];
  config: { name: string; old: string; mode: number } | null;
  index: { name: string; old: string; mode: number } | null;
}

const exists = async (path: string): Promise<boolean> => {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
};

const readRegion = async (path: string, length: number): Promise<Buffer> => {
  const data = Buffer.alloc(length);
  const handle = await open(path, 'r');
  try {
    const { bytesRead } = await handle.read(data, 0, length, 0);
    return data.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
};

// One file with a saved header copy: keep the new header if it is whole, else put the old one back.
export const recoverFile = async (path: string, rollBack = false): Promise<Recovery | null> => {
  const copy = await loadHeaderCopy(path);
  if (copy === null) {
    if (!(await exists(headerCopyPath(path))) && !(await exists(`${headerCopyPath(path)}.tmp`))) return null;
    await removeHeaderCopy(path);
    return {
      path,
      action: 'removed-temp',
      detail: 'an unfinished header copy (the file itself was not touched yet)',
    };
  }
  const size = (await stat(path)).size;
  if (size !== copy.fileSize) {
    throw new CheckpointError(
      'Interrupted',
      `an interrupted header rewrite left ${basename(headerCopyPath(path))}, but the file's size changed since (${copy.fileSize} → ${size} bytes)`,
      `vigil will not guess; if the file is fine, delete ${headerCopyPath(path)}`,
      path,
    );
  }
  const region = await readRegion(path, copy.old.length);
  let action: Recovery['action'];
  if (!rollBack && region.equals(copy.next)) action = 'finished';
  else {
    if (!region.equals(copy.old)) await writeRegion(path, copy.old);
    action = 'rolled-back';
  }
  await removeHeaderCopy(path);
  return {
    path,
    action,
    detail:
      action === 'finished'
        ? 'the interrupted header rewrite had completed; kept the new names'
        : 'restored the previous header from the saved copy',
  };
};

const rollBackJournal = async (dir: string, journal: Journal): Promise<Recovery[]> => {
  const done: Recovery[] = [];
  for (const file of journal.files) {
    const path = join(dir, file.name);
    if (file.mode === 'in-place') {
      const r = await recoverFile(path, true);
      if (r !== null) done.push(r);
    } else if (file.backup !== null && (await exists(join(dir, file.backup)))) {
      const backup = join(dir, file.backup);
      const [a, b] = await Promise.all([stat(backup), stat(path).catch(() => null)]);
      if (b !== null && a.ino === b.ino) await rm(backup);
      else await rename(backup, path);
      done.push({ path, action: 'rolled-back', detail: 'restored the original file from its backup' });
    }
  }
  for (const json of [journal.config, journal.index]) {
    if (json === null) continue;
    const path = join(dir, json.name);
    const now = await readFile(path, 'utf8').catch(() => null);
    if (now !== json.old) {
      await writeFileAtomic(path, json.old, { mode: json.mode });
      done.push({ path, action: 'rolled-back', detail: `restored ${json.name}` });
    }
  }
  return done;
};

// Everything a killed rewrite left in a folder; returns what was repaired (nothing when all was clean).
export const recoverFolder = async (dir: string): Promise<Recovery[]> => {
  await assertNotBusy(dir);
  const done: Recovery[] = [];
  const journalPath = join(dir, JOURNAL_NAME);
  const text = await readFile(journalPath, 'utf8').catch(() => null);
  if (text !== null) {
    let journal: Journal | null;
    try {
      journal = JSON.parse(text) as Journal;
    } catch {
      journal = null;
    }
    if (journal !== null) done.push(...(await rollBackJournal(dir, journal)));
    await rm(journalPath, { force: true });
  }
  const names = await readdir(dir);
  for (const name of names) {
    const match = /^\.(.+)\.vigil-header(\.tmp)?$/.exec(name);
    if (match?.[1] !== undefined && (await exists(join(dir, match[1])))) {
      const r = await recoverFile(join(dir, match[1]));
      if (r !== null) done.push(r);
    }
  }
  for (const name of await readdir(dir)) {
    const owner = /^\.(.+?)\.vigil-(?:tmp-[0-9a-f]+|header\.tmp)$/.exec(name)?.[1];
    if (owner !== undefined && isTempOf(join(dir, owner), name)) {
      await rm(join(dir, name), { force: true });
      done.push({
        path: join(dir, name),
        action: 'removed-temp',
        detail: 'a temporary file of an interrupted rewrite',
      });
    }
  }
  return done;
};
