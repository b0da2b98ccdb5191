import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { findPortHolders, listeningInodes, testBindPort } from '../../src/hosts/port.ts';
import { freePort } from '../helpers/ports.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

const listen = (host: string, port: number): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    servers.push(server);
    server.once('error', reject);
    server.listen({ host, port }, () => {
      resolve(server);
    });
  });

describe('testBindPort', () => {
  it('says a free port is free and leaves it free', async () => {
    const port = await freePort();
    expect(await testBindPort('127.0.0.1', port)).toEqual({ free: true });
    await listen('127.0.0.1', port);
  });

  it('says a port on loopback is taken for a server that binds every address, and the other way round', async () => {
    const a = await freePort();
    await listen('127.0.0.1', a);
    expect(await testBindPort('0.0.0.0', a)).toEqual({ free: false, code: 'EADDRINUSE' });
    const b = await freePort();
    await listen('0.0.0.0', b);
    expect(await testBindPort('127.0.0.1', b)).toEqual({ free: false, code: 'EADDRINUSE' });
  });

  it('gives no verdict for an address this machine does not have', async () => {
    const result = await testBindPort('192.0.2.1', await freePort());
    expect(result.free).toBeNull();
  });
});

describe('findPortHolders', () => {
  it('names the process listening on a port, IPv4 or IPv6', async () => {
    const v4 = await freePort();
    await listen('127.0.0.1', v4);
    expect(findPortHolders(v4)).toEqual([
      { pid: process.pid, command: expect.stringContaining('node') as string },
    ]);
    const v6 = await freePort('::1');
    await listen('::1', v6);
    expect(findPortHolders(v6).map((h) => h.pid)).toEqual([process.pid]);
  });

  it('finds nobody on a free port', async () => {
    expect(findPortHolders(await freePort())).toEqual([]);
  });

  it('reads only LISTEN sockets of the port from a table', async () => {
    const port = await freePort();
    await listen('127.0.0.1', port);
    expect(listeningInodes('/proc/net/tcp', port)).toHaveLength(1);
    expect(listeningInodes('/proc/net/no-such-table', port)).toEqual([]);
  });
});
