// Managing remote launches: status, logs (-n, -f), attach (also after vigil was killed), stop (and a stop that
// must not signal because the host rebooted); the quoting cases end to end; secrets nowhere they must not be.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEvent } from '../../src/events.ts';
import { runVigil, startVigil } from '../helpers/cli.ts';
import { ensureBuilt } from '../helpers/build.ts';
import { createTestHost, type TestHost } from './testhost.ts';
import { hostArgs, lastEvent, numberedServer, remotePort, remoteProcesses, simCommand } from './remote.ts';

let host: TestHost;
// dist/ is built first, outside any one test's time limit (a build on a busy machine takes a while).
beforeAll(async () => {
  ensureBuilt();
  host = await createTestHost();
}, 240_000);
afterAll(() => {
  // Unset where creating the host failed: that error is the one to report.
  (host as TestHost | undefined)?.close();
});

const numberedUp = (
  port: number,
  count: number,
  everyMs: number,
  extra: string[] = [],
  serverArgs: string[] = [],
) =>
  startVigil(
    [
      'up',
      ...hostArgs(host),
      '--output',
      'jsonl',
      '--engine',
      'generic',
      '--url',
      `http://127.0.0.1:${port}/health`,
      '--env',
      `PORT=${port}`,
      '--env',
      `SEQ_COUNT=${count}`,
      '--env',
      `SEQ_MS=${everyMs}`,
      ...extra,
      '--',
      process.execPath,
      numberedServer(host),
      ...serverArgs,
    ],
    host.localEnv,
  );

const vigil = (args: string[]) => runVigil(args, host.localEnv, 60_000);
const launchedId = (events: readonly { type: string }[]): string =>
  (events.find((e) => e.type === 'launched') as { id: string } | undefined)?.id ?? '';

describe('managing remote launches', () => {
  it('status, logs, logs -f, attach and stop work on a remote launch', async () => {
    const port = remotePort();
    const up = await numberedUp(port, 10, 5).done;
    expect(up.code, up.stderr).toBe(0);
    const id = launchedId(up.events);

    const status = await vigil(['status', '--output', 'json']);
    const rows = JSON.parse(status.stdout) as {
      id: string;
      state: string;
      host: string;
      processes: number[];
    }[];
    expect(rows.find((r) => r.id === id)).toMatchObject({ state: 'alive', host: host.dest });

    const logs = await vigil(['logs', '-n', '3', id]);
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stdout.split('\n').filter(Boolean)).toEqual([
      'WARNING: seq 00009',
      'WARNING: seq 00010',
      'serving',
    ]);

    const follow = startVigil(['logs', '-f', '-n', '1', id], host.localEnv);
    const record = JSON.parse(
      readFileSync(join(host.localEnv['XDG_STATE_HOME'] ?? '', 'vigil', 'launches', `${id}.json`), 'utf8'),
    ) as { log: string };
    let seen = '';
    const arrived = new Promise<void>((resolve) => {
      follow.child.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        if (seen.includes('followed-line')) resolve();
      });
    });
    // The last line printed first, then what is appended while following.
    await new Promise<void>((resolve) => {
      follow.child.stdout?.once('data', () => {
        resolve();
      });
    });
    await host.exec(`echo followed-line >> '${record.log}'`);
    await arrived;
    follow.child.kill('SIGINT');
    const followed = await follow.done;
    expect(followed.stdout).toContain('followed-line');

    const attached = await vigil(['attach', id, '--output', 'jsonl']);
    expect(attached.code, attached.stderr).toBe(0);
    expect(lastEvent(attached.events)?.type).toBe('ready');

    const stop = await vigil(['stop', id, '--grace', '2s']);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toMatch(/stopped \d+ process/);
    expect((await remoteProcesses(host)).filter((p) => p.argv.includes(numberedServer(host)))).toEqual([]);
    const after = JSON.parse((await vigil(['status', id, '--output', 'json'])).stdout) as { state: string }[];
    expect(after[0]?.state).toBe('exited');
  });

  it('attach picks up a launch whose vigil was killed, from the offset in its record', async () => {
    const port = remotePort();
    const running = numberedUp(port, 80, 25);
    const launched = await running.waitFor((e) => e.type === 'launched', 30_000);
    await running.waitFor((e) => e.type === 'log' && e.text === 'seq 00010', 30_000);
    running.child.kill('SIGKILL');
    await running.done;
    const id = (launched as { id: string }).id;
    const attached = await vigil(['attach', id, '--output', 'jsonl']);
    expect(attached.code, attached.stderr).toBe(0);
    const seqs = attached.events.filter((e): e is LogEvent => e.type === 'log').map((e) => e.text);
    expect(seqs).toEqual(Array.from({ length: 80 }, (_, i) => `seq ${String(i + 1).padStart(5, '0')}`));
    await vigil(['stop', id, '--grace', '1s']);
  });

  it('passes every quoting case to the server argv unchanged, and none of it runs', async () => {
    const port = remotePort();
    const canary = join(host.dir, 'canary');
    const argvOut = join(host.dir, 'argv.json');
    const cwd = join(host.dir, "work dir with 'quotes' and $(x)");
    await host.exec(`mkdir -p "${cwd.replaceAll('$', '\\$')}"`);
    const args = [
      'two words',
      `both ' and "`,
      `$(touch ${canary})`,
      `\`touch ${canary}\``,
      `; touch ${canary}`,
      `&& touch ${canary}`,
      `line one\nline two; touch ${canary}`,
      '*',
      '/etc/*',
      '--leading-dashes',
      '-x',
      'ünïcødé ✓',
      '',
      '~',
      '$HOME',
    ];
    const run = await numberedUp(
      port,
      1,
      5,
      ['--env', `ARGV_OUT=${argvOut}`, '--env', `ODD=$(touch ${canary}) '"; touch ${canary}`, '--cwd', cwd],
      args,
    ).done;
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(readFileSync(argvOut, 'utf8'))).toEqual(args);
    expect(existsSync(canary)).toBe(false);
    await vigil(['stop', launchedId(run.events), '--grace', '1s']);
  });

  it('keeps secrets out of the output, the state files and every remote argv but the server’s', async () => {
    const port = remotePort();
    const apiKey = 'sk-remote-secret-4242';
    const token = 'hf-token-secret-9191';
    const running = startVigil(
      [
        'up',
        ...hostArgs(host),
        '--output',
        'jsonl',
        '--engine',
        'sglang',
        '--url',
        `http://127.0.0.1:${port}`,
        '--env',
        'VIGIL_SIM_TIME_SCALE=0.002',
        '--env',
        `HF_TOKEN=${token}`,
        '--',
        ...simCommand(port, '--api-key', apiKey),
      ],
      host.localEnv,
    );
    const leaks: string[] = [];
    let sampling = true;
    const isSampling = (): boolean => sampling;
    const sampler = (async () => {
      while (isSampling()) {
        for (const p of await remoteProcesses(host)) {
          const own = p.argv.includes('sim sglang') || p.argv.includes('"$@"');
          if (!own && (p.argv.includes(apiKey) || p.argv.includes(token))) leaks.push(p.argv);
        }
        await sleep(50);
      }
    })();
    const run = await running.done;
    sampling = false;
    await sampler;
    expect(run.code, run.stderr).toBe(0);
    expect(leaks).toEqual([]);
    expect(run.stdout + run.stderr).not.toContain(apiKey);
    expect(run.stdout + run.stderr).not.toContain(token);
    const stateRoot = host.localEnv['XDG_STATE_HOME'] ?? '';
    for (const file of walk(stateRoot)) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toContain(apiKey);
      expect(text, file).not.toContain(token);
    }
    await vigil(['stop', launchedId(run.events), '--grace', '1s']);
  });

  it('never signals a launch whose host rebooted since', async () => {
    const port = remotePort();
    const up = await numberedUp(port, 1, 5).done;
    expect(up.code, up.stderr).toBe(0);
    const id = launchedId(up.events);
    await host.reboot();
    // After the reboot the same pid may belong to anything: the boot id says it is not the server.
    await host.exec(`setsid sleep 30 >/dev/null 2>&1 &`);
    const stop = await vigil(['stop', id]);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toMatch(/nothing signalled: .*rebooted/);
    const after = JSON.parse((await vigil(['status', id, '--output', 'json'])).stdout) as {
      state: string;
      note?: string;
    }[];
    expect(after[0]).toMatchObject({ state: 'exited', note: expect.stringMatching(/rebooted/) as unknown });
  });
});

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const info = statSync(path);
    return info.isDirectory() ? walk(path) : info.isFile() ? [path] : [];
  });
