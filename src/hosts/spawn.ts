// Starts a server in its own session and process group, with its stdout and stderr appended to a log file.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants, fstatSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import { VigilError } from '../errors.ts';
import { joinCgroup } from './cgroup.ts';
import { readProcStat } from './proc.ts';

// What to start and where its output goes.
export interface SpawnDetachedOptions {
  argv: readonly string[];
  /** The log file; created with mode 0600 when missing, always opened with O_APPEND. */
  logPath: string;
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** A cgroup v2 directory (createLaunchCgroup) the server joins before it runs. */
  cgroup?: string;
}

// How the leader exited: a code, or the signal that killed it.
export interface ExitInfo {
  code: number | null;
  signal: string | null;
}

// A started server: its ids, its log offset, and its exit.
export interface DetachedProcess {
  pid: number;
  /** The process group and session both equal the pid (the child called setsid). */
  pgid: number;
  sid: number;
  /** /proc start time of the leader, to tell a reused pid apart. */
  starttime: number | null;
  /** The log file's size before the server started: tailing begins here. */
  logOffset: number;
  /** The cgroup the leader joined before the server ran, or null (none given, or the kernel refused the move). */
  cgroup: string | null;
  /** Resolves when the leader exits (Node reaps it, so this is immediate). */
  exited: Promise<ExitInfo>;
  /** The exit, once it has happened. */
  readonly exit: ExitInfo | null;
  child: ChildProcess;
}

// With a cgroup, the command starts as `sh` waiting on fd 3: vigil moves it into the cgroup, then says go, and only
// then does it close the gate and exec the server (same pid). So no process of the launch ever runs outside the
// cgroup; without a go (vigil died in between), nothing runs at all.
const GATE_SCRIPT = 'read -r go <&3 && [ "$go" = go ] || exit 125; exec 3<&-; exec "$@"';

const LOG_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NONBLOCK;

// Spawns argv detached (setsid) with the log as stdout and stderr, never through a pipe, so the server outlives vigil.
export const spawnDetached = async (options: SpawnDetachedOptions): Promise<DetachedProcess> => {
  const [file] = options.argv;
  if (file === undefined) throw new VigilError('E_SPAWN', 'the server command is empty');
  const gated = options.cgroup !== undefined;
  const [spawnFile, ...args] = gated
    ? ['/bin/sh', '-c', GATE_SCRIPT, 'vigil', ...options.argv]
    : options.argv;
  let fd: number;
  try {
    mkdirSync(dirname(options.logPath), { recursive: true, mode: 0o700 });
    // O_NONBLOCK: a path that turned into a FIFO since it was checked must not block vigil in a synchronous open.
    fd = openSync(options.logPath, LOG_FLAGS, 0o600);
    const info = fstatSync(fd);
    if (!info.isFile() && !(info.isCharacterDevice() && options.logPath === '/dev/null')) {
      closeSync(fd);
      throw new Error('not a regular file');
    }
  } catch (error) {
    // Nothing was started: the log path is at fault, not the server (E_STATE, not E_SPAWN).
    throw new VigilError(
      'E_STATE',
      `cannot open the log file ${options.logPath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      {
        cause: error,
        hint: 'pass --log with a writable path, or fix the permissions of the state directory',
      },
    );
  }
  const logOffset = fstatSync(fd).size;
  let child: ChildProcess;
  try {
    child = spawn(spawnFile ?? file, args, {
      detached: true,
      stdio: gated ? ['ignore', fd, fd, 'pipe'] : ['ignore', fd, fd],
      env: options.env,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
  } catch (error) {
    closeSync(fd);
    throw spawnError(file, error);
  }
  closeSync(fd);
  let exit: ExitInfo | null = null;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
  });
  await new Promise<void>((resolve, reject) => {
    const onSpawn = (): void => {
      child.off('error', onError);
      resolve();
    };
    const onError = (error: Error): void => {
      child.off('spawn', onSpawn);
      reject(spawnError(file, error));
    };
    child.once('spawn', onSpawn);
    child.once('error', onError);
  });
  const pid = child.pid;
  if (pid === undefined) throw new VigilError('E_SPAWN', `could not start ${file}: no process id`);
  const cgroup = options.cgroup !== undefined && joinCgroup(options.cgroup, pid) ? options.cgroup : null;
  if (gated) openGate(child.stdio[3] as Writable);
  // The server must not keep vigil alive, and vigil must be able to exit while the server runs on.
  child.unref();
  return {
    pid,
    pgid: pid,
    sid: pid,
    starttime: readProcStat(pid)?.starttime ?? null,
    logOffset,
    cgroup,
    get exit() {
      return exit;
    },
    child,
    exited,
  };
};

// Lets the gated leader go on to exec the server; the pipe closes at once, so it keeps neither side alive.
const openGate = (gate: Writable): void => {
  gate.on('error', () => undefined);
  gate.end('go\n');
};

const spawnError = (file: string, error: unknown): VigilError => {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT'
      ? 'command not found'
      : code === 'EACCES'
        ? 'permission denied'
        : (error as Error).message;
  return new VigilError('E_SPAWN', `could not start ${file}: ${reason}`, {
    cause: error,
    hint: code === 'ENOENT' ? 'check the command name and PATH, or give the full path' : 'check the command',
  });
};
