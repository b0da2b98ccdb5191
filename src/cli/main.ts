// The CLI's top level: parse, dispatch to one command, map what happened to an exit code. Only here does vigil exit.
import { Command, CommanderError } from 'commander';
import { EXIT } from '../exit-codes.ts';
import { isVigilError } from '../errors.ts';
import { processContext, type CliContext, type CommandModule } from './context.ts';
import { formatError } from './format-error.ts';

// Command modules load lazily, so `vigil check` does not pay for the watcher's imports.
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  up: () => import('./up.ts'),
  wait: () => import('./wait.ts'),
  check: () => import('./check.ts'),
  diagnose: () => import('./diagnose.ts'),
  status: () => import('./status.ts'),
  stop: () => import('./stop.ts'),
  logs: () => import('./logs.ts'),
  attach: () => import('./attach.ts'),
  sim: () => import('./sim.ts'),
  smoke: () => import('./smoke.ts'),
  bench: () => import('./bench.ts'),
  demo: () => import('./demo.ts'),
  ckpt: () => import('./ckpt.ts'),
};

export const VERSION = '0.1.0';

// Runs the CLI on argv (without node and script) and resolves to the exit code.
export const main = async (
  argv: readonly string[],
  ctx: CliContext = processContext(argv),
): Promise<number> => {
  let exitCode: number = EXIT.ready;
  const program = new Command('vigil')
    .description('Launch an LLM inference server, check its flags, watch it start, explain failures.')
    .version(VERSION)
    .option('--debug', 'print stack traces for internal errors')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.stdout.write(text),
      writeErr: (text) => ctx.stderr.write(text),
    })
    .showSuggestionAfterError(true);

  const name = argv.find((arg) => !arg.startsWith('-'));
  const wanted = name !== undefined && name in COMMANDS ? [name] : Object.keys(COMMANDS);
  for (const command of wanted) {
    const load = COMMANDS[command];
    if (load === undefined) continue;
    const module = await load();
    module.register(program, ctx, (code) => {
      exitCode = code;
    });
  }

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ready;
      if (error.code === 'commander.help') return EXIT.ready;
      return EXIT.usage;
    }
    ctx.stderr.write(formatError(error, ctx.debug));
    if (isVigilError(error) && error.code === 'E_UNREACHABLE') return EXIT.unreachable;
    return isVigilError(error) && error.code === 'E_PREFLIGHT' ? EXIT.preflight : EXIT.usage;
  }
};
