// The one function that quotes an argument for a POSIX shell: everything vigil sends across a remote shell
// goes through it. Single quotes turn off every expansion; a single quote inside is closed, escaped and reopened.
// Also how a --remote-shell reads its script from stdin.
import { invalidOption, UsageError } from '../../errors.ts';

// Quotes one argument: `it's` becomes `'it'\''s'`, the empty string `''`. A NUL cannot cross a shell.
export const shellQuote = (arg: string): string => {
  if (arg.includes('\0')) {
    throw new UsageError('an argument holds a NUL byte, which no shell command can carry', {
      hint: 'remove the NUL from the argument',
    });
  }
  return `'${arg.replaceAll("'", `'\\''`)}'`;
};

// Quotes each argument and joins them with spaces: a command line the remote shell splits back into argv.
export const shellJoin = (argv: readonly string[]): string => argv.map(shellQuote).join(' ');

// `sh -c` → `sh -s`; `bash -lc` → `bash -l -s`: the same shell, reading its script from stdin.
export const stdinShell = (remoteShell: string | undefined): string[] => {
  const words = (remoteShell ?? 'sh -c').trim().split(/\s+/);
  if (words.length === 0 || words[0] === '' || !words.every((w) => /^[A-Za-z0-9_./-]+$/.test(w))) {
    throw invalidOption('--remote-shell', "a shell and its flags, e.g. 'bash -lc'", remoteShell);
  }
  const out: string[] = [];
  for (const word of words) {
    if (word === '-c') continue;
    out.push(/^-[A-Za-z]+$/.test(word) && word.endsWith('c') ? word.slice(0, -1) : word);
  }
  return [...out, '-s'];
};
