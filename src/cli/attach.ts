// `vigil attach ID`: watch a recorded launch again, here or on its host, until it is ready or fails.
import type { CommandModule } from './context.ts';
import { stateDir } from '../state/dir.ts';
import { attach } from '../watch/attach.ts';
import { listenForInterrupts } from '../watch/interrupts.ts';
import { addHostOptions, parseRemoteOverrides, type RawHostOptions } from './host-options.ts';
import { addWatchOptions, parseWatchOptions, renderStart, type RawWatchOptions } from './watch-options.ts';

export const register: CommandModule['register'] = (program, ctx, done) => {
  const command = program
    .command('attach')
    .description(
      'watch a launched server again (after vigil was stopped), from the log offset its record holds',
    )
    .argument('<id>', 'the launch id (vigil status lists them), or an unambiguous prefix');
  addHostOptions(addWatchOptions(command, { target: false }), { launch: false }).action(
    async (id: string, raw: RawWatchOptions & RawHostOptions) => {
      const { output, engine: _engine, ...common } = parseWatchOptions(raw);
      const interrupts = listenForInterrupts();
      const failed = new AbortController();
      try {
        const handle = attach({
          ...common,
          id,
          stateDir: stateDir(ctx.env),
          remote: parseRemoteOverrides(raw),
          signal: AbortSignal.any([interrupts.signal, failed.signal]),
        });
        done(
          await renderStart(ctx, handle, { output, command: 'wait' }, () => {
            failed.abort(new Error('the output could not be written'));
          }),
        );
      } finally {
        interrupts.dispose();
      }
    },
  );
};
