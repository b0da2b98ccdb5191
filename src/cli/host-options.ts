// The remote-host options (--host, --ssh-config, --ssh-opt, --connect-timeout, --activate, --remote-shell, --cwd),
// defined once for every command that takes them, and their conversion into library options.
import type { Command } from 'commander';
import { isLocalHost, parseDestination } from '../hosts/remote/destination.ts';
import { stdinShell } from '../hosts/remote/quote.ts';
import type { RemoteOptions } from '../watch/options.ts';
import type { RemoteHost } from '../hosts/remote/host.ts';
import { collect, positiveDuration } from './watch-options.ts';

export interface RawHostOptions {
  host?: string;
  sshConfig?: string;
  sshOpt?: string[];
  connectTimeout?: string;
  activate?: string;
  remoteShell?: string;
  cwd?: string;
}

// `launch`: also the options that shape the remote shell and the server's folder (up).
export const addHostOptions = (command: Command, { launch }: { launch: boolean }): Command => {
  command
    .option('--host <[user@]host[:port]>', 'where the server runs, over SSH (default: this machine)')
    .option('--ssh-config <file>', 'ssh config file for the host (passed to ssh as -F)')
    .option('--ssh-opt <Key=Value>', 'an ssh option (passed as -o; repeatable)', collect)
    .option('--connect-timeout <duration>', 'limit for connecting to the host (default 10s)');
  if (launch) {
    command
      .option('--activate <cmd>', 'shell command run before the server, e.g. "source /opt/venv/bin/activate"')
      .option(
        '--remote-shell <shell>',
        "the shell that runs the launch on the host, e.g. 'bash -lc'",
        'sh -c',
      )
      .option('--cwd <dir>', "the server's working folder (on the host it runs on)");
  }
  return command;
};

// The host, or undefined for this machine, plus the remote options; throws UsageError for invalid ones.
export const parseHostOptions = (
  raw: RawHostOptions,
): { host?: string; remote?: RemoteOptions; cwd?: string } => {
  const cwd = raw.cwd === undefined ? {} : { cwd: raw.cwd };
  if (isLocalHost(raw.host)) return cwd;
  const host = parseDestination(raw.host ?? '').label;
  if (raw.remoteShell !== undefined) stdinShell(raw.remoteShell);
  const remote: RemoteOptions = {
    connectTimeoutMs: positiveDuration(raw.connectTimeout ?? '10s', '--connect-timeout'),
    ...(raw.sshConfig === undefined ? {} : { sshConfig: raw.sshConfig }),
    ...(raw.sshOpt === undefined ? {} : { sshOptions: raw.sshOpt }),
    ...(raw.activate === undefined ? {} : { activate: raw.activate }),
    ...(raw.remoteShell === undefined || raw.remoteShell === 'sh -c' ? {} : { remoteShell: raw.remoteShell }),
  };
  return { host, remote, ...cwd };
};

// For commands on recorded launches (status, logs, stop, attach): only the ssh settings given on the command line,
// which win over the ones the record holds.
export const parseRemoteOverrides = (raw: RawHostOptions): RemoteOptions => ({
  ...(raw.connectTimeout === undefined
    ? {}
    : { connectTimeoutMs: positiveDuration(raw.connectTimeout, '--connect-timeout') }),
  ...(raw.sshConfig === undefined ? {} : { sshConfig: raw.sshConfig }),
  ...(raw.sshOpt === undefined ? {} : { sshOptions: raw.sshOpt }),
});

// The remote host the parsed options name, or undefined for this machine (the ssh code loads only then).
export const remoteHostFor = async (
  where: { host?: string; remote?: RemoteOptions },
  stateDir: string,
): Promise<RemoteHost | undefined> => {
  if (where.host === undefined) return undefined;
  const remote = where.remote ?? {};
  const { createRemoteHost } = await import('../hosts/remote/host.ts');
  return createRemoteHost({
    destination: parseDestination(where.host),
    stateDir,
    ...(remote.sshConfig === undefined ? {} : { configFile: remote.sshConfig }),
    ...(remote.sshOptions === undefined ? {} : { options: remote.sshOptions }),
    ...(remote.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: remote.connectTimeoutMs }),
    ...(remote.remoteShell === undefined ? {} : { remoteShell: remote.remoteShell }),
    ...(remote.activate === undefined ? {} : { activate: remote.activate }),
  });
};
