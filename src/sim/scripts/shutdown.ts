// uvicorn's graceful shutdown lines after SIGTERM or SIGINT (with each engine's prefix).
import { createSglangLog } from '../log/sglang-log.ts';
import { createVllmLog } from '../log/vllm-log.ts';
import type { SimContext } from '../types.ts';

const LINES = (pid: number): string[] => [
  'Shutting down',
  'Waiting for application shutdown.',
  'Application shutdown complete.',
  `Finished server process [${pid}]`,
];

// Prints the shutdown sequence of a server that was listening.
export const printShutdown = (ctx: SimContext): void => {
  if (ctx.config.engine === 'sglang') {
    const log = createSglangLog(ctx.sink);
    for (const line of LINES(ctx.pid)) log.uvicorn('INFO', line);
    return;
  }
  const log = createVllmLog(ctx.sink);
  const api = { name: 'APIServer', pid: ctx.pid };
  for (const line of LINES(ctx.pid)) log.uvicorn(api, 'INFO', line);
};
