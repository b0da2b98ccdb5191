// Before a launch: can the server command run at all? A missing command, a file without execute permission and a
// folder are all found here, before anything is spawned, and reported the same way (docs/cli.md: exit 2).
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve as resolvePath } from 'node:path';

// null when the file can be executed; otherwise what is wrong with it, e.g. "foo: command not found on PATH".
export const commandProblem = (file: string, cwd: string | undefined, pathVar: string): string | null => {
  if (file.includes('/'))
    return problemOf(isAbsolute(file) ? file : resolvePath(cwd ?? process.cwd(), file), file);
  // On PATH, the first entry that is an executable file wins, as execvp does; a folder or plain file is skipped.
  let first: string | null = null;
  for (const dir of pathVar.split(delimiter)) {
    const problem = problemOf(join(dir || '.', file), file);
    if (problem === null) return null;
    if (!problem.endsWith('not found')) first ??= problem;
  }
  return first ?? `${file}: command not found on PATH`;
};

const problemOf = (path: string, shown: string): string | null => {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    return `${shown}: command not found`;
  }
  if (isDirectory) return `${shown}: is a directory`;
  try {
    accessSync(path, constants.X_OK);
    return null;
  } catch {
    return `${shown}: not executable (no execute permission)`;
  }
};
