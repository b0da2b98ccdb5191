// The one function that quotes an argument for a POSIX shell: everything vigil sends across a remote shell
// goes through it. Single quotes turn off every expansion; a single quote inside is closed, escaped and reopened.
import { UsageError } from '../../errors.ts';

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
