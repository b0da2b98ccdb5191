// `vigil stop <id> [--grace]`: SIGTERM the launch's group and session, SIGKILL after the grace, verify.
import type { CommandModule } from './context.ts';
import { VigilError } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import { OPTION_SPECS } from '../watch/options.ts';
import { optionFrom } from './watch-options.ts';
import { addHostOptions, parseRemoteOverrides, type RawHostOptions } from './host-options.ts';

// Adds `vigil stop` to the program.
export const register: CommandModule['register'] = (program, ctx, done) => {
  const command = program
    .command('stop')
    .argument('<id>', 'the launch id (vigil status lists them), or an unambiguous prefix')
    .addOption(optionFrom(OPTION_SPECS.graceMs, 'time between SIGTERM and SIGKILL'));
  addHostOptions(command, { launch: false }).action(
    async (id: string, raw: { grace: number } & RawHostOptions) => {
      const remote = parseRemoteOverrides(raw);
      const graceMs = raw.grace;
      const [
        { stateDir },
        { findLaunchRecord },
        { stopLaunch },
        { listenForInterrupts },
        { createRedactor },
      ] = await Promise.all([
        import('../state/dir.ts'),
        import('../state/records.ts'),
        import('../state/launch-state.ts'),
        import('../watch/interrupts.ts'),
        import('../redact/redactor.ts'),
      ]);
      const dir = stateDir(ctx.env);
      const record = await findLaunchRecord(dir, id);
      // Survivors' command lines come from /proc: mask --api-key values and secret-looking variables in them.
      const redact = createRedactor();
      // A Ctrl-C during the grace period skips the rest of it: the user wants the server gone now.
      const interrupts = listenForInterrupts();
      try {
        const result = await stopLaunch(dir, record, {
          graceMs,
          skipGrace: interrupts.signal,
          remote,
        });
        if (result.survivors.length > 0) {
          throw new VigilError(
            'E_HOST',
            `launch ${record.id}: ${result.survivors.length} process(es) survived SIGKILL: ${result.survivors
              .map((s) => `${s.pid} (${redact(s.command)})`)
              .join(', ')}`,
            { hint: 'they may be stuck in the kernel (state D); check them with ps, or the GPU driver' },
          );
        }
        if (result.gone !== undefined) {
          ctx.stdout.write(
            `${record.id}: nothing signalled: ${result.gone === 'rebooted' ? `${record.host} rebooted since the launch` : 'its pid now belongs to another process'}, so the server is gone\n`,
          );
          done(EXIT.ready);
          return;
        }
        ctx.stdout.write(
          result.alreadyExited
            ? `${record.id}: already exited; nothing to stop\n`
            : `${record.id}: stopped ${result.signalled} process${result.signalled === 1 ? '' : 'es'}${result.killed ? ' (SIGKILL was needed after the grace period)' : ''}\n`,
        );
        done(EXIT.ready);
      } finally {
        interrupts.dispose();
      }
    },
  );
};
