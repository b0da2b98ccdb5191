// A clap-parsed launcher (TGI's text-generation-launcher) reports the same problems as argparse in its own words;
// findings quote what that launcher would print, so its messages are rewritten here (facts of clap's error
// texts: `error: unexpected argument '--x' found`, `error: invalid value 'v' for '--port <PORT>'`, ...).
import type { FlagOption } from '../schema/schema.ts';
import type { ArgparseIssue, ArgparseResult } from './parse.ts';

// clap names an option by its long form and, when it takes a value, the value's name: `--port <PORT>`.
const clapName = (option: FlagOption): string => {
  const flag = option.strings.find((s) => s.startsWith('--')) ?? option.strings[0] ?? option.dest;
  if (option.nargs === 0) return flag;
  return `${flag} <${option.metavar ?? option.dest.toUpperCase()}>`;
};

const optionText = (issue: ArgparseIssue): string =>
  issue.option === null ? (issue.arg?.split('=')[0] ?? '') : clapName(issue.option);

// The first line clap prints after `error: ` for one issue.
export const clapMessage = (issue: ArgparseIssue): string => {
  switch (issue.kind) {
    case 'unrecognized':
      return `unexpected argument '${issue.args?.[0] ?? issue.arg ?? ''}' found`;
    case 'expected-value':
      return `a value is required for '${optionText(issue)}' but none was supplied`;
    case 'unexpected-value':
      return `unexpected value '${issue.value ?? issue.arg?.split('=').slice(1).join('=') ?? ''}' for '${optionText(issue)}' found; no more were expected`;
    case 'invalid-choice':
    case 'invalid-value':
      return `invalid value '${issue.value ?? ''}' for '${optionText(issue)}'`;
    case 'required-missing':
      return `the following required arguments were not provided: ${optionText(issue)}`;
    case 'ambiguous':
      // clap takes no abbreviations: an abbreviated option is simply unknown to it.
      return `unexpected argument '${issue.arg ?? ''}' found`;
  }
};

// Rewrites a parse result in clap's words; clap stops at the first problem from the left.
export const inClapWords = (result: ArgparseResult): void => {
  for (const issue of result.issues) issue.message = clapMessage(issue);
  if (result.argparseError === null) return;
  const first = [...result.issues].sort(
    (a, b) => (a.index ?? Number.MAX_SAFE_INTEGER) - (b.index ?? Number.MAX_SAFE_INTEGER),
  )[0];
  result.argparseError = first === undefined ? result.argparseError : first.message;
};
