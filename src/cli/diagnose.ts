// `vigil diagnose <log> [--exit-code N] [--engine E] [--output plain|jsonl]`: explains a failed start from its log.
// Exit 0 when a diagnosis was made (whatever its class), 1 on usage errors such as a missing file.
import { stat } from 'node:fs/promises';
import type { CommandModule } from './context.ts';
import { UsageError, invalidOption } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import type { EngineId } from '../engines/types.ts';
import { formatDiagnosisPlain } from '../diagnose/format.ts';
import { diagnoseLogFile } from '../diagnose/file/diagnose-file.ts';
import { createRedactor } from '../redact/redactor.ts';
import { serializeEvent } from '../report/json.ts';

interface RawDiagnoseOptions {
  exitCode?: string;
  engine: string;
  output?: string;
}

const ENGINES = ['auto', 'sglang', 'vllm', 'tgi'] as const;
const OUTPUTS = ['plain', 'tty', 'jsonl', 'json'] as const;

const isEngine = (value: string): value is (typeof ENGINES)[number] =>
  (ENGINES as readonly string[]).includes(value);
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
};

export const register: CommandModule['register'] = (program, ctx, done) => {
  program
    .command('diagnose')
    .description('explain a failed start from its log: the root cause, the evidence lines and what to change')
    .argument('<log-file>', "the server's log")
    .option('--exit-code <n>', "the server's exit code, if known (negative or 128+N: killed by signal N)")
    .option('--engine <engine>', 'sglang, vllm, tgi or auto (guess from the log)', 'auto')
    .option('--output <kind>', 'plain or jsonl (json: the same event); tty on a terminal')
    .action(async (path: string, raw: RawDiagnoseOptions) => {
      const output = raw.output ?? (ctx.stdout.isTTY === true ? 'tty' : 'plain');
      if (!isOutput(output)) throw invalidOption('--output', 'plain, jsonl, json or tty', output);
      if (!isEngine(raw.engine)) throw invalidOption('--engine', 'sglang, vllm, tgi or auto', raw.engine);
      const exitCode = raw.exitCode === undefined ? undefined : parseExitCode(raw.exitCode);
      await checkLogFile(path);
      const redact = createRedactor({ env: ctx.env });
      const engine: EngineId | 'auto' = raw.engine;
      const diagnosis = await diagnoseLogFile(path, {
        engine,
        redact,
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
