import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { runVigil, startVigil } from '../helpers/cli.ts';
import { runMain } from '../helpers/main.ts';
import { serverCommand } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/ports.ts';
import { isAlive, killTrackedSessions, trackSession, waitForAlive } from '../helpers/processes.ts';

afterEach(killTrackedSessions);

const startServer = async (...args: string[]): Promise<number> => {
  const [file, ...rest] = serverCommand(...args);
  const child = spawn(file!, rest, { detached: true, stdio: 'ignore' });
  trackSession(child.pid!);
  child.unref();
  await waitForAlive(child.pid!);
  return child.pid!;
};

// A server that never turns healthy, and vigil wait watching it and its pid.
const watchNeverHealthy = async () => {
  const port = await freePort();
  const pid = await startServer('--port', String(port), '--never-healthy');
  const running = startVigil(['wait', `http://127.0.0.1:${port}`, '--pid', String(pid), '--output', 'jsonl']);
  return { pid, running };
};

describe('vigil wait', () => {
  it('exits 0 once the server is ready', async () => {
    const port = await freePort();
    const pid = await startServer('--port', String(port), '--healthy-after', '300');
    const r = await runVigil([
      'wait',
      `http://127.0.0.1:${port}`,
      '--pid',
      String(pid),
      '--interval',
      '100ms',
      '--output',
      'jsonl',
    ]);
    expect(r.code).toBe(0);
    expect(r.events.at(-1)).toMatchObject({ type: 'ready', url: `http://127.0.0.1:${port}` });
    expect(isAlive(pid)).toBe(true);
  });

  it('exits 3 as soon as the watched process dies', async () => {
    const { pid, running } = await watchNeverHealthy();
    // The server dies once vigil watches it (a timed exit could come before vigil starts on a busy machine).
    await running.waitFor((e) => e.type === 'probe');
    process.kill(pid, 'SIGKILL');
    const r = await running.done;
    expect(r.code).toBe(3);
    expect(r.events.at(-1)).toMatchObject({ type: 'failed', reason: 'exited' });
  });

  it('exits 130 on SIGINT and leaves the server alone', async () => {
    const { pid, running } = await watchNeverHealthy();
    await running.waitFor((e) => e.type === 'probe');
    running.child.kill('SIGINT');
    expect((await running.done).code).toBe(130);
    expect(isAlive(pid)).toBe(true);
  });

  it.each([
    [['http://127.0.0.1:1', '--log-from', 'middle'], /--log-from: expected start or end/],
    [['http://127.0.0.1:1', '--pid', 'abc'], /--pid: expected a process id/],
    [['not-a-url'], /url: expected an http:\/\/ or https:\/\/ URL/],
    [['http://127.0.0.1:1', '--interval', '0s'], /--interval: expected a duration from 1ms to 596h/],
    [['http://127.0.0.1:1', '--heartbeat', '9999h'], /--heartbeat: expected a duration from 1ms to 596h/],
  ])('rejects %j with exit 1', async (args, message) => {
    const r = await runMain(['wait', ...args]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
  });
});
