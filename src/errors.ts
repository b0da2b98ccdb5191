// The small family of errors vigil throws; callers branch on `code`, never on message text.

export type VigilErrorCode =
  | 'E_USAGE'
  | 'E_INVALID_OPTION'
  | 'E_PREFLIGHT'
  | 'E_PORT_IN_USE'
  | 'E_SPAWN'
  | 'E_NOT_FOUND'
  | 'E_STATE'
  | 'E_CKPT'
  | 'E_HOST'
  | 'E_UNREACHABLE'
  | 'E_INTERNAL';

export interface VigilErrorOptions {
  cause?: unknown;
  /** What the user can do about it. */
  hint?: string;
  /** The option or argument at fault, e.g. `--timeout`. */
  option?: string;
}

export class VigilError extends Error {
  readonly code: VigilErrorCode;
  readonly hint: string | undefined;
  readonly option: string | undefined;

  constructor(code: VigilErrorCode, message: string, options: VigilErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'VigilError';
    this.code = code;
    this.hint = options.hint;
    this.option = options.option;
  }
}

// Bad user input: names the option, what was expected and what came.
export class UsageError extends VigilError {
  constructor(message: string, options: VigilErrorOptions = {}) {
    super('E_USAGE', message, options);
    this.name = 'UsageError';
  }
}

// Thrown by validators for one option; the message reads "<option>: expected X, got Y".
export const invalidOption = (option: string, expected: string, got: unknown, hint?: string): UsageError =>
  new UsageError(`${option}: expected ${expected}, got ${formatGot(got)}`, {
    option,
    ...(hint === undefined ? {} : { hint }),
  });

const formatGot = (got: unknown): string => {
  if (typeof got === 'string') return got === '' ? 'an empty string' : JSON.stringify(got);
  if (got === undefined) return 'nothing';
  if (typeof got === 'number' || typeof got === 'boolean' || typeof got === 'bigint') return String(got);
  return JSON.stringify(got);
};

export const isVigilError = (error: unknown): error is VigilError => error instanceof VigilError;
