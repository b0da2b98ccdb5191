// The CLI's top level: parse, dispatch to one command, map what happened to an exit code. Only here does vigil exit.
import { Command, CommanderError, Help } from 'commander';
import { EXIT } from '../exit-codes.ts';
import { isVigilError } from '../errors.ts';
import { processContext, type CliContext, type CommandModule } from './context.ts';
import { formatError } from './format-error.ts';

/** A command as the top level knows it without loading it: how its help line reads, and its module. */
interface CommandEntry {
  /** Its arguments as the top-level help lists them, e.g. `[options] <url>`. */
  args: string;
  summary: string;
  load: () => Promise<CommandModule>;
}

// One line per command. Only the command being run is loaded: `vigil --version` and `vigil --help` load none,
// `vigil up --help` only up.
// prettier-ignore
const COMMANDS: Record<string, CommandEntry> = {
  up: { args: '[options] [command...]', summary: 'launch a server, watch it start, and report ready or why it failed', load: () => import('./up.ts') },
  wait: { args: '[options] <url>', summary: 'watch a server started some other way until it is ready or fails', load: () => import('./wait.ts') },
  check: { args: '[options] <command...>', summary: "check a server command's flags against the engine's own CLI, without launching it", load: () => import('./check.ts') },
  diagnose: { args: '[options] <log-file>', summary: 'explain a failed start from its log: the root cause, the evidence lines and what to change', load: () => import('./diagnose.ts') },
  status: { args: '[options] [id]', summary: 'list launched servers with their live state (each remote host asked once, in parallel)', load: () => import('./status.ts') },
  stop: { args: '[options] <id>', summary: 'stop a launched server and verify that nothing of it is left', load: () => import('./stop.ts') },
  logs: { args: '[options] <id>', summary: "print a launch's log (with -f, keep following it)", load: () => import('./logs.ts') },
  attach: { args: '[options] <id>', summary: 'watch a launched server again (after vigil was stopped), from the log offset its record holds', load: () => import('./attach.ts') },
  sim: { args: '[options] <engine> [args...]', summary: "run a simulated SGLang or vLLM server: real HTTP, the engine's log lines, injectable failures", load: () => import('./sim.ts') },
  smoke: { args: '[options] <base-url>', summary: 'prove a server generates: one streamed chat completion, and the engine\'s generation health check', load: () => import('./smoke.ts') },
  bench: { args: '[options] <base-url>', summary: 'load a server over the OpenAI API and measure throughput, latency and speculative acceptance', load: () => import('./bench.ts') },
  demo: { args: '[options]', summary: 'the story on the simulator: a rejected flag, the corrected launch, its phases, one generation', load: () => import('./demo.ts') },
  ckpt: { args: '[command]', summary: 'inspect, re-key and check safetensors checkpoints (EAGLE-3 drafters)', load: () => import('./ckpt.ts') },
};

export const VERSION = '0.1.0';

// The command argv asks for: the first word that is not an option (the top level's options take no values);
// `vigil help up` asks for up.
const wantedCommand = (argv: readonly string[]): string | null => {
  const words = argv.filter((arg) => !arg.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return name !== undefined && Object.hasOwn(COMMANDS, name) ? name : null;
};

// The final `failed` event a watch command owes its jsonl/json reader (loaded only when something failed).
const writeFailedEvent = async (
  ctx: CliContext,
  command: string | null,
  argv: readonly string[],
  error: unknown,
  message: string,
): Promise<void> => {
  const { failedLineFor } = await import('./failed-on-error.ts');
  const line = failedLineFor(command, argv, error, message);
  if (line !== null) ctx.stdout.write(line);
};

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
    .configureHelp({
      subcommandTerm: (command) => {
        const entry = COMMANDS[command.name()];
        return entry === undefined ? new Help().subcommandTerm(command) : `${command.name()} ${entry.args}`;
      },
    })
    .showSuggestionAfterError(true);

  const wanted = wantedCommand(argv);
  for (const [name, entry] of Object.entries(COMMANDS)) {
    if (name !== wanted) {
      // Listed in the help and known to the suggestions; never run (the wanted command is the only one run).
      program.command(name).description(entry.summary);
      continue;
    }
    const module = await entry.load();
    module.register(program, ctx, (code) => {
      exitCode = code;
    });
    const command = program.commands.find((c) => c.name() === name);
    if (command !== undefined && command.description() === '') command.description(entry.summary);
  }

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ready;
      if (error.code === 'commander.help') return EXIT.ready;
      await writeFailedEvent(ctx, wanted, argv, error, error.message.replace(/^error: /, ''));
      return EXIT.usage;
    }
    ctx.stderr.write(formatError(error, ctx.debug));
    await writeFailedEvent(ctx, wanted, argv, error, error instanceof Error ? error.message : String(error));
    if (isVigilError(error) && error.code === 'E_UNREACHABLE') return EXIT.unreachable;
    return isVigilError(error) && error.code === 'E_PREFLIGHT' ? EXIT.preflight : EXIT.usage;
  }
};
