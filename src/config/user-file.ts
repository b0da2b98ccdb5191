// Reading a file the user named (--env-file, --config, --help-file): only a regular file is opened, so a FIFO or a
// device named by mistake is an error at once instead of a read that blocks vigil for good.
import { readFileSync, statSync } from 'node:fs';

// The error for a path that is not a regular file, as errno-style code and words, or null when it is one.
const notRegular = (path: string): NodeJS.ErrnoException | null => {
  const info = statSync(path);
  if (info.isFile()) return null;
  const what = info.isDirectory() ? 'a directory' : info.isFIFO() ? 'a FIFO' : 'not a regular file';
  return Object.assign(new Error(`${path} is ${what}`), {
    code: info.isDirectory() ? 'EISDIR' : 'ENOTREGULAR',
  });
};

// readFileSync(path, 'utf8') for regular files only; throws like fs does (with `code`) otherwise.
export const readUserFileSync = (path: string): string => {
  const problem = notRegular(path);
  if (problem !== null) throw problem;
  return readFileSync(path, 'utf8');
};
