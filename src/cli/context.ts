// What a command needs from the outside world; tests pass their own streams.
import type { Writable } from 'node:stream';

export interface CliContext {
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
  /** Print stacks for internal errors. */
  debug: boolean;
}

export const processContext = (argv: readonly string[]): CliContext => ({
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  debug: argv.includes('--debug') || process.env['VIGIL_DEBUG'] === '1',
});

/** A command module: adds its subcommand to the program; its action resolves to vigil's exit code. */
export interface CommandModule {
  register(program: import('commander').Command, ctx: CliContext, done: (code: number) => void): void;
}
