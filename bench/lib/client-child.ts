// One run of the library's load loop over a named transport, printed as JSON (the side's summary). The client
// benchmark compiles this file with tsc and runs it with plain node, pinned to one core, so every transport runs as
// compiled JavaScript, the way the product does from dist/.
import { parseArgs } from 'node:util';
import { runBench } from '../../src/bench/run.ts';
import { syntheticPrompts } from '../../src/bench/prompts.ts';
import { createSocketTransport } from '../../src/bench/socket-transport.ts';
import { createHttpTransport, type Transport } from '../../src/bench/transport.ts';
import { createFetchTransport } from './fetch-transport.ts';
import { createUndiciTransport } from './undici-transport.ts';

export const TRANSPORTS = ['socket', 'http', 'undici', 'fetch'] as const;
export type TransportName = (typeof TRANSPORTS)[number];

const { values: o } = parseArgs({
  options: {
    transport: { type: 'string', default: 'socket' },
    stream: { type: 'boolean', default: false },
    url: { type: 'string', default: '' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '64' },
    'stream-tokens': { type: 'string', default: '256' },
  },
});
const connections = Number(o.connections);
const transports: Record<TransportName, () => Transport> = {
  socket: () => createSocketTransport({ maxSockets: connections }),
  http: () => createHttpTransport({ maxSockets: connections }),
  undici: () => createUndiciTransport({ connections }),
  fetch: () => createFetchTransport(),
};
const make = transports[o.transport as TransportName] as (() => Transport) | undefined;
if (make === undefined) throw new Error(`--transport: one of ${TRANSPORTS.join(', ')}`);
const transport = make();
const result = await runBench({
  url: new URL(o.url),
  prompts: syntheticPrompts(100, 16, o.stream ? Number(o['stream-tokens']) : 16, 1),
  mode: { kind: 'closed', concurrency: connections },
  stop: { durationMs: Number(o.seconds) * 1000 },
  warmup: connections,
  stream: o.stream,
  timeoutMs: 30_000,
  blockRequests: 1,
  seed: 1,
  transport,
});
transport.close();
process.stdout.write(`${JSON.stringify(result.sides[0])}\n`);
process.exit(0);
