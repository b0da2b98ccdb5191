// Runs a short command to completion on this machine, with a time limit and cancellation.
import { execFile } from 'node:child_process';

export interface ExecResult {
  /** Exit code, or null when killed by a signal. */
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface ExecOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  maxBuffer?: number;
}

// Resolves with the outcome whatever it is; rejects only when the command could not be started at all.
export const execLocal = (argv: readonly string[], options: ExecOptions = {}): Promise<ExecResult> =>
  new Promise((resolve, reject) => {
    const [file, ...args] = argv;
    if (file === undefined) {
      reject(new Error('execLocal: empty command'));
      return;
    }
    const child = execFile(
      file,
      args,
      {
        timeout: options.timeoutMs ?? 0,
        killSignal: 'SIGKILL',
        maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
        env: options.env ?? process.env,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code === 'string' && error.code !== 'ABORT_ERR') {
          reject(new Error(`could not run ${file}: ${error.message}`, { cause: error }));
          return;
        }
        resolve({
          code: child.exitCode,
          signal: child.signalCode,
          stdout,
          stderr,
          timedOut: error?.killed === true && options.signal?.aborted !== true,
        });
      },
    );
  });
