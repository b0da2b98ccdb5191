// `vigil check`: flag preflight only. Checks a server command against the engine's CLI, launches nothing;
// exit 0 when the flags are fine (warnings allowed), 2 on errors (or warnings with --strict), 1 on usage errors.
import type { CommandModule } from './context.ts';
import { invalidOption } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import type { PreflightOptions } from '../flags/preflight.ts';
import { addHostOptions, parseHostOptions, remoteHostFor, type RawHostOptions } from './host-options.ts';

interface RawCheckOptions {
  engine: string;
  helpFile?: string;
  offline?: boolean;
  strict?: boolean;
  output?: string;
}

const OUTPUTS = ['plain', 'tty', 'jsonl', 'json'] as const;
type CheckOutput = (typeof OUTPUTS)[number];

const isOutput = (value: string): value is CheckOutput => (OUTPUTS as readonly string[]).includes(value);

export const register: CommandModule['register'] = (program, ctx, done) => {
  const check = program
    .command('check')
    .option('--engine <engine>', 'sglang, vllm or auto (reads the command)', 'auto')
    .option('--help-file <file>', 'validate against this saved --help output only')
    .option('--offline', 'use no live --help: only --help-file or the bundled schemas')
    .option('--strict', 'warnings fail the check too')
    .option('--output <kind>', 'plain or jsonl (json: the same event as one object); tty on a terminal');
  addHostOptions(check, { launch: true })
    .argument('<command...>', 'the server command, after --')
    .action(async (command: string[], raw: RawCheckOptions & RawHostOptions) => {
      // With --host, the live --help and the path checks run on that host.
      const where = parseHostOptions(raw);
      const [
        { formatPreflightPlain },
        { runPreflight },
        { stateDir },
        { createRedactor },
        { serializeEvent },
      ] = await Promise.all([
        import('../flags/format.ts'),
        import('../flags/preflight.ts'),
        import('../state/dir.ts'),
        import('../redact/redactor.ts'),
        import('../report/json.ts'),
      ]);
      const host = await remoteHostFor(where, stateDir(ctx.env));
      await host?.connect();
      const output = raw.output ?? (ctx.stdout.isTTY === true ? 'tty' : 'plain');
      if (!isOutput(output)) throw invalidOption('--output', 'plain, jsonl, json or tty', output);
      const machine = output === 'jsonl' || output === 'json';
      const outcome = await runPreflight({
        command,
        // runPreflight checks it against the engines whose flags vigil knows.
        engine: raw.engine as NonNullable<PreflightOptions['engine']>,
        offline: raw.offline === true,
        strict: raw.strict === true,
        ...(raw.helpFile === undefined ? {} : { helpFile: raw.helpFile }),
        ...(host === undefined ? {} : { host }),
        ...(where.cwd === undefined ? {} : { cwd: where.cwd }),
        onNote: (message) => {
          if (!machine) ctx.stderr.write(`vigil: ${message}\n`);
        },
      });
      if (machine) {
        const event = { type: 'preflight' as const, t: Math.round(performance.now()), ...outcome.report };
        ctx.stdout.write(`${serializeEvent(event, createRedactor({ argv: command }))}\n`);
      } else {
        ctx.stdout.write(formatPreflightPlain(outcome.report, command, { color: output === 'tty' }));
      }
      done(outcome.blocked ? EXIT.preflight : EXIT.ready);
    });
};
