// `vigil up [options] -- <server command...>`: launch a server, watch it start, and exit with how it ended.
import type { CommandModule } from './context.ts';
import { UsageError } from '../errors.ts';
import { OPTION_SPECS } from '../watch/options.ts';
import { addHostOptions, parseHostOptions, type RawHostOptions } from './host-options.ts';
import { SMOKE_TIMEOUT, SMOKE_TIMEOUT_HELP, parseSmokeTimeout } from '../smoke/options.ts';
import {
  addWatchOptions,
  collect,
  optionFrom,
  parseWatchOptions,
  renderStart,
  type RawWatchOptions,
} from './watch-options.ts';

interface RawUpOptions extends RawWatchOptions, RawHostOptions {
  log?: string;
  env?: string[];
  envFile?: string[];
  grace: number;
  keepOnFailure?: boolean;
  detachOnInterrupt?: boolean;
  replace?: boolean;
  preflight: boolean;
  offline?: boolean;
  helpFile?: string;
  strict?: boolean;
  engineVersion?: string;
  smoke?: boolean;
  smokeTimeout: string;
}

// Adds `vigil up` to the program.
export const register: CommandModule['register'] = (program, ctx, done) => {
  const command = program
    .command('up')
    .usage('[options] -- <server command...>')
    .argument('[command...]', 'the server command, after --');
  addHostOptions(addWatchOptions(command, { target: true }), { launch: true })
    .option('--log <path>', "where the server's output goes (default: a file under the state directory)")
    .option(
      '--env <K=V|NAME>',
      'add to the server environment; NAME copies it from vigil (repeatable)',
      collect,
    )
    .option('--env-file <file>', 'NAME=VALUE lines to add to the server environment (repeatable)', collect)
    .addOption(optionFrom(OPTION_SPECS.graceMs))
    .option('--keep-on-failure', 'leave the server running when the start fails')
    .option('--detach-on-interrupt', 'leave the server running on Ctrl-C')
    .option('--replace', 'stop a vigil launch that holds the port first')
    .option('--no-preflight', 'skip the flag check')
    .option('--offline', 'use no live --help for the flag check')
    .option('--help-file <file>', 'check the flags against this saved --help output')
    .option('--strict', 'warnings from the flag check block the launch too')
    .option(
      '--engine-version <version>',
      "check the flags and read the log with this engine release's rules (default: detect the release)",
    )
    .option('--smoke', 'once ready, prove the server generates (a failure ends the start with exit 7)')
    .option('--smoke-timeout <duration>', SMOKE_TIMEOUT_HELP, SMOKE_TIMEOUT.default)
    .action(async (args: string[], raw: RawUpOptions, self: { parent: { rawArgs: string[] } | null }) => {
      if (!(self.parent?.rawArgs ?? []).includes('--') || args.length === 0) {
        throw new UsageError('put the server command after --', {
          hint: 'usage: vigil up [options] -- <server command...>, e.g. vigil up -- vigil sim sglang -- --model-path m',
        });
      }
      const where = parseHostOptions(raw);
      const common = parseWatchOptions(raw);
      const [{ stateDir }, { launch }, { resolveEnv }, { listenForInterrupts }] = await Promise.all([
        import('../state/dir.ts'),
        import('../watch/launch.ts'),
        import('../watch/env.ts'),
        import('../watch/interrupts.ts'),
      ]);
      const env = resolveEnv({ pairs: raw.env ?? [], files: raw.envFile ?? [], from: ctx.env });
      const graceMs = raw.grace;
      const smokeTimeoutMs = parseSmokeTimeout(raw.smokeTimeout);
      const interrupts = listenForInterrupts();
      const failed = new AbortController();
      try {
        const { output, ...watchOptions } = common;
        const handle = launch({
          ...watchOptions,
          command: args,
          // A remote server starts from the host's own environment: only the variables asked for travel.
          env: where.host === undefined ? { ...definedOnly(ctx.env), ...env } : env,
          ...where,
          inheritEnv: false,
          graceMs,
          keepOnFailure: raw.keepOnFailure === true,
          detachOnInterrupt: raw.detachOnInterrupt === true,
          replace: raw.replace === true,
          cgroup: ctx.env['VIGIL_NO_CGROUP'] !== '1',
          debug: ctx.debug,
          preflight: raw.preflight,
          offline: raw.offline === true,
          strict: raw.strict === true,
          stateDir: stateDir(ctx.env),
          signal: AbortSignal.any([interrupts.signal, failed.signal]),
          skipGraceSignal: interrupts.skipGrace,
          ...(raw.log === undefined ? {} : { log: raw.log }),
          ...(raw.helpFile === undefined ? {} : { helpFile: raw.helpFile }),
          ...(raw.engineVersion === undefined ? {} : { engineVersion: raw.engineVersion }),
          ...(raw.smoke === true ? { smoke: { timeoutMs: smokeTimeoutMs } } : {}),
        });
        done(
          await renderStart(
            ctx,
            handle,
            {
              output,
              command: 'up',
              serverCommand: args,
              ...(common.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: common.stallTimeoutMs }),
            },
            () => {
              failed.abort(new Error('the output could not be written'));
            },
          ),
        );
      } finally {
        interrupts.dispose();
      }
    });
};

const definedOnly = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
