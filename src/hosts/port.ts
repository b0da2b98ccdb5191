// Whether a TCP port is free on this machine, and which process holds it when it is not.
import { createServer } from 'node:net';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { readCommandLine } from './proc.ts';

// The outcome of a test-bind.
export type BindResult =
  | { free: true }
  | { free: false; code: 'EADDRINUSE' }
  /** The address cannot be bound from here (not local, no permission): no verdict. */
  | { free: null; code: string };

// Binds host:port once and releases it: the server will hit the same error if the port is taken.
export const testBindPort = (host: string, port: number): Promise<BindResult> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? 'UNKNOWN';
      resolve(code === 'EADDRINUSE' ? { free: false, code } : { free: null, code });
    });
    server.listen({ host, port, exclusive: true }, () => {
      server.close(() => {
        resolve({ free: true });
      });
    });
  });

// A process that listens on a port.
export interface PortHolder {
  pid: number;
  command: string;
}

// The processes listening on a TCP port, from /proc/net/tcp{,6} socket inodes and /proc/*/fd links (when readable).
export const findPortHolders = (port: number): PortHolder[] => {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const inode of listeningInodes(table, port)) inodes.add(inode);
  }
  if (inodes.size === 0) return [];
  const holders: PortHolder[] = [];
  for (const name of safeReaddir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fds = safeReaddir(`/proc/${name}/fd`);
    const holds = fds.some((fd) => {
      const target = safeReadlink(`/proc/${name}/fd/${fd}`);
      return target?.startsWith('socket:[') === true && inodes.has(target.slice(8, -1));
    });
    if (holds) {
      const pid = Number(name);
      holders.push({ pid, command: readCommandLine(pid) ?? '?' });
    }
  }
  return holders;
};

// Socket inodes in LISTEN state (st 0A) on the port, from one /proc/net table.
export const listeningInodes = (table: string, port: number): string[] => {
  let text: string;
  try {
    text = readFileSync(table, 'utf8');
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const local = fields[1];
    if (local === undefined || fields[3] !== '0A') continue;
    const portHex = local.slice(local.lastIndexOf(':') + 1);
    const inode = fields[9];
    if (parseInt(portHex, 16) === port && inode !== undefined && inode !== '0') found.push(inode);
  }
  return found;
};

const safeReaddir = (path: string): string[] => {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
};

const safeReadlink = (path: string): string | null => {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
};

// A port on `host` that was free a moment ago: bind port 0, read the port the kernel chose, release it.
export const freePort = (host = '127.0.0.1'): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host, port: 0 }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
