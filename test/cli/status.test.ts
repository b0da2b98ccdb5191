import { afterEach, describe, expect, it } from 'vitest';
import { runVigil } from '../helpers/cli.ts';
import { runMain } from '../helpers/main.ts';
import { serverCommand } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/ports.ts';
import { killTrackedSessions, trackSession } from '../helpers/processes.ts';
import { makeStateEnv, removeTempDirs } from '../helpers/temp.ts';

afterEach(async () => {
  await killTrackedSessions();
  await removeTempDirs();
});

describe('vigil status', () => {
  it('says there are no launches yet', async () => {
    const { env } = await makeStateEnv();
    const r = await runMain(['status'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('no launches (vigil up starts one)\n');
  });

  it('lists each launch with its live state, pid, age, URL and log', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    const up = await runVigil(
      ['up', '--output', 'jsonl', '--port', String(port), '--', ...serverCommand('--port', String(port))],
      env,
    );
    const launched = up.events.find((e) => e.type === 'launched');
    if (launched?.type !== 'launched') throw new Error('no launch');
    trackSession(launched.pgid);
    const crashPort = await freePort();
    const crash = await runVigil(
      [
        'up',
        '--output',
        'jsonl',
        '--port',
        String(crashPort),
        '--',
        ...serverCommand('--port', String(crashPort), '--never-healthy', '--exit-after', '200'),
      ],
      env,
    );
    expect(crash.code).toBe(3);

    const plain = await runVigil(['status'], env);
    expect(plain.code).toBe(0);
    const lines = plain.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATE\s+PID\s+AGE\s+URL\s+LOG$/);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${launched.id}\\s+alive, healthy\\s+${launched.pid}\\s+\\S+\\s+http://127\\.0\\.0\\.1:${port}\\s+${launched.log}$`,
      ),
    );
    expect(lines[2]).toMatch(/^generic-\d+-[0-9a-f]{4}\s+exited\s+/);

    const json = await runVigil(['status', '--output', 'json', launched.id.slice(0, -1)], env);
    const rows = JSON.parse(json.stdout) as { id: string; state: string; processes: number[]; url: string }[];
    expect(rows).toEqual([
      expect.objectContaining({
        id: launched.id,
        state: 'alive',
        processes: [launched.pid],
        url: `http://127.0.0.1:${port}`,
      }),
    ]);
  });

  it('rejects an unknown output kind', async () => {
    const { env } = await makeStateEnv();
    const r = await runMain(['status', '--output', 'xml'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--output: expected plain or json/);
  });
});
