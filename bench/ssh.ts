// `npm run bench:ssh`: remote watching against a real test host (its own network, PID and mount namespaces and
// sshd; see test/remote/testhost.ts). Measures ready and crash detection directly and through a TCP relay that adds
// 25 ms each way, the SSH connections sshd accepted during a watch, and the CPU a remote watch costs on both ends.
// A benchmark, not a test: it prints what it measured and writes bench/results/ssh.json.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createTestHost, type TestHost } from '../test/remote/testhost.ts';

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '10' },
    'watch-ms': { type: 'string', default: '60000' },
    'no-build': { type: 'boolean', default: false },
  },
});
const TRIALS = Number(values.trials);
const WATCH_MS = Number(values['watch-ms']);
const ROOT = join(import.meta.dirname, '..');
const VIGIL = join(ROOT, 'bin', 'vigil.js');
const log = (text: string): void => {
  process.stderr.write(`${text}\n`);
};

// A server shaped like SGLang's start: a few log lines, /health answering, then the ready line (or an exit, or
// nothing for ever); it writes the wall-clock time of the decisive moment to MARK.
const SERVER = `
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
const { MODE, MARK, PORT } = process.env;
console.log('[2026-12-03 10:00:00] Load weight begin. avail mem=77.43 GB');
setTimeout(() => {
  if (MODE === 'crash') { writeFileSync(MARK, String(Date.now())); process.exit(3); }
  if (MODE === 'forever') { setInterval(() => console.log('[2026-12-03 10:00:00] Decode batch. #running-req: 0'), 1000); return; }
  createServer((q, r) => r.writeHead(200).end('ok')).listen(Number(PORT), '127.0.0.1', () => {
    setTimeout(() => { writeFileSync(MARK, String(Date.now())); console.log('The server is fired up and ready to roll!'); }, 300);
  });
}, 400 + Math.random() * 200);
`;

// A TCP relay on loopback that holds every chunk for delayMs in each direction (order kept).
const startRelay = (target: string, delayMs: number): Promise<{ port: number; server: Server }> =>
  new Promise((resolve) => {
    const server = createServer((client: Socket) => {
      const upstream = connect(22, target);
      const pipe = (from: Socket, to: Socket): void => {
        from.on('data', (chunk) => setTimeout(() => to.write(chunk), delayMs));
        from.on('end', () => setTimeout(() => to.end(), delayMs));
        from.on('error', () => to.destroy());
      };
      pipe(client, upstream);
      pipe(upstream, client);
    });
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ port: typeof address === 'object' && address !== null ? address.port : 0, server });
    });
  });

interface Run {
  stop: () => void;
  done: Promise<void>;
  firstEventAt: (type: string) => Promise<number>;
  pid: number;
}

// Starts `vigil up` against the host; resolves the wall-clock arrival of events by type.
const startUp = (
  host: TestHost,
  via: string[],
  mode: string,
  port: number,
  mark: string,
  serverPath: string,
): Run => {
  const child = spawn(
    process.execPath,
    [
      VIGIL,
      'up',
      ...via,
      '--output',
      'jsonl',
      '--engine',
      'sglang',
      '--url',
      `http://127.0.0.1:${port}`,
      '--grace',
      '1s',
      '--env',
      `MODE=${mode}`,
      '--env',
      `MARK=${mark}`,
      '--env',
      `PORT=${port}`,
      '--',
      process.execPath,
      serverPath,
    ],
    { env: host.localEnv, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const arrivals = new Map<string, number>();
  const waiters: { type: string; resolve: (t: number) => void }[] = [];
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const now = Date.now();
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      try {
        const event = JSON.parse(line) as { type: string; code?: string };
        // The first event that says the server exited counts as the crash verdict.
        const type = event.type === 'notice' && event.code === 'server-exited' ? 'exited' : event.type;
        if (!arrivals.has(type)) arrivals.set(type, now);
        for (const w of waiters.filter((x) => x.type === type)) w.resolve(now);
      } catch {
        // not an event
      }
    }
  });
  const done = new Promise<void>((resolve) =>
    child.once('close', () => {
      resolve();
    }),
  );
  return {
    pid: child.pid ?? 0,
    stop: () => child.kill('SIGINT'),
    done,
    firstEventAt: (type) =>
      new Promise((resolve) => {
        const seen = arrivals.get(type);
        if (seen !== undefined) resolve(seen);
        else waiters.push({ type, resolve });
      }),
  };
};

const stats = (xs: number[]): { median: number; p95: number; n: number } => {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number): number =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return { median: at(0.5), p95: at(0.95), n: sorted.length };
};

// CPU seconds (user + system, children reaped included) of some processes, from /proc.
const CLK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const cpuOf = (pids: readonly number[]): number =>
  pids.reduce((sum, pid) => {
    try {
      const rest = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return sum + [11, 12, 13, 14].reduce((s, i) => s + Number(rest[i] ?? 0), 0) / CLK;
    } catch {
      return sum;
    }
  }, 0);

const pidsWhere = (match: (cmdline: string, pid: number) => boolean): number[] =>
  readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((pid) => {
      try {
        return match(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '), pid);
      } catch {
        return false;
      }
    });

const main = async (): Promise<void> => {
  if (!values['no-build']) {
    log('building dist/ …');
    spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  }
  const host = await createTestHost();
  const relay = await startRelay(host.addr, 25);
  try {
    const serverPath = join(host.dir, 'bench-server.mjs');
    writeFileSync(serverPath, SERVER);
    writeFileSync(join(host.dir, 'known_hosts'), readFileSync(join(host.dir, 'known_hosts'), 'utf8'));
    const direct = ['--host', host.dest, '--ssh-config', host.sshConfig];
    const relayed = [
      '--host',
      `root@127.0.0.1:${relay.port}`,
      '--ssh-config',
      host.sshConfig,
      '--ssh-opt',
      `HostKeyAlias=${host.addr}`,
    ];
    let port = 32000;
    const results: Record<string, { median: number; p95: number; n: number }> = {};
    for (const [label, via] of [
      ['direct', direct],
      ['relay +25 ms each way', relayed],
    ] as const) {
      for (const mode of ['ready', 'crash'] as const) {
        const samples: number[] = [];
        for (let i = 0; i < TRIALS; i++) {
          const mark = join(host.dir, `mark-${mode}-${i}-${port}`);
          const run = startUp(host, [...via], mode, port++, mark, serverPath);
          const arrived = await Promise.race([
            run.firstEventAt(mode === 'ready' ? 'ready' : 'exited'),
            sleep(30_000).then(() => NaN),
          ]);
          await run.done;
          const at = Number(readFileSync(mark, 'utf8'));
          samples.push(arrived - at);
          if (mode === 'ready')
            // Asynchronously: the relay runs in this process, and a blocked event loop would stall the stop's ssh.
            await runAsync([VIGIL, 'stop', '--grace', '1s', ...lastId(host)], host.localEnv);
        }
        results[`${mode} ${label}`] = stats(samples);
        log(`${mode} ${label}: ${samples.map((s) => s.toFixed(0)).join(' ')}`);
      }
    }

    // One long watch of a server that never gets ready: connections accepted by sshd, and CPU on both ends.
    log(`watching for ${WATCH_MS} ms …`);
    const mark = join(host.dir, 'mark-forever');
    const before = host.connectionCount();
    const run = startUp(host, direct, 'forever', port++, mark, serverPath);
    await run.firstEventAt('launched');
    await sleep(1000);
    const localPids = (): number[] => [
      run.pid,
      ...pidsWhere((cmd) => cmd.includes(join(host.dir, 'local-state')) && cmd.startsWith('ssh')),
    ];
    const remotePids = async (): Promise<number[]> => {
      const { stdout } = await host.exec(
        'for d in /proc/[0-9]*; do a=$(tr "\\0" " " < $d/cmdline 2>/dev/null); case "$a" in *bench-server*|*"sh -c ps"*|"") ;; sshd:*listener*) ;; *) echo ${d#/proc/} ;; esac; done',
      );
      return stdout.split('\n').filter(Boolean).map(Number);
    };
    // Remote pids as seen inside the host's PID namespace; the same set is read at both ends of the minute, so
    // processes that come and go (earlier launches ending) do not count, while the watcher's reaped children
    // (sleep, wc, curl) do, through its cutime and cstime.
    const watched = await remotePids();
    // pid → CPU seconds; a process counts only when it lived through the whole minute (same start time).
    const remoteSample = async (): Promise<Map<string, number>> => {
      const { stdout } = await host.exec(
        `for p in ${watched.join(' ')}; do cat /proc/$p/stat 2>/dev/null; done`,
      );
      const sample = new Map<string, number>();
      for (const line of stdout.split('\n').filter(Boolean)) {
        const rest = line.split(') ')[1]?.split(' ') ?? [];
        const key = `${line.slice(0, line.indexOf(' '))}@${rest[19] ?? ''}`;
        sample.set(key, [11, 12, 13, 14].reduce((s, i) => s + Number(rest[i] ?? 0), 0) / CLK);
      }
      return sample;
    };
    const locals = localPids();
    const local0 = cpuOf(locals);
    const remoteStart = await remoteSample();
    const t0 = performance.now();
    await sleep(WATCH_MS);
    const minutes = (performance.now() - t0) / 60_000;
    const local1 = cpuOf(locals);
    const remoteEnd = await remoteSample();
    let remoteDelta = 0;
    for (const [key, cpu] of remoteEnd) remoteDelta += cpu - (remoteStart.get(key) ?? cpu);
    const connections = host.connectionCount() - before;
    run.stop();
    await run.done;

    const report = {
      trials: TRIALS,
      detection_ms: results,
      watch: {
        minutes: Number(minutes.toFixed(2)),
        ssh_connections_accepted: connections,
        connections_per_minute: Number((connections / minutes).toFixed(2)),
        vigil_cpu_s_per_min_local: Number(((local1 - local0) / minutes).toFixed(3)),
        watcher_cpu_s_per_min_remote: Number((remoteDelta / minutes).toFixed(3)),
      },
    };
    const rows = Object.entries(results).map(
      ([k, v]) =>
        `${k.padEnd(34)} median ${v.median.toFixed(0).padStart(5)} ms   p95 ${v.p95.toFixed(0).padStart(5)} ms   (n=${v.n})`,
    );
    process.stdout.write(
      [
        "remote detection (from the server's decisive moment to the event at vigil)",
        ...rows,
        '',
        `watch of ${report.watch.minutes} min: ${connections} SSH connection(s) accepted by the host's sshd (${report.watch.connections_per_minute}/min)`,
        `CPU per minute of watching: vigil + ssh here ${report.watch.vigil_cpu_s_per_min_local} s, watcher + sshd on the host ${report.watch.watcher_cpu_s_per_min_remote} s`,
        '',
      ].join('\n'),
    );
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', 'ssh.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    relay.server.close();
    host.close();
  }
};

const runAsync = (args: string[], env: NodeJS.ProcessEnv): Promise<void> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: 'ignore' });
    child.once('close', () => {
      resolve();
    });
  });

// The newest launch id (the one just made), as `vigil stop` arguments.
const lastId = (host: TestHost): string[] => {
  const dir = join(host.localEnv['XDG_STATE_HOME'] ?? '', 'vigil', 'launches');
  const newest = readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .map((n) => ({ n, t: JSON.parse(readFileSync(join(dir, n), 'utf8')) as { started_at: string } }))
    .sort((a, b) => a.t.started_at.localeCompare(b.t.started_at))
    .at(-1);
  return newest === undefined ? [] : [newest.n.replace(/\.json$/, '')];
};

await main();
