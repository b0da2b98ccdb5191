// A loopback port on this machine that reaches a server on a remote host, through the host's SSH master
// connection (`ssh -O forward -L`): smoke tests and the load generator then run here, against 127.0.0.1, while the
// server sees connections from its own host. vigil picks the local port (OpenSSH reports none for `-L 0`), and
// cancels the forward when done.
import { createServer } from 'node:net';
import { UsageError, VigilError } from '../../errors.ts';
import type { SshTransport } from './ssh.ts';

export interface PortForward {
  /** The local port. */
  readonly port: number;
  /** `url` as reached through the forward: same path and query, origin http://127.0.0.1:<port>. */
  localUrl(url: URL): URL;
  /** Cancels the forward and ends the session that kept the master connection up. */
  close(): Promise<void>;
}

const ATTEMPTS = 3;

// A port free on 127.0.0.1 right now (another process may take it before ssh does: the caller retries).
const freeLocalPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });

// The host and port a URL names, as the remote host resolves them.
const targetOf = (url: URL): { host: string; port: number } => {
  if (url.protocol !== 'http:')
    throw new UsageError(`${url.href}: only http:// URLs can be reached through --host`, {
      hint: 'the server is reached through an SSH port forward to 127.0.0.1, where its TLS name would not match',
    });
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) };
};

// Opens a forward to the server `url` names on the host; throws E_UNREACHABLE when ssh cannot set it up.
export const openPortForward = async (transport: SshTransport, url: URL): Promise<PortForward> => {
  const target = targetOf(url);
  // A session held open for as long as the forward is used: the master connection (ControlPersist) would
  // otherwise end a minute after its last session, forward or not.
  const keeper = transport.start('read _ignored || true');
  keeper.stdout?.resume();
  keeper.stderr?.resume();
  keeper.on('error', () => undefined);
  // Ends the session at once, and lets go of its pipes: the master connection holds their other ends (ssh passes a
  // multiplexed session's stdio to the master), and open pipes would keep this process alive.
  const release = (): void => {
    keeper.stdin?.end();
    keeper.stdout?.destroy();
    keeper.stderr?.destroy();
    keeper.kill('SIGTERM');
  };
  let lastError = '';
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = await freeLocalPort();
    const spec = `127.0.0.1:${String(port)}:${target.host.includes(':') ? `[${target.host}]` : target.host}:${String(target.port)}`;
    const answer = await transport.control('forward', spec);
    if (answer.code === 0) {
      let closed = false;
      return {
        port,
        localUrl: (remote) => {
          const local = new URL(remote.href);
          local.hostname = '127.0.0.1';
          local.port = String(port);
          return local;
        },
        close: async () => {
          if (closed) return;
          closed = true;
          await transport.control('cancel', spec);
          release();
        },
      };
    }
    lastError = answer.stderr.trim();
  }
  release();
  throw new VigilError(
    'E_UNREACHABLE',
    `${transport.label}: ssh could not forward a local port to ${target.host}:${String(target.port)} (${lastError || 'no reason given'})`,
    { hint: 'check that the host allows TCP forwarding (AllowTcpForwarding in its sshd_config)' },
  );
};
