// Redacts every string inside an event before any renderer formats it, so JSON stays valid and no secret
// reaches a line by way of a field the final whole-line pass might not recognise.
import type { VigilEvent } from '../events.ts';
import { MASK } from '../redact/redactor.ts';

const SECRET_FLAGS = new Set(['--api-key', '--admin-api-key']);

const redactValue = (value: unknown, redact: (text: string) => string): unknown => {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(item, redact)]));
  }
  return value;
};

// A deep copy of the event with every string passed through the redactor.
export const redactEvent = <E extends VigilEvent>(event: E, redact: (text: string) => string): E =>
  redactValue(event, redact) as E;

// Redacts an argv, masking the value that follows `--api-key` / `--admin-api-key` whatever it is.
export const redactArgv = (argv: readonly string[], redact: (text: string) => string): string[] =>
  argv.map((arg, i) => {
    const previous = argv[i - 1];
    if (previous !== undefined && SECRET_FLAGS.has(previous.replaceAll('_', '-'))) return MASK;
    return redact(arg);
  });
