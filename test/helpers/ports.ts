// A free TCP port on loopback for tests. Test files run in parallel, and a port found free by binding port 0 and
// releasing it can be handed by the kernel to another file's server before this one binds it. So each vitest worker
// takes ports from its own block below the kernel's ephemeral range (32768 and up, where port 0 binds land), and
// walks through it: no other worker, and no server bound to port 0, is ever handed the same port.
import { testBindPort } from '../../src/hosts/port.ts';

const FIRST = 20_000;
const BLOCK = 1_000;
const BLOCKS = 12;

const worker = Number(process.env.VITEST_POOL_ID ?? '0');
const start = FIRST + (worker % BLOCKS) * BLOCK;
// A random start within the block, so a rerun does not meet the ports the last run left in TIME_WAIT.
let offset = Math.floor(Math.random() * BLOCK);

export const freePort = async (host = '127.0.0.1'): Promise<number> => {
  for (let tries = 0; tries < BLOCK; tries++) {
    const port = start + (offset++ % BLOCK);
    if ((await testBindPort(host, port)).free === true) return port;
  }
  throw new Error(`no free port in ${String(start)}-${String(start + BLOCK - 1)}`);
};
