// uvicorn's graceful shutdown lines after SIGTERM or SIGINT; each engine prints them with its own prefix.
import { simEngineOf } from '../../engines/sim.ts';
import type { SimContext } from '../types.ts';

/** What uvicorn prints when it stops a server process. */
export const SHUTDOWN_LINES = (pid: number): string[] => [
  'Shutting down',
  'Waiting for application shutdown.',
  'Application shutdown complete.',
  `Finished server process [${pid}]`,
];

// Prints the shutdown sequence of a server that was listening.
export const printShutdown = (ctx: SimContext): void => {
  simEngineOf(ctx.config.engine).printShutdown(ctx);
};
