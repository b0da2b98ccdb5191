import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { listLaunchRecords } from '../../src/state/records.ts';
import type { VigilEvent } from '../../src/events.ts';
import { runVigil, startVigil, type VigilRun } from '../helpers/cli.ts';
import { runMain } from '../helpers/main.ts';
import { Writable } from 'node:stream';
import { main } from '../../src/cli/main.ts';
import { ensureBuilt, VIGIL_BIN } from '../helpers/build.ts';
import { serverCommand } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/ports.ts';
import { expectNoProcessLeft, isAlive, killTrackedSessions, trackSession } from '../helpers/processes.ts';
import { makeStateEnv, removeTempDirs } from '../helpers/temp.ts';

const servers: Server[] = [];
afterEach(async () => {
  await killTrackedSessions();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  await removeTempDirs();
});

const launchedOf = (events: readonly VigilEvent[]) => {
  const launched = events.find((e) => e.type === 'launched');
  if (launched?.type !== 'launched') throw new Error(`no launched event in ${JSON.stringify(events)}`);
  trackSession(launched.pgid);
  return launched;
};

// Tracks every session recorded in the state dir (for runs with human output).
const trackRecorded = async (stateDir: string): Promise<void> => {
  for (const record of await listLaunchRecords(stateDir)) trackSession(record.sid);
};

const up = async (args: string[], env: NodeJS.ProcessEnv): Promise<VigilRun> => {
  const result = await runVigil(['up', ...args], env);
  for (const event of result.events) if (event.type === 'launched') trackSession(event.pgid);
  return result;
};

describe('vigil up', () => {
  it('ends with a ready event and exit 0, and leaves the server running (jsonl)', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    const r = await up(
      [
        '--output',
        'jsonl',
        '--port',
        String(port),
        '--interval',
        '100ms',
        '--',
        ...serverCommand('--port', String(port), '--healthy-after', '300'),
      ],
      env,
    );
    expect(r.code).toBe(0);
    expect(r.events.at(-1)).toMatchObject({ type: 'ready', url: `http://127.0.0.1:${port}` });
    expect(
      r.stdout
        .trim()
        .split('\n')
        .every((line) => JSON.parse(line) !== null),
    ).toBe(true);
    expect(isAlive(launchedOf(r.events).pid)).toBe(true);
  });

  it('prints how to stop the server and how long the start took (plain)', async () => {
    const { env, stateDir } = await makeStateEnv();
    const port = await freePort();
    const r = await up(
      ['--output', 'plain', '--port', String(port), '--', ...serverCommand('--port', String(port))],
      env,
    );
    await trackRecorded(stateDir);
    expect(r.code).toBe(0);
    const [record] = await listLaunchRecords(stateDir);
    expect(r.stdout).toContain(`vigil stop ${record!.id}`);
    expect(r.stdout).toMatch(/ready after/);
  });

  it('exits 3 on a crash and stops what is left of the server', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    const r = await up(
      [
        '--output',
        'jsonl',
        '--port',
        String(port),
        '--',
        ...serverCommand(
          '--port',
          String(port),
          '--never-healthy',
          '--child',
          '--exit-after',
          '300',
          '--exit-code',
          '7',
        ),
      ],
      env,
    );
    expect(r.code).toBe(3);
    expect(r.events.at(-1)).toMatchObject({ type: 'failed', reason: 'exited', server_exit_code: 7 });
    await expectNoProcessLeft({ sid: launchedOf(r.events).pgid });
  });

  it('exits 4 on a timeout', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    const r = await up(
      [
        '--output',
        'jsonl',
        '--port',
        String(port),
        '--timeout',
        '1s',
        '--',
        ...serverCommand('--port', String(port), '--never-healthy'),
      ],
      env,
    );
    expect(r.code).toBe(4);
    await expectNoProcessLeft({ sid: launchedOf(r.events).pgid });
  });

  it('exits 2 when the port is taken, naming the holder', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port }, resolve));
    const r = await up(
      ['--output', 'plain', '--port', String(port), '--', ...serverCommand('--port', String(port))],
      env,
    );
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain(`pid ${process.pid}`);
  });

  it('masks the API key and *_TOKEN values in the log lines it echoes', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    const r = await up(
      [
        '--output',
        'plain',
        '--port',
        String(port),
        '--env',
        'MY_TOKEN=tok-very-secret-1',
        '--',
        ...serverCommand(
          '--port',
          String(port),
          '--never-healthy',
          '--say',
          'key sk-abcdef-99 and tok-very-secret-1',
          '--exit-after',
          '300',
          '--api-key',
          'sk-abcdef-99',
        ),
      ],
      env,
    );
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('key *** and ***');
    expect(r.stdout + r.stderr).not.toContain('sk-abcdef-99');
    expect(r.stdout + r.stderr).not.toContain('tok-very-secret-1');
  });

  it.each([
    [['--', 'sleep', '1'], /cannot tell which port/],
    [['--port', '8000', 'sleep', '1'], /put the server command after --/],
    [
      ['--port', '8000', '--timeout', '5', '--', 'sleep', '1'],
      /--timeout: expected a duration.*\n.*add a unit, e\.g\. 5s/,
    ],
    [['--port', '70000', '--', 'sleep', '1'], /--port: expected a port number from 1 to 65535, got "70000"/],
    [
      ['--port', '8000', '--success-threshold', '0', '--', 'sleep', '1'],
      /--success-threshold: expected a whole number of 1 or more/,
    ],
    [
      ['--port', '8000', '--expect-status', '2xx', '--', 'sleep', '1'],
      /--expect-status: expected a comma list of HTTP statuses/,
    ],
    [
      ['--port', '8000', '--output', 'yaml', '--', 'sleep', '1'],
      /--output: expected one of tty, plain, jsonl, json/,
    ],
    [['--port', '8000', '--env', 'VIGIL_SURELY_UNSET', '--', 'sleep', '1'], /VIGIL_SURELY_UNSET is not set/],
    [
      ['--port', '8000', '--engine', 'sglangg', '--', 'sleep', '1'],
      /--engine: expected one of auto, sglang, vllm, tgi, generic, got "sglangg"/,
    ],
    [['--port', '0', '--', 'sleep', '1'], /--port: expected a port number from 1 to 65535, got "0"/],
    [
      ['--port', '8000', '--probe-timeout', '9999h', '--', 'sleep', '1'],
      /--probe-timeout: expected a duration from 1ms to 596h.*got "9999h"\n.*a timer holds at most 596h/,
    ],
    [
      ['--port', '8000', '--interval', '600h', '--', 'sleep', '1'],
      /--interval: expected a duration from 1ms to 596h.*got "600h"/,
    ],
    [
      ['--port', '8000', '--grace', '597h', '--', 'sleep', '1'],
      /--grace: expected a duration from 0s to 596h/,
    ],
    [['--port', '8000', '--timeout', '0s', '--', 'sleep', '1'], /--timeout: expected a duration from 1ms/],
  ])('rejects %j with exit 1 before launching anything', async (args, message) => {
    const { env, stateDir } = await makeStateEnv();
    const r = await runMain(['up', ...args], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(await listLaunchRecords(stateDir)).toEqual([]);
  });

  it('refuses a command that cannot run as a preflight failure (exit 2) before launching anything', async () => {
    const { env, stateDir } = await makeStateEnv();
    const r = await runMain(['up', '--port', '8000', '--output', 'plain', '--', 'vigil-no-such-binary'], env);
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/cannot run the server: vigil-no-such-binary: command not found/);
    expect(await listLaunchRecords(stateDir)).toEqual([]);
  });
});

describe('vigil up: server commands refused before launch (exit 2)', () => {
  const sim = ['vigil', 'sim', 'sglang', '--', '--model-path', 'm'];
  it.each([
    [
      ['--offline', '--', ...sim, '--port', '0'],
      /the server command's --port 0 is not a port from 1 to 65535/,
    ],
    [
      ['--no-preflight', '--', ...sim, '--port', '70000'],
      /the server command's --port 70000 is not a port from 1 to 65535/,
    ],
  ])('refuses %j', async (args, message) => {
    const { env, stateDir } = await makeStateEnv();
    const r = await runMain(['up', ...args], env);
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(message);
    expect(await listLaunchRecords(stateDir)).toEqual([]);
  });

  it('vigil check reports the port as an error finding', async () => {
    const r = await runMain([
      'check',
      '--offline',
      '--',
      'python',
      '-m',
      'sglang.launch_server',
      '--port',
      '0',
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/error\[invalid-value\]: --port must be a port from 1 to 65535, got 0/);
  });

  it('refuses a --config file over 1 MiB without parsing it', async () => {
    const { dir, env, stateDir } = await makeStateEnv();
    const config = join(dir, 'serve.yaml');
    // 2 MiB of valid YAML: a mapping with one long list.
    await writeFile(config, `tp-size: 1\nlist:\n${'  - 1234567\n'.repeat(200_000)}`);
    const r = await runMain(['up', '--offline', '--output', 'plain', '--', ...sim, '--config', config], env);
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(
      /--config .*serve\.yaml cannot be read where the server runs \(it is 2\.\d MiB, .*at most 1 MiB\)/,
    );
    expect(await listLaunchRecords(stateDir)).toEqual([]);
  });
});

describe('vigil up: acceptance', () => {
  it('runs the simulator to a ready event and exit 0', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    const r = await up(
      [
        '--output',
        'jsonl',
        '--',
        'vigil',
        'sim',
        'sglang',
        '--',
        '--model-path',
        'm',
        '--port',
        String(port),
      ],
      { ...env, VIGIL_SIM_TIME_SCALE: '0.002' },
    );
    expect(r.code).toBe(0);
    expect(r.events.at(-1)).toMatchObject({ type: 'ready', url: `http://127.0.0.1:${port}` });
  });

  it('reads the port and API key from a --config file, and never prints the key', async () => {
    const { env, dir } = await makeStateEnv();
    const port = await freePort();
    const config = join(dir, 'serve.yaml');
    await writeFile(config, `model-path: org/model\nport: ${String(port)}\napi-key: sk-in-the-file-42\n`);
    const r = await up(['--output', 'jsonl', '--', 'vigil', 'sim', 'sglang', '--', '--config', config], {
      ...env,
      VIGIL_SIM_TIME_SCALE: '0.002',
    });
    expect(r.code).toBe(0);
    expect(r.events.at(-1)).toMatchObject({ type: 'ready', url: `http://127.0.0.1:${port}` });
    expect(r.stdout + r.stderr).not.toContain('sk-in-the-file-42');
  });

  it('a simulated cuda-oom@graph-capture ends failed (exited, 3) with the log tail, and nothing is left', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    const r = await up(
      [
        '--output',
        'jsonl',
        '--',
        'vigil',
        'sim',
        'sglang',
        '--',
        '--model-path',
        'm',
        '--port',
        String(port),
      ],
      { ...env, VIGIL_SIM_TIME_SCALE: '0.002', VIGIL_SIM_FAIL: 'cuda-oom@graph-capture' },
    );
    expect(r.code).toBe(3);
    const failed = r.events.at(-1);
    expect(failed).toMatchObject({ type: 'failed', reason: 'exited', exit_code: 3 });
    expect(failed?.type === 'failed' && failed.diagnosis.evidence.length > 0).toBe(true);
    await expectNoProcessLeft({ sid: launchedOf(r.events).pgid });
  });

  it('--engine sglang --url --log on an arbitrary command: ready (0) and kept, or failed (3) and stopped', async () => {
    const { env, dir } = await makeStateEnv();
    const port = await freePort();
    const log = `${dir}/server.log`;
    const args = [
      '--engine',
      'sglang',
      '--url',
      `http://127.0.0.1:${port}`,
      '--log',
      log,
      '--output',
      'jsonl',
      '--',
    ];
    const ready = await up(
      [...args, ...serverCommand('--port', String(port), '--ready-line-after', '300')],
      env,
    );
    expect(ready.code).toBe(0);
    expect(ready.events.at(-1)?.type).toBe('ready');
    expect(isAlive(launchedOf(ready.events).pid)).toBe(true);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(log, 'utf8')).toContain('The server is fired up and ready to roll!');

    const otherPort = await freePort();
    const crash = await up(
      [
        '--engine',
        'sglang',
        '--url',
        `http://127.0.0.1:${otherPort}`,
        '--log',
        log,
        '--output',
        'jsonl',
        '--',
        ...serverCommand('--port', String(otherPort), '--child', '--exit-after', '300'),
      ],
      env,
    );
    expect(crash.code).toBe(3);
    expect(crash.events.at(-1)?.type).toBe('failed');
    await expectNoProcessLeft({ sid: launchedOf(crash.events).pgid });
  });
});

describe('vigil up: output', () => {
  it('hands all of its output to a slow reader before it exits', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    ensureBuilt();
    const noisy = 'for i in $(seq 1 3000); do echo "ERROR: failure number $i"; done; exit 1';
    const args = [
      'up',
      '--output',
      'jsonl',
      '--engine',
      'generic',
      '--port',
      String(port),
      '--',
      'sh',
      '-c',
      noisy,
    ];
    const child = spawn(process.execPath, [VIGIL_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    // Nothing is read for a while: the output (about 300 kB) outgrows the pipe, so vigil has to wait for it.
    child.stdout.pause();
    await sleep(500);
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stdout.resume();
    const code = await closed;
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as VigilEvent);
    launchedOf(events);
    expect(code).toBe(3);
    expect(events.filter((e) => e.type === 'log')).toHaveLength(3000);
    expect(events.at(-1)).toMatchObject({ type: 'failed', reason: 'exited' });
  });
});

describe('vigil up: output failures', () => {
  it('stops the server when the reader of its output goes away (EPIPE), instead of orphaning it', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    ensureBuilt();
    const args = ['up', '--output', 'jsonl', '--port', String(port), '--interval', '50ms', '--'];
    const server = serverCommand('--port', String(port), '--never-healthy', '--child');
    const child = spawn(process.execPath, [VIGIL_BIN, ...args, ...server], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    // Read up to the launched event, then close the pipe, as `| head` does.
    let stdout = '';
    const launched = await new Promise<VigilEvent>((resolve) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const line = stdout.split('\n').find((l) => l.includes('"type":"launched"'));
        if (line !== undefined) resolve(JSON.parse(line) as VigilEvent);
      });
    });
    child.stdout.destroy();
    const { pgid } = launchedOf([launched]);
    expect(await closed).toBe(1);
    expect(stderr).toContain('cannot write the output');
    await expectNoProcessLeft({ sid: pgid });
  });

  it('stops the server when its output cannot be written, instead of orphaning it', async () => {
    const { env, stateDir } = await makeStateEnv();
    const port = await freePort();
    // A stdout that fails on the first write after the launch, as a closed pipe would.
    let writes = 0;
    const stdout = new Writable({
      write(_chunk, _encoding, callback) {
        callback();
      },
    });
    stdout.write = (): boolean => {
      writes++;
      if (writes > 2) throw new Error('EPIPE: the reader went away');
      return true;
    };
    const stderr = new Writable({
      write(_chunk, _encoding, callback) {
        callback();
      },
    });
    const code = await main(
      [
        'up',
        '--output',
        'plain',
        '--port',
        String(port),
        '--',
        ...serverCommand('--port', String(port), '--never-healthy', '--child'),
      ],
      { stdout, stderr, env, debug: false },
    );
    expect(code).toBe(1);
    const [record] = await listLaunchRecords(stateDir);
    trackSession(record!.sid);
    await expectNoProcessLeft({ sid: record!.sid });
    expect(record!.outcome).toBe('failed');
  });
});

describe('vigil up: interrupts', () => {
  const startUp = async (extra: string[], serverArgs: string[]) => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    const running = startVigil(
      [
        'up',
        '--output',
        'jsonl',
        '--port',
        String(port),
        ...extra,
        '--',
        ...serverCommand('--port', String(port), ...serverArgs),
      ],
      env,
    );
    const launched = await running.waitFor((e) => e.type === 'launched');
    if (launched.type !== 'launched') throw new Error('unreachable');
    trackSession(launched.pgid);
    await running.waitFor((e) => e.type === 'probe');
    return { running, launched };
  };

  it('SIGINT exits 130 and stops the server', async () => {
    const { running, launched } = await startUp([], ['--never-healthy', '--child']);
    running.child.kill('SIGINT');
    const r = await running.done;
    expect(r.code).toBe(130);
    expect(r.events.at(-1)).toMatchObject({ type: 'failed', reason: 'interrupted', kept_running: false });
    await expectNoProcessLeft({ sid: launched.pgid });
  });

  it('SIGTERM does the same', async () => {
    const { running, launched } = await startUp([], ['--never-healthy']);
    running.child.kill('SIGTERM');
    expect((await running.done).code).toBe(130);
    await expectNoProcessLeft({ sid: launched.pgid });
  });

  it('--detach-on-interrupt leaves the server running', async () => {
    const { running, launched } = await startUp(['--detach-on-interrupt'], ['--never-healthy']);
    running.child.kill('SIGINT');
    const r = await running.done;
    expect(r.code).toBe(130);
    expect(r.events.at(-1)).toMatchObject({ kept_running: true });
    expect(isAlive(launched.pid)).toBe(true);
  });

  it('a second SIGINT skips the grace period', async () => {
    const { running, launched } = await startUp(['--grace', '60s'], ['--never-healthy', '--ignore-term']);
    running.child.kill('SIGINT');
    await running.waitFor((e) => e.type === 'notice' && e.code === 'stopping');
    const started = Date.now();
    running.child.kill('SIGINT');
    const r = await running.done;
    expect(r.code).toBe(130);
    expect(Date.now() - started).toBeLessThan(30_000);
    await expectNoProcessLeft({ sid: launched.pgid });
  });
});
