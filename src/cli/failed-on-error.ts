// A watch command (up, wait, attach) that ends on an error before its watch began still owes a jsonl or json
// reader its final `failed` event: scripts read the last line for the verdict, whatever went wrong.
import { EVENT_SCHEMA_VERSION, type FailReason, type FailedEvent } from '../events.ts';
import { exitCodeForReason } from '../exit-codes.ts';
import { isVigilError } from '../errors.ts';

const WATCH_COMMANDS = new Set(['up', 'wait', 'attach']);

// The value of `--output` in argv (`--output X` or `--output=X`), before any `--`.
const outputOf = (argv: readonly string[]): string | undefined => {
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  let found: string | undefined;
  options.forEach((arg, i) => {
    if (arg === '--output') found = options[i + 1];
    else if (arg.startsWith('--output=')) found = arg.slice('--output='.length);
  });
  return found;
};

const reasonFor = (error: unknown): FailReason => {
  if (isVigilError(error) && error.code === 'E_PREFLIGHT') return 'preflight';
  if (isVigilError(error) && error.code === 'E_UNREACHABLE') return 'unreachable';
  return 'usage';
};

// The `failed` line to print for an error, or null when the command and its output mode want none.
export const failedLineFor = (
  command: string | null,
  argv: readonly string[],
  error: unknown,
  message: string,
): string | null => {
  const output = outputOf(argv);
  if (command === null || !WATCH_COMMANDS.has(command) || (output !== 'jsonl' && output !== 'json'))
    return null;
  const reason = reasonFor(error);
  const hint = isVigilError(error) ? error.hint : undefined;
  const event: FailedEvent = {
    type: 'failed',
    t: Math.round(performance.now()),
    reason,
    exit_code: exitCodeForReason(reason),
    server_exit_code: null,
    server_signal: null,
    elapsed_ms: 0,
    diagnosis: { class: 'unknown', summary: message, evidence: [], advice: hint === undefined ? [] : [hint] },
    message,
  };
  return `${JSON.stringify({ ...event, v: EVENT_SCHEMA_VERSION })}\n`;
};
