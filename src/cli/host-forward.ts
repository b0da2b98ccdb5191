// --host for commands that send HTTP requests (smoke, bench): the URLs name the server as the host sees it; each is
// reached here through a port forward of the host's SSH master connection.
import { isLocalHost } from '../hosts/remote/destination.ts';
import { addHostOptions, parseHostOptions, remoteHostFor, type RawHostOptions } from './host-options.ts';
import type { Command } from 'commander';
import { UsageError } from '../errors.ts';

export type { RawHostOptions };

export interface Reached {
  /** The URLs to send requests to: the given ones, or their forwarded loopback twins. */
  urls: URL[];
  close(): Promise<void>;
}

// --host, --ssh-config, --ssh-opt, --connect-timeout.
export const addForwardOptions = (command: Command): Command => addHostOptions(command, { launch: false });

// Checks the host options and the URLs before anything connects; returns the opener.
export const planForward = (
  raw: RawHostOptions,
  urls: URL[],
  stateDir: () => string,
): (() => Promise<Reached>) => {
  const where = parseHostOptions(raw);
  if (where.host === undefined || isLocalHost(where.host))
    return () => Promise.resolve({ urls, close: () => Promise.resolve() });
  for (const url of urls)
    if (url.protocol !== 'http:')
      throw new UsageError(`${url.href}: only http:// URLs can be reached through --host`, {
        option: '--host',
        hint: 'vigil reaches the server through an SSH port forward to 127.0.0.1, where a TLS name would not match',
      });
  return async () => {
    const host = await remoteHostFor(where, stateDir());
    if (host === undefined) return { urls, close: () => Promise.resolve() };
    const { openPortForward } = await import('../hosts/remote/port-forward.ts');
    await host.connect();
    const forwards: Awaited<ReturnType<typeof openPortForward>>[] = [];
    const close = async (): Promise<void> => {
      await Promise.all(forwards.map((f) => f.close()));
    };
    try {
      // One forward per distinct server (a --compare pair may be two ports on the host).
      const byOrigin = new Map<string, Awaited<ReturnType<typeof openPortForward>>>();
      const local: URL[] = [];
      for (const url of urls) {
        let forward = byOrigin.get(url.origin);
        if (forward === undefined) {
          forward = await openPortForward(host.transport, url);
          forwards.push(forward);
          byOrigin.set(url.origin, forward);
        }
        local.push(forward.localUrl(url));
      }
      return { urls: local, close };
    } catch (error) {
      await close();
      throw error;
    }
  };
};
