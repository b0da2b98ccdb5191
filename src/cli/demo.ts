// `vigil demo`: the whole story on the built-in simulator, in about 30 seconds.
import { invalidOption } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import type { CommandModule } from './context.ts';

export const register: CommandModule['register'] = (program, ctx, done) => {
  program
    .command('demo')
    .option(
      '--time-scale <factor>',
      'VIGIL_SIM_TIME_SCALE for the simulated start (1 = realistic minutes)',
      '0.08',
    )
    .action(async (raw: { timeScale: string }) => {
      const timeScale = Number(raw.timeScale);
      if (!Number.isFinite(timeScale) || timeScale <= 0 || timeScale > 10) {
        throw invalidOption('--time-scale', 'a number above 0 and at most 10, e.g. 0.12', raw.timeScale);
      }
      const { runDemo } = await import('../demo/story.ts');
      const controller = new AbortController();
      const onInterrupt = (): void => {
        controller.abort();
      };
      process.once('SIGINT', onInterrupt);
      try {
        const result = await runDemo({
          timeScale,
          output: ctx.stdout.isTTY === true ? 'tty' : 'plain',
          say: (text) => ctx.stdout.write(text),
          forward: (chunk) => ctx.stdout.write(chunk),
          env: ctx.env,
          signal: controller.signal,
        });
        if (!result.ok) ctx.stderr.write(`vigil demo: ${result.problem ?? 'failed'}\n`);
        done(result.ok ? EXIT.ready : EXIT.usage);
      } finally {
        process.removeListener('SIGINT', onInterrupt);
      }
    });
};
