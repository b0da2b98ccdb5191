// The SSH transport: the system OpenSSH client (so ~/.ssh/config, agents, ProxyJump and hardware keys work),
// BatchMode, keepalives that notice a dead link within seconds, and one ControlMaster connection per host that
// everything vigil does there shares. Scripts travel on stdin; the only remote argv is a shell reading stdin.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invalidOption } from '../../errors.ts';
import type { ExecResult } from '../exec.ts';
import type { Destination } from './destination.ts';
import { stdinShell } from './quote.ts';
import { sshFailureError } from './ssh-errors.ts';

// How to reach one host.
export interface SshSettings {
  destination: Destination;
  /** `--ssh-config FILE`, passed as -F. */
  configFile?: string;
  /** `--ssh-opt Key=Value`, each passed as -o. */
  options?: readonly string[];
  /** `--connect-timeout` (default 10 s). */
  connectTimeoutMs?: number;
  /** vigil's state directory: the control sockets live in a 0700 folder under it. */
  stateDir: string;
  /** `--remote-shell`, e.g. `bash -lc`; default `sh -c`. */
  remoteShell?: string;
}

export interface RunOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

// One host's connection: run scripts to completion, or start a long-lived one.
export interface SshTransport {
  readonly label: string;
  readonly controlPath: string;
  /** The remote shell's argv (a constant: `sh -s`, or the login shell's equivalent). */
  readonly shell: readonly string[];
  /** Runs a script on the host; rejects with E_UNREACHABLE when ssh cannot connect (exit 255). */
  run(script: string, options?: RunOptions): Promise<ExecResult>;
  /** Starts a script whose stdin stays open after it (for commands); the caller owns the process. */
  start(script: string): ChildProcess;
  /** Ends the master connection. */
  close(): Promise<void>;
}

const OPTION = /^[A-Za-z][A-Za-z0-9]*=[^\n\r\0]*$/;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** Keepalives: a link that stops answering is dropped after about interval × count. */
const ALIVE_INTERVAL_S = 2;
const ALIVE_COUNT = 3;
/** Unix socket paths are limited to ~104 bytes. */
const MAX_SOCKET_PATH = 100;

// The control socket: a short hash of everything that picks the connection, in a 0700 folder of vigil's own.
const controlPathFor = (settings: SshSettings): string => {
  const key = JSON.stringify([settings.destination.label, settings.configFile ?? '', settings.options ?? []]);
  const name = createHash('sha256').update(key).digest('hex').slice(0, 16);
  let dir = join(settings.stateDir, 'ssh');
  if (join(dir, name).length > MAX_SOCKET_PATH) dir = join(tmpdir(), `vigil-ssh-${process.getuid?.() ?? 0}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return join(dir, name);
};

// Validates the settings and builds the transport; nothing connects until the first run.
export const createSshTransport = (settings: SshSettings): SshTransport => {
  for (const option of settings.options ?? []) {
    if (!OPTION.test(option)) throw invalidOption('--ssh-opt', 'Key=Value, e.g. ProxyJump=bastion', option);
  }
  const timeoutS = Math.max(1, Math.ceil((settings.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS) / 1000));
  const shell = stdinShell(settings.remoteShell);
  const controlPath = controlPathFor(settings);
  const { destination } = settings;
  const base = [
    ...(settings.configFile === undefined ? [] : ['-F', settings.configFile]),
    '-o',
    'BatchMode=yes',
    ...(settings.options ?? []).flatMap((o) => ['-o', o]),
    '-o',
    `ConnectTimeout=${timeoutS}`,
    '-o',
    `ServerAliveInterval=${ALIVE_INTERVAL_S}`,
    '-o',
    `ServerAliveCountMax=${ALIVE_COUNT}`,
    '-o',
    'ControlMaster=auto',
    '-o',
    `ControlPath=${controlPath}`,
    '-o',
    'ControlPersist=60',
    ...(destination.user === null ? [] : ['-l', destination.user]),
    ...(destination.port === null ? [] : ['-p', String(destination.port)]),
  ];
  const args = [...base, '-T', '--', destination.host, ...shell];

  const start = (script: string): ChildProcess => {
    const child = spawn('ssh', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.on('error', () => undefined);
    // One brace group: the shell parses all of it before running any, so a `read` in the script gets only what
    // vigil writes later, never the rest of the script (bash reads a script on stdin byte by byte).
    child.stdin.write(`{\n${script}\n}\n`);
    return child;
  };

  return {
    label: destination.label,
    controlPath,
    shell,
    start,
    run: (script, options = {}) =>
      new Promise((resolve, reject) => {
        const child = start(script);
        child.stdin?.end();
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
        child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
        let timedOut = false;
        const timer =
          options.timeoutMs === undefined
            ? null
            : setTimeout(() => {
                timedOut = true;
                child.kill('SIGKILL');
              }, options.timeoutMs);
        const onAbort = (): void => {
          child.kill('SIGKILL');
        };
        options.signal?.addEventListener('abort', onAbort, { once: true });
        child.once('error', (error) => {
          if (timer !== null) clearTimeout(timer);
          reject(new Error(`could not run ssh: ${error.message}`, { cause: error }));
        });
        child.once('close', (code, signal) => {
          if (timer !== null) clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          const stderr = Buffer.concat(err).toString('utf8');
          if (code === 255) {
            reject(sshFailureError(destination.label, stderr));
            return;
          }
          resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr, timedOut });
        });
      }),
    close: () =>
      new Promise((resolve) => {
        const child = spawn('ssh', [...base, '-O', 'exit', '--', destination.host], { stdio: 'ignore' });
        child.once('error', () => {
          resolve();
        });
        child.once('close', () => {
          resolve();
        });
      }),
  };
};
