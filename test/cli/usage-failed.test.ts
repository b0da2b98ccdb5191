// A watch command that stops on bad input still ends its jsonl/json output with a `failed` event (exit 1).
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/main.ts';

const lastEvent = (stdout: string): Record<string, unknown> => {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines.at(-1) ?? '{}') as Record<string, unknown>;
};

describe('usage errors in machine output', () => {
  it.each([
    [
      'an unknown option',
      ['up', '--output', 'jsonl', '--bogus', '--', 'sleep', '1'],
      /unknown option '--bogus'/,
    ],
    ['a missing argument', ['wait', '--output=jsonl'], /missing required argument 'url'/],
    [
      'a bad value',
      ['wait', '--output', 'json', '--interval', '0s', 'http://127.0.0.1:9/health'],
      /--interval/,
    ],
    ['no port to watch', ['up', '--output', 'jsonl', '--', 'sleep', '1'], /which port/],
    ['an unknown launch', ['attach', '--output', 'jsonl', 'no-such-id'], /no-such-id/],
  ])('%s: one clear line on stderr, a final failed event, exit 1', async (_what, argv, message) => {
    const run = await runMain(argv, { ...process.env, XDG_STATE_HOME: '/nonexistent-vigil-state' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(lastEvent(run.stdout)).toMatchObject({ type: 'failed', reason: 'usage', exit_code: 1, v: 2 });
    expect(String(lastEvent(run.stdout)['message'])).toMatch(message);
  });

  it('prints no event in plain output, nor for commands that are not watches', async () => {
    for (const argv of [
      ['up', '--output', 'plain', '--bogus', '--', 'x'],
      ['check', '--output', 'jsonl', '--bogus'],
    ]) {
      const run = await runMain(argv);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
    }
  });
});
