// `vigil logs [-f] [-n N] ID`: print a launch's log, here or on its host, and with -f follow it until Ctrl-C.
import { open, stat } from 'node:fs/promises';
import type { CommandModule } from './context.ts';
import { invalidOption } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import { followLog } from '../logs/follow.ts';
import { createRedactor } from '../redact/redactor.ts';
import { stateDir } from '../state/dir.ts';
import { hostOfRecord, isRemoteRecord } from '../state/launch-host.ts';
import { findLaunchRecord } from '../state/records.ts';
import { listenForInterrupts } from '../watch/interrupts.ts';
import { addHostOptions, parseRemoteOverrides, type RawHostOptions } from './host-options.ts';

/** How much of a local log is read to find its last lines. */
const TAIL_BYTES = 4 * 1024 * 1024;

export const register: CommandModule['register'] = (program, ctx, done) => {
  const command = program
    .command('logs')
    .description("print a launch's log (with -f, keep following it)")
    .argument('<id>', 'the launch id (vigil status lists them), or an unambiguous prefix')
    .option('-f, --follow', 'keep printing what the server writes, until Ctrl-C')
    .option('-n, --lines <n>', 'how many of the last lines to print first', '100');
  addHostOptions(command, { launch: false }).action(
    async (id: string, raw: { follow?: boolean; lines: string } & RawHostOptions) => {
      if (!/^\d+$/.test(raw.lines)) throw invalidOption('--lines', 'a whole number of 0 or more', raw.lines);
      const lines = Number(raw.lines);
      const dir = stateDir(ctx.env);
      const record = await findLaunchRecord(dir, id);
      // Log lines can hold secrets (SGLang prints its server args, API key included): mask their shapes.
      const redact = createRedactor({ env: ctx.env });
      const write = (text: string): void => {
        ctx.stdout.write(`${redact(text)}\n`);
      };
      const interrupts = listenForInterrupts();
      try {
        if (isRemoteRecord(record)) {
          const host = hostOfRecord(record, dir, parseRemoteOverrides(raw));
          await host.connect();
          const child = host.tail(record.log, lines, raw.follow === true);
          if (raw.follow !== true) child.stdin?.end();
          interrupts.signal.addEventListener('abort', () => child.stdin?.end(), { once: true });
          let partial = '';
          child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
            const parts = (partial + chunk).split('\n');
            partial = parts.pop() ?? '';
            for (const part of parts) write(part);
          });
          const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
          if (partial !== '') write(partial);
          done(code === 0 || interrupts.signal.aborted ? EXIT.ready : EXIT.usage);
          return;
        }
        const size = await stat(record.log).then(
          (s) => s.size,
          () => null,
        );
        if (size === null) {
          ctx.stderr.write(`${record.id}: the log ${record.log} does not exist (any more)\n`);
          done(EXIT.usage);
          return;
        }
        for (const line of await lastLines(record.log, size, lines)) write(line);
        if (raw.follow === true) {
          for await (const batch of followLog({
            path: record.log,
            fromOffset: size,
            signal: interrupts.signal,
          })) {
            for (const line of batch) if (line.partial !== true) write(line.text);
          }
        }
        done(EXIT.ready);
      } finally {
        interrupts.dispose();
      }
    },
  );
};

// The last `count` complete lines before `size`.
const lastLines = async (path: string, size: number, count: number): Promise<string[]> => {
  if (count === 0) return [];
  const start = Math.max(0, size - TAIL_BYTES);
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const lines = buffer.toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (start > 0) lines.shift();
    return lines.slice(-count);
  } finally {
    await handle.close();
  }
};
