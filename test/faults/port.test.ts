// Fault suite, one server per port: a vigil launch still loading (its port not open yet) blocks a second start on
// the same port, and two starts at the same instant cannot both pass (a lock per host and port,
// test/state/port-lock.test.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { VigilEvent } from '../../src/events.ts';
import { runVigil, startVigil } from '../helpers/cli.ts';
import { serverCommand } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/ports.ts';
import { killTrackedSessions, trackSession } from '../helpers/processes.ts';
import { makeStateEnv, removeTempDirs } from '../helpers/temp.ts';
import { buildOnce, expectEnding, stopSampling } from './helpers.ts';

beforeAll(buildOnce, 300_000);
afterAll(stopSampling);

afterEach(async () => {
  await killTrackedSessions();
  await removeTempDirs();
});

// A server that opens its port only after a long "load", as SGLang does after graph capture.
const slowArgs = (port: number): string[] => [
  'up',
  '--output',
  'jsonl',
  '--no-preflight',
  '--port',
  String(port),
  '--timeout',
  '30s',
  '--',
  ...serverCommand('--port', String(port), '--listen-after', '20000'),
];

const launchedIn = (events: readonly VigilEvent[]) => {
  const launched = events.find((e) => e.type === 'launched');
  if (launched?.type === 'launched') trackSession(launched.pgid);
  return launched?.type === 'launched' ? launched : null;
};

describe('one server per port', () => {
  it('refuses a second start while the first is still loading, naming it', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    const first = startVigil(slowArgs(port), env);
    const launched = await first.waitFor((e) => e.type === 'launched', 20_000);
    if (launched.type === 'launched') trackSession(launched.pgid);
    const second = await runVigil(slowArgs(port), env, 15_000);
    launchedIn(second.events);
    expectEnding(second, {
      code: 2,
      message: new RegExp(`port ${port} .*vigil launch ${launched.type === 'launched' ? launched.id : ''}`),
    });
    const failed = second.events.at(-1);
    expect(failed?.type === 'failed' && failed.diagnosis.class).toBe('port-in-use');
    const advice = failed?.type === 'failed' ? failed.diagnosis.advice.join('\n') : '';
    expect(advice).toMatch(/vigil wait/);
    expect(advice).toMatch(/vigil stop /);
    expect(advice).toMatch(/--replace/);
    expect(second.events.some((e) => e.type === 'launched')).toBe(false);
    first.child.kill('SIGTERM');
    await first.done;
  });

  it('lets only one of two simultaneous starts on a port launch', async () => {
    const { env } = await makeStateEnv();
    const port = await freePort();
    const a = startVigil(slowArgs(port), env);
    const b = startVigil(slowArgs(port), env);
    const loser = await Promise.race([a.done.then(() => a), b.done.then(() => b)]);
    const winner = loser === a ? b : a;
    const lost = await loser.done;
    launchedIn(lost.events);
    expectEnding(lost, { code: 2, message: /port .* (vigil launch|is being started)/ });
    await winner.waitFor((e) => e.type === 'launched', 20_000);
    launchedIn(winner.events);
    winner.child.kill('SIGTERM');
    await winner.done;
  });
});
