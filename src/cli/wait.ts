// `vigil wait <url> [--pid N] [--log FILE]`: the same watch as `vigil up`, for a server started some other way.
import type { CommandModule } from './context.ts';
import { invalidOption } from '../errors.ts';
import { addHostOptions, parseHostOptions, type RawHostOptions } from './host-options.ts';
import { addWatchOptions, parseWatchOptions, renderStart, type RawWatchOptions } from './watch-options.ts';

interface RawWaitOptions extends RawWatchOptions, RawHostOptions {
  pid?: string;
  log?: string;
  logFrom: string;
}

// Adds `vigil wait` to the program.
export const register: CommandModule['register'] = (program, ctx, done) => {
  const command = program
    .command('wait')
    .argument('<url>', 'the server, e.g. http://127.0.0.1:30000 (a URL without a path gets the health path)');
  addHostOptions(addWatchOptions(command, { target: false }), { launch: false })
    .option('--pid <n>', 'a process to watch: its exit fails the start at once')
    .option('--log <file>', "the server's log: phases, stall detection, the ready line, the diagnosis")
    .option(
      '--log-from <where>',
      'read the log from its start, or only what is written from now on (end)',
      'start',
    )
    .action(async (url: string, raw: RawWaitOptions) => {
      const { output, ...common } = parseWatchOptions(raw);
      if (raw.logFrom !== 'start' && raw.logFrom !== 'end')
        throw invalidOption('--log-from', 'start or end', raw.logFrom);
      const pid = raw.pid === undefined ? undefined : parsePid(raw.pid);
      // With --host, the pid, the log and the URL are the host's.
      const where = parseHostOptions(raw);
      const [{ watch }, { stateDir }, { listenForInterrupts }] = await Promise.all([
        import('../watch/watch.ts'),
        import('../state/dir.ts'),
        import('../watch/interrupts.ts'),
      ]);
      const interrupts = listenForInterrupts();
      const failed = new AbortController();
      try {
        const handle = watch({
          ...common,
          url,
          logFrom: raw.logFrom,
          ...(where.host === undefined ? {} : { host: where.host, stateDir: stateDir(ctx.env) }),
          ...(where.remote === undefined ? {} : { remote: where.remote }),
          signal: AbortSignal.any([interrupts.signal, failed.signal]),
          ...(pid === undefined ? {} : { pid }),
          ...(raw.log === undefined ? {} : { log: raw.log }),
        });
        done(
          await renderStart(
            ctx,
            handle,
            {
              output,
              command: 'wait',
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

const parsePid = (text: string): number => {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1)
    throw invalidOption('--pid', 'a process id (a whole number above 0)', text);
  return Number(text);
};
