// SGLang's line shapes (docs/engines/log-patterns.md): `[ts] msg` from the main process, `[ts TPn] msg` from rank n's
// scheduler, uvicorn's `[ts] INFO:     msg`; Python logging and tqdm go to stderr, uvicorn's access log to stdout.
import { STATUS_CODES } from 'node:http';
import { formatSglangTime } from '../../../sim/clock.ts';
import type { SimSink } from '../../../sim/types.ts';
import { TqdmWriter, type BarStyle } from '../../../sim/log/tqdm.ts';

export interface SglangLog {
  /** A main-process logger line (server_args, the ready line, warmup errors). */
  main(message: string): void;
  /** A line from rank n's scheduler process. */
  rank(rank: number, message: string): void;
  /** A uvicorn lifecycle line, e.g. `Started server process [1]`. */
  uvicorn(level: 'INFO' | 'ERROR', message: string): void;
  /** A uvicorn access-log line (stdout); `client` is `host:port`, null for SGLang's own warmup requests. */
  access(method: string, path: string, status: number, client?: string): void;
  /** Text written as is to stderr (Gloo lines, the rest of a traceback). */
  raw(text: string): void;
  /** A tqdm bar on stderr. */
  bar(style: BarStyle, desc: string, total: number): TqdmWriter;
}

// uvicorn pads its level name to 9 characters after the colon: `INFO:     `, `ERROR:    `.
export const levelPrefix = (level: string): string => `${level}:`.padEnd(10);

// uvicorn's access-log message: `127.0.0.1:60028 - "GET /get_model_info HTTP/1.1" 200 OK`.
export const accessText = (client: string, method: string, path: string, status: number): string =>
  `${client} - "${method} ${path} HTTP/1.1" ${status} ${STATUS_CODES[status] ?? ''}`;

// Writes SGLang-shaped lines to the simulated engine's streams.
export const createSglangLog = (sink: SimSink): SglangLog => {
  let clientPort = 40000 + Math.floor(Math.random() * 20000);
  return {
    main: (message) => {
      sink.stderr(`[${formatSglangTime()}] ${message}\n`);
    },
    rank: (rank, message) => {
      sink.stderr(`[${formatSglangTime()} TP${rank}] ${message}\n`);
    },
    uvicorn: (level, message) => {
      sink.stderr(`[${formatSglangTime()}] ${levelPrefix(level)}${message}\n`);
    },
    access: (method, path, status, client) => {
      clientPort = clientPort >= 65000 ? 40000 : clientPort + 1;
      const from = client ?? `127.0.0.1:${clientPort}`;
      sink.stdout(
        `[${formatSglangTime()}] ${levelPrefix('INFO')}${accessText(from, method, path, status)}\n`,
      );
    },
    raw: (text) => {
      sink.stderr(text);
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
