// Before a launch: is the state directory usable, and is the --log a file vigil may append to? Both are checked
// with lstat/stat and access only: no open() that could block on a FIFO or a device the user named.
import {
  accessSync,
  chmodSync,
  constants,
  lstatSync,
  mkdirSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import { dirname } from 'node:path';

// A path vigil can use, with what the user should know about it; or why it cannot be used.
export type PathCheck<T> =
  { ok: true; value: T; notices: PathNotice[] } | { ok: false; problem: string; hint: string };

export interface PathNotice {
  code: string;
  message: string;
}

// Where the server's output goes: a regular file (resolved through symlinks), or nowhere for /dev/null.
export type LogTarget = { kind: 'file'; path: string } | { kind: 'none' };

const DEV_NULL = '/dev/null';

// Creates the state directory (0700) or checks the one that exists: a folder, writable, and private (a looser
// mode is tightened to 0700, and said).
export const prepareStateDir = (dir: string): PathCheck<string> => {
  const hint = 'set XDG_STATE_HOME to a writable folder, or fix the path';
  const notices: PathNotice[] = [];
  let info = lstatOrNull(dir);
  if (info === null) {
    const blocked = fileAbove(dir);
    if (blocked !== null)
      return refuse(`the state directory ${dir} cannot be created: ${blocked} is not a directory`, hint);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      return refuse(`the state directory ${dir} cannot be created: ${reason(error)}`, hint);
    }
    info = lstatOrNull(dir);
  }
  if (info === null || !statOrNull(dir)?.isDirectory()) {
    return refuse(`the state directory ${dir} is not a directory`, hint);
  }
  const problem = unwritable(dir);
  if (problem !== null) return refuse(`the state directory ${dir} is ${problem}`, hint);
  const mode = info.mode & 0o777;
  if (!info.isSymbolicLink() && (mode & 0o077) !== 0) {
    if (info.uid !== process.getuid?.()) {
      return refuse(
        `the state directory ${dir} (mode ${octal(mode)}) is open to others and belongs to another user`,
        'use a state directory of your own (XDG_STATE_HOME)',
      );
    }
    try {
      chmodSync(dir, 0o700);
    } catch (error) {
      return refuse(
        `the state directory ${dir} is open to others (mode ${octal(mode)}) and cannot be tightened: ${reason(error)}`,
        hint,
      );
    }
    notices.push({
      code: 'state-dir-mode',
      message: `the state directory ${dir} was open to others (mode ${octal(mode)}); it holds launch records, so vigil set it to 0700`,
    });
  }
  return { ok: true, value: dir, notices };
};

// Checks a --log path: it must be a regular file or not exist yet (in a writable folder); a symlink is resolved
// and said; a file others can read is said; /dev/null means no log.
export const checkLogPath = (path: string): PathCheck<LogTarget> => {
  const hint = 'pass --log with a regular file in a writable folder (or /dev/null for no log)';
  const notices: PathNotice[] = [];
  if (path === DEV_NULL) {
    return {
      ok: true,
      value: { kind: 'none' },
      notices: [
        { code: 'no-log', message: '--log /dev/null: no log followed, so no stall detection and no phases' },
      ],
    };
  }
  let target = path;
  const link = lstatOrNull(path);
  if (link?.isSymbolicLink() === true) {
    try {
      target = realpathSync(path);
    } catch {
      return refuse(`--log ${path} is a symlink to a path that does not exist`, hint);
    }
    notices.push({ code: 'log-symlink', message: `--log ${path} is a symlink; appending to ${target}` });
  }
  const info = lstatOrNull(target);
  if (info === null) {
    const folder = dirname(target);
    const blocked = fileAbove(target);
    if (blocked !== null) return refuse(`--log ${path}: ${blocked} is not a directory`, hint);
    const problem = statOrNull(folder) === null ? null : unwritable(folder);
    if (problem !== null) return refuse(`--log ${path}: its folder ${folder} is ${problem}`, hint);
    return { ok: true, value: { kind: 'file', path: target }, notices };
  }
  if (!info.isFile()) return refuse(`--log ${path} is ${kindOf(info)}`, hint);
  const problem = unwritable(target);
  if (problem !== null) return refuse(`--log ${path} is ${problem}`, hint);
  const mode = info.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    notices.push({
      code: 'log-mode',
      message: `--log ${target} has mode ${octal(mode)}: others can read what the server writes there (vigil creates logs with 0600)`,
    });
  }
  return { ok: true, value: { kind: 'file', path: target }, notices };
};

// Whether a path names something vigil may only read without blocking (a regular file, or nothing yet).
export const describeNonRegular = (path: string): string | null => {
  const info = statOrNull(path);
  if (info === null || info.isFile()) return null;
  return kindOf(info);
};

export const kindOf = (info: Stats): string => {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'not a regular file (a FIFO)';
  if (info.isSocket()) return 'not a regular file (a socket)';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'not a regular file (a device)';
  return 'not a regular file';
};

// null when writable, else why not (read-only filesystem, no permission).
const unwritable = (path: string): string | null => {
  try {
    accessSync(path, constants.W_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return 'on a read-only filesystem';
    if (code === 'EACCES' || code === 'EPERM') return 'not writable (permission denied)';
    return `not writable (${reason(error)})`;
  }
};

// The nearest existing ancestor of a path that does not exist, when it is not a folder (mkdir would fail ENOTDIR).
const fileAbove = (path: string): string | null => {
  for (let at = dirname(path); ; at = dirname(at)) {
    const info = statOrNull(at);
    if (info !== null) return info.isDirectory() ? null : at;
    if (dirname(at) === at) return null;
  }
};

const lstatOrNull = (path: string): Stats | null => {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
};

const statOrNull = (path: string): Stats | null => {
  try {
    return statSync(path);
  } catch {
    return null;
  }
};

const refuse = (problem: string, hint: string): { ok: false; problem: string; hint: string } => ({
  ok: false,
  problem,
  hint,
});
const octal = (mode: number): string => `0${mode.toString(8).padStart(3, '0')}`;
const reason = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;
