// `--host [user@]host[:port]`: parsed and validated before anything connects (an IPv6 address is `[addr]:port`).
import { UsageError, invalidOption } from '../../errors.ts';

// Where ssh connects.
export interface Destination {
  user: string | null;
  host: string;
  port: number | null;
  /** The text as given, for messages and records. */
  label: string;
}

const LOCAL = new Set(['local', 'localhost', '127.0.0.1', '::1']);

// Whether `--host` means this machine (no SSH).
export const isLocalHost = (text: string | undefined): boolean => text === undefined || LOCAL.has(text);

// Parses `[user@]host[:port]`; throws UsageError naming --host.
export const parseDestination = (text: string): Destination => {
  const expected = '[user@]host[:port], e.g. root@gpu-1 or admin@[fd00::1]:2222';
  if (text === '' || text.startsWith('-') || /[\s'"`$\\;&|<>()]/.test(text)) {
    throw invalidOption('--host', expected, text);
  }
  const at = text.lastIndexOf('@');
  const user = at === -1 ? null : text.slice(0, at);
  const rest = at === -1 ? text : text.slice(at + 1);
  if (user !== null && (user === '' || user.startsWith('-'))) throw invalidOption('--host', expected, text);
  let host = rest;
  let portText: string | null = null;
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close === -1) throw invalidOption('--host', expected, text);
    host = rest.slice(1, close);
    const after = rest.slice(close + 1);
    if (after !== '') {
      if (!after.startsWith(':')) throw invalidOption('--host', expected, text);
      portText = after.slice(1);
    }
  } else if (rest.split(':').length === 2) {
    [host, portText] = rest.split(':') as [string, string];
  } else if (rest.includes(':')) {
    throw new UsageError(`--host ${text}: write an IPv6 address in brackets, e.g. [${rest}]`, {
      option: '--host',
    });
  }
  if (host === '' || host.startsWith('-')) throw invalidOption('--host', expected, text);
  let port: number | null = null;
  if (portText !== null) {
    port = Number(portText);
    if (!/^\d+$/.test(portText) || port < 1 || port > 65535) throw invalidOption('--host', expected, text);
  }
  return { user, host, port, label: text };
};
