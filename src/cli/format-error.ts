// Turns an error into the lines the user sees: what was wrong and what to do; a stack only with --debug.
import { isVigilError } from '../errors.ts';

export const formatError = (error: unknown, debug: boolean): string => {
  if (isVigilError(error)) {
    const hint = error.hint === undefined ? '' : `  ${error.hint}\n`;
    const stack = debug && error.stack !== undefined ? `${error.stack}\n` : '';
    return `vigil: ${error.message}\n${hint}${stack}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (debug && error instanceof Error && error.stack !== undefined) {
    return `vigil: internal error: ${message}\n${error.stack}\n`;
  }
  return `vigil: internal error: ${message}\n  run with --debug for the stack trace, and report it\n`;
};
