import { afterEach, describe, expect, it } from 'vitest';
import { readLaunchRecord } from '../../src/state/records.ts';
import { runVigil } from '../helpers/cli.ts';
import { runMain } from '../helpers/main.ts';
import { serverCommand } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/ports.ts';
import { expectNoProcessLeft, killTrackedSessions, trackSession } from '../helpers/processes.ts';
import { makeStateEnv, removeTempDirs } from '../helpers/temp.ts';

afterEach(async () => {
  await killTrackedSessions();
  await removeTempDirs();
});

const launchReady = async (env: NodeJS.ProcessEnv, ...serverArgs: string[]) => {
  const port = await freePort();
  const up = await runVigil(
    [
      'up',
      '--output',
      'jsonl',
      '--port',
      String(port),
      '--',
      ...serverCommand('--port', String(port), ...serverArgs),
    ],
    env,
  );
  const launched = up.events.find((e) => e.type === 'launched');
  if (launched?.type !== 'launched') throw new Error(`no launch: ${up.stderr}`);
  trackSession(launched.pgid);
  expect(up.code).toBe(0);
  return launched;
};

describe('vigil stop', () => {
  it('stops the whole tree of a launch and verifies it, then says it is already gone', async () => {
    const { env, stateDir } = await makeStateEnv();
    const launched = await launchReady(env, '--child');
    const r = await runVigil(['stop', launched.id], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${launched.id}: stopped 2 processes\n`);
    await expectNoProcessLeft({ sid: launched.pgid }, 1000);
    expect((await readLaunchRecord(stateDir, launched.id)).outcome).toBe('stopped');
    const again = await runVigil(['stop', launched.id], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`${launched.id}: already exited; nothing to stop\n`);
  });

  it('SIGKILLs a server that ignores SIGTERM after --grace', async () => {
    const { env } = await makeStateEnv();
    const launched = await launchReady(env, '--ignore-term');
    const r = await runVigil(['stop', launched.id, '--grace', '300ms'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('SIGKILL was needed');
    await expectNoProcessLeft({ sid: launched.pgid }, 1000);
  });

  it('names the known launches for an unknown id', async () => {
    const { env } = await makeStateEnv();
    const launched = await launchReady(env);
    const r = await runMain(['stop', 'nope'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`vigil: no launch with id nope\n  known launches: ${launched.id}\n`);
  });

  it('rejects a bad --grace', async () => {
    const { env } = await makeStateEnv();
    const r = await runMain(['stop', 'x', '--grace', 'soon'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--grace: expected a duration/);
  });
});
