// vLLM's line shapes (docs/engines/log-patterns.md): `(Proc pid=N) LEVEL MM-DD HH:MM:SS [file.py:line] msg` on stdout,
// every line of a multi-line record prefixed; uvicorn's `(APIServer pid=N) INFO:     msg`; tqdm bars on stderr.
import { formatVllmTime } from '../../../sim/clock.ts';
import type { SimSink } from '../../../sim/types.ts';
import { accessText, levelPrefix } from '../../sglang/sim/log.ts';
import { TqdmWriter, type BarStyle } from '../../../sim/log/tqdm.ts';

export type VllmLevel = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';

/** A vLLM process as its log prefix names it, e.g. `APIServer pid=1` or `Worker_TP0 pid=46`. */
export interface VllmProc {
  name: string;
  pid: number;
}

export interface VllmLog {
  /** A logger record from a process: one line per line of `message`, each with the full prefix. */
  log(proc: VllmProc | null, level: VllmLevel, source: string, message: string): void;
  /** Text a process writes to stderr itself (an uncaught traceback), each line with the process prefix. */
  stderr(proc: VllmProc, text: string): void;
  /** A uvicorn lifecycle line from the API server. */
  uvicorn(proc: VllmProc, level: 'INFO' | 'ERROR', message: string): void;
  /** A uvicorn access-log line from the API server (stdout); `client` is `host:port`. */
  access(proc: VllmProc, client: string, method: string, path: string, status: number): void;
  /** A tqdm bar on stderr (tqdm writes with `\r`, so no process prefix shows in front of it). */
  bar(style: BarStyle, desc: string, total: number): TqdmWriter;
}

const prefixOf = (proc: VllmProc | null): string => (proc === null ? '' : `(${proc.name} pid=${proc.pid}) `);

// Writes vLLM-shaped lines to the simulated engine's streams.
export const createVllmLog = (sink: SimSink): VllmLog => {
  return {
    log: (proc, level, source, message) => {
      const head = `${prefixOf(proc)}${level} ${formatVllmTime()} [${source}] `;
      sink.stdout(
        message
          .split('\n')
          .map((line) => `${head}${line}\n`)
          .join(''),
      );
    },
    stderr: (proc, text) => {
      const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
      sink.stderr(lines.map((line) => `${prefixOf(proc)}${line}\n`).join(''));
    },
    uvicorn: (proc, level, message) => {
      sink.stderr(`${prefixOf(proc)}${levelPrefix(level)}${message}\n`);
    },
    access: (proc, client, method, path, status) => {
      sink.stdout(`${prefixOf(proc)}${levelPrefix('INFO')}${accessText(client, method, path, status)}\n`);
    },
    bar: (style, desc, total) =>
      new TqdmWriter(
        (text) => {
          sink.stderr(text);
        },
        style,
        desc,
        total,
      ),
  };
};
