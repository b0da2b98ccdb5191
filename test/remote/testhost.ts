// A real remote host on this machine: its own network namespace behind a veth link (198.18.0.0/15), its own PID
// and mount namespaces, its own boot id, and an sshd with keys generated for the test. Faults are real: a
// partition takes the link down, a reboot kills every process of the host and changes its boot id.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface TestHost {
  /** The host's address (inside its namespace). */
  addr: string;
  /** An address on the same link that nobody answers. */
  unusedAddr: string;
  /** `root@addr`. */
  dest: string;
  /** The ssh_config a client needs (identity and known host key). */
  sshConfig: string;
  /** The temp dir holding keys, configs and logs. */
  dir: string;
  /** XDG_STATE_HOME of sessions on the host. */
  remoteStateHome: string;
  /** An environment for vigil on this side, with its state dir inside `dir`. */
  localEnv: NodeJS.ProcessEnv;
  bootId(): string;
  /** Runs a shell command inside the host's namespaces. */
  exec(command: string): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** TCP connections sshd has accepted so far (from its VERBOSE log). */
  connectionCount(): number;
  partition(): void;
  heal(): void;
  /** Kills sshd and every session process it started. */
  killSshd(): void;
  startSshd(): void;
  /** Kills every process of the host, writes a new boot id and starts sshd again. */
  reboot(): Promise<void>;
  close(): void;
}

const open = new Set<TestHost>();
let handlersInstalled = false;

const installExitHandlers = (): void => {
  if (handlersInstalled) return;
  handlersInstalled = true;
  const closeAll = (): void => {
    for (const host of open) host.close();
  };
  process.once('exit', closeAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      closeAll();
      process.exit(130);
    });
  }
};

// A random /29 in 198.18.0.0/15, so runs in parallel do not collide: .1 this side, .2 the host, .3 unused.
const randomSubnet = (): number[] => {
  const block = randomBytes(2).readUInt16BE(0) % 16384;
  const base = (198 << 24) + (18 << 16) + block * 8;
  return [1, 2, 3].map((n) => base + n);
};
const dotted = (n: number): string => [24, 16, 8, 0].map((s) => String((n >>> s) & 255)).join('.');

const run = (file: string, args: readonly string[]): string =>
  execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const tryRun = (file: string, args: readonly string[]): void => {
  try {
    run(file, args);
  } catch {
    // best effort during cleanup
  }
};

// Builds a test host; call close() (also done on process exit) to remove everything it made.
export const createTestHost = async (): Promise<TestHost> => {
  // Without OpenSSH's server the host cannot start: say so, rather than time out waiting for it.
  if (!existsSync('/usr/sbin/sshd'))
    throw new Error(
      'the remote-host tests need /usr/sbin/sshd (OpenSSH server): run .ci/run as root, which installs it, or apt-get install openssh-server',
    );
  installExitHandlers();
  const tag = randomBytes(3).toString('hex');
  const ns = `vigil-th-${process.pid}-${tag}`;
  const vethHost = `vth${tag}`;
  const vethNs = `vtn${tag}`;
  const [local, remote, unused] = randomSubnet().map(dotted) as [string, string, string];
  const dir = mkdtempSync(join(tmpdir(), 'vigil-th-'));
  const remoteStateHome = join(dir, 'remote-state');
  const bootFile = join(dir, 'boot_id');
  const sshdLog = join(dir, 'sshd.log');
  const sshdConfig = join(dir, 'sshd_config');
  writeFileSync(bootFile, `${randomUUID()}\n`);
  let init: ChildProcess | null = null;
  let initPid: number | null = null;
  let pidNs: string | null = null;
  let closed = false;

  const inHost = (): number[] => {
    if (pidNs === null) return [];
    const pids: number[] = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        if (readlinkSync(`/proc/${name}/ns/pid`) === pidNs) pids.push(Number(name));
      } catch {
        // gone
      }
    }
    return pids;
  };
  const commOf = (pid: number): string => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      return '';
    }
  };

  const startInit = async (): Promise<void> => {
    const script = [
      'set -e',
      'mount -t tmpfs tmpfs /run',
      'mkdir -m 755 /run/sshd',
      `mount --bind ${bootFile} /proc/sys/kernel/random/boot_id`,
      // A clean account, as on a fresh host: this machine's shell start-up files (a version manager's init costs
      // about 0.8 s of CPU) would otherwise run for every command sshd starts.
      'for rc in ~root/.bashrc ~root/.profile ~root/.bash_profile ~root/.bash_login; do',
      '  if [ -f "$rc" ]; then mount --bind /dev/null "$rc"; fi',
      'done',
      `/usr/sbin/sshd -f ${sshdConfig} -E ${sshdLog}`,
      'exec sleep infinity',
    ].join('\n');
    writeFileSync(join(dir, 'init.sh'), script);
    init = spawn(
      'ip',
      ['netns', 'exec', ns, 'unshare', '--pid', '--fork', '--mount-proc', 'sh', join(dir, 'init.sh')],
      {
        stdio: 'ignore',
        detached: true,
      },
    );
    init.unref();
    const unsharePid = init.pid ?? 0;
    const deadline = Date.now() + 10_000;
    for (;;) {
      const children = readChildren(unsharePid);
      const first = children[0];
      if (first !== undefined && commOf(first) === 'sleep') {
        initPid = first;
        pidNs = readlinkSync(`/proc/${first}/ns/pid`);
        break;
      }
      if (Date.now() > deadline) throw new Error(`the test host ${ns} did not start`);
      await sleep(20);
    }
  };

  const host: TestHost = {
    addr: remote,
    unusedAddr: unused,
    dest: `root@${remote}`,
    sshConfig: join(dir, 'ssh_config'),
    dir,
    remoteStateHome,
    localEnv: { ...process.env, XDG_STATE_HOME: join(dir, 'local-state') },
    bootId: () => readFileSync(bootFile, 'utf8').trim(),
    exec: (command) =>
      new Promise((resolve) => {
        execFile(
          'nsenter',
          ['-t', String(initPid), '-n', '-m', '-p', '--', 'sh', '-c', command],
          { encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: remoteStateHome } },
          (error, stdout, stderr) => {
            resolve({
              code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
              stdout,
              stderr,
            });
          },
        );
      }),
    connectionCount: () => {
      try {
        return readFileSync(sshdLog, 'utf8')
          .split('\n')
          .filter((l) => l.includes('Connection from')).length;
      } catch {
        return 0;
      }
    },
    partition: () => {
      run('ip', ['link', 'set', vethHost, 'down']);
    },
    heal: () => {
      run('ip', ['link', 'set', vethHost, 'up']);
    },
    killSshd: () => {
      for (const pid of inHost()) {
        if (commOf(pid).startsWith('sshd')) tryKill(pid);
      }
    },
    startSshd: () => {
      run('nsenter', [
        '-t',
        String(initPid),
        '-n',
        '-m',
        '-p',
        '--',
        '/usr/sbin/sshd',
        '-f',
        sshdConfig,
        '-E',
        sshdLog,
      ]);
    },
    reboot: async () => {
      const before = inHost();
      if (initPid !== null) tryKill(initPid);
      const deadline = Date.now() + 10_000;
      while (before.some(isAlive) && Date.now() < deadline) await sleep(20);
      writeFileSync(bootFile, `${randomUUID()}\n`);
      await startInit();
    },
    close: () => {
      if (closed) return;
      closed = true;
      open.delete(host);
      if (initPid !== null) tryKill(initPid);
      if (init?.pid !== undefined) tryKill(init.pid);
      // ssh control masters and anything else started with this host's files in its command line.
      for (const name of readdirSync('/proc')) {
        if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
        try {
          if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(dir)) tryKill(Number(name));
        } catch {
          // gone
        }
      }
      tryRun('ip', ['netns', 'del', ns]);
      tryRun('ip', ['link', 'del', vethHost]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  open.add(host);

  try {
    run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
    run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'user_key')]);
    writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'user_key.pub')));
    writeFileSync(join(dir, 'known_hosts'), `${remote} ${readFileSync(join(dir, 'host_key.pub'), 'utf8')}`);
    writeFileSync(
      sshdConfig,
      [
        `ListenAddress ${remote}`,
        'Port 22',
        `HostKey ${join(dir, 'host_key')}`,
        `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
        `PidFile ${join(dir, 'sshd.pid')}`,
        'StrictModes no',
        'UsePAM no',
        'PermitRootLogin prohibit-password',
        'LogLevel VERBOSE',
        'MaxSessions 50',
        'MaxStartups 50',
        `SetEnv XDG_STATE_HOME=${remoteStateHome}`,
        '',
      ].join('\n'),
    );
    writeFileSync(
      host.sshConfig,
      [
        'Host *',
        `  IdentityFile ${join(dir, 'user_key')}`,
        '  IdentitiesOnly yes',
        `  UserKnownHostsFile ${join(dir, 'known_hosts')}`,
        '  StrictHostKeyChecking yes',
        '  LogLevel ERROR',
        '',
      ].join('\n'),
    );
    run('ip', ['netns', 'add', ns]);
    run('ip', ['link', 'add', vethHost, 'type', 'veth', 'peer', 'name', vethNs]);
    run('ip', ['link', 'set', vethNs, 'netns', ns]);
    run('ip', ['addr', 'add', `${local}/29`, 'dev', vethHost]);
    run('ip', ['link', 'set', vethHost, 'up']);
    run('ip', ['-n', ns, 'addr', 'add', `${remote}/29`, 'dev', vethNs]);
    run('ip', ['-n', ns, 'link', 'set', vethNs, 'up']);
    run('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
    await startInit();
    await waitForSshd(host);
  } catch (error) {
    host.close();
    throw error;
  }
  return host;
};

const readChildren = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};

const isAlive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) [ZX] /.test(stat);
  } catch {
    return false;
  }
};

const tryKill = (pid: number): void => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
};

// Waits until an ssh login works (sshd listening, keys in place).
export const waitForSshd = async (host: TestHost, withinMs = 10_000): Promise<void> => {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      execFile(
        'ssh',
        ['-F', host.sshConfig, '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=2', host.dest, 'true'],
        (error) => {
          resolve(error === null);
        },
      );
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error('the test host sshd does not answer');
    await sleep(50);
  }
};
