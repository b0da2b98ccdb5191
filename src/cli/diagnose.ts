// `vigil diagnose <log> [--exit-code N] [--engine E] [--output plain|jsonl]`: explains a failed start from its log.
// Exit 0 when a diagnosis was made (whatever its class), 1 on usage errors such as a missing file.
import { open, stat } from 'node:fs/promises';
import type { CommandModule } from './context.ts';
import { UsageError, invalidOption } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import type { EngineChoice } from '../engines/command.ts';
import { ENGINE_NAMES, OPTION_SPECS } from '../watch/options.ts';
import { optionFrom } from './watch-options.ts';

interface RawDiagnoseOptions {
  exitCode?: string;
  engine: EngineChoice;
  engineVersion?: string;
  output?: string;
}

const OUTPUTS = ['plain', 'tty', 'jsonl', 'json'] as const;

const isOutput = (value: string): value is (typeof OUTPUTS)[number] =>
  (OUTPUTS as readonly string[]).includes(value);

// `--exit-code`: the server's exit status as a shell or Python reports it (−9 and 137 both mean SIGKILL).
const parseExitCode = (text: string): number => {
  if (!/^-?\d{1,3}$/.test(text.trim())) {
    throw invalidOption(
      '--exit-code',
      'a whole number such as 1, 137 or -9',
      text,
      'negative codes are signals (-9 = SIGKILL)',
    );
  }
  return Number(text);
};

// Checks the log argument before reading: it must be an existing regular file.
const checkLogFile = async (path: string): Promise<void> => {
  const info = await stat(path).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES'
          ? 'cannot be read (permission denied)'
          : `cannot be opened (${code ?? 'error'})`;
    throw new UsageError(`log file ${path} ${why}`, {
      hint: "pass the server's log file, e.g. the --log of `vigil up` or the file the server's output was redirected to",
      cause: error,
    });
  });
  if (!info.isFile()) {
    throw new UsageError(`log file ${path} is not a regular file`, {
      hint: "pass the server's log file itself, not a directory",
    });
  }
  if (await looksBinary(path)) {
    throw new UsageError(`log file ${path} is not a text log (it holds binary data)`, {
      hint: "pass the server's text log, e.g. the --log of `vigil up`; a compressed log must be unpacked first",
    });
  }
};

// A log is text: NUL bytes, or many other control bytes, in its first 8 KB mean it is something else.
const looksBinary = async (path: string): Promise<boolean> => {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head.includes(0)) return true;
    let control = 0;
    for (const byte of head)
      if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x1b) control++;
    return bytesRead > 0 && control / bytesRead > 0.1;
  } finally {
    await handle.close();
  }
};

export const register: CommandModule['register'] = (program, ctx, done) => {
  program
    .command('diagnose')
    .argument('<log-file>', "the server's log")
    .option('--exit-code <n>', "the server's exit code, if known (negative or 128+N: killed by signal N)")
    .addOption(optionFrom(OPTION_SPECS.engine, `${ENGINE_NAMES} or auto (guess from the log)`))
    .option(
      '--engine-version <version>',
      "read the log with this engine release's rules instead of the release the log names",
    )
    .option('--output <kind>', 'plain or jsonl (json: the same event); tty on a terminal')
    .action(async (path: string, raw: RawDiagnoseOptions) => {
      const output = raw.output ?? (ctx.stdout.isTTY === true ? 'tty' : 'plain');
      if (!isOutput(output)) throw invalidOption('--output', 'plain, jsonl, json or tty', output);
      const exitCode = raw.exitCode === undefined ? undefined : parseExitCode(raw.exitCode);
      const engineVersion =
        raw.engineVersion === undefined
          ? undefined
          : (await import('../engines/known-releases.ts')).checkEngineVersion(raw.engine, raw.engineVersion);
      await checkLogFile(path);
      const [{ formatDiagnosisPlain }, { diagnoseLogFile }, { createRedactor }, { serializeEvent }] =
        await Promise.all([
          import('../diagnose/format.ts'),
          import('../diagnose/file/diagnose-file.ts'),
          import('../redact/redactor.ts'),
          import('../report/json.ts'),
        ]);
      const redact = createRedactor({ env: ctx.env });
      const engine = raw.engine;
      const diagnosis = await diagnoseLogFile(path, {
        engine,
        redact,
        ...(engineVersion === undefined ? {} : { engineVersion }),
        ...(exitCode === undefined ? {} : { end: { exitCode } }),
      });
      if (output === 'jsonl' || output === 'json') {
        const event = { type: 'diagnosis' as const, t: Math.round(performance.now()), ...diagnosis };
        ctx.stdout.write(`${serializeEvent(event, redact)}\n`);
      } else {
        ctx.stdout.write(`${redact(formatDiagnosisPlain(diagnosis, { color: output === 'tty' }))}\n`);
      }
      done(EXIT.ready);
    });
};
