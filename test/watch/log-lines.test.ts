import { describe, expect, it } from 'vitest';
import { createDiagnoser } from '../../src/diagnose/diagnoser.ts';
import { createStartTracker } from '../../src/diagnose/tracker.ts';
import { getEngine } from '../../src/engines/index.ts';
import type { FollowedLine } from '../../src/logs/follow.ts';
import { createRedactor } from '../../src/redact/redactor.ts';
import { createLineHandler } from '../../src/watch/log-lines.ts';
import type { Emittable } from '../../src/watch/loop.ts';

const SECRET = 'sk-live-0123456789';

const setup = () => {
  const redact = createRedactor({ argv: ['--api-key', SECRET] });
  const events: Emittable[] = [];
  const signals = { progress: 0, ready: 0, probes: 0 };
  const diagnoser = createDiagnoser({ engine: 'sglang', redact });
  const handler = createLineHandler(
    {
      tracker: createStartTracker(getEngine('sglang')),
      diagnoser,
      redact,
      emit: (event) => events.push(event),
    },
    {
      onProgress: () => signals.progress++,
      onReadyLine: () => signals.ready++,
      onProbeTrigger: () => signals.probes++,
    },
    performance.now(),
  );
  return { handler, events, signals, diagnoser };
};

const lines = (from: number, ...texts: string[]): FollowedLine[] =>
  texts.map((text, i) => ({ line: from + i, text }));

describe('createLineHandler', () => {
  it('shows the last line with a message, normalised and redacted', () => {
    const { handler } = setup();
    expect(handler.lastLine).toBeNull();
    handler.handle(lines(1, `[2025-09-11 10:25:43 TP0] using key ${SECRET} now`, ''));
    expect(handler.lastLine).toBe('using key *** now');
    handler.handle(lines(3, '\u001b[32m[2025-09-11 10:25:44 TP0] plain text\u001b[0m'));
    expect(handler.lastLine).toBe('plain text');
  });

  it('keeps the last 20 finished lines as the tail, redacted, without ANSI codes or redraws', () => {
    const { handler } = setup();
    handler.handle(lines(1, ...Array.from({ length: 15 }, (_, i) => `first ${i}`)));
    handler.handle([
      ...lines(16, ...Array.from({ length: 9 }, (_, i) => `second ${i}`)),
      { line: 25, text: 'half a bar\r50%', partial: true },
    ]);
    handler.handle(lines(25, `bar\rdone \u001b[1m${SECRET}\u001b[0m`));
    const tail = handler.tail();
    expect(tail.map((item) => item.line)).toEqual(Array.from({ length: 20 }, (_, i) => i + 6));
    expect(tail.at(-1)?.text).toBe('done ***');
    expect(tail[0]?.text).toBe('first 5');
  });

  it('signals progress for a batch with a message line, not for heartbeats and blank lines', () => {
    const { handler, signals } = setup();
    handler.handle(
      lines(
        1,
        '',
        '[2026-05-22 23:27:33 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=True)',
      ),
    );
    expect(signals.progress).toBe(0);
    handler.handle(lines(3, 'something happened'));
    expect(signals.progress).toBe(1);
  });

  it('emits phases, notable lines (redacted) and the ready line, and feeds the diagnoser', () => {
    const { handler, events, signals, diagnoser } = setup();
    handler.handle(
      lines(
        1,
        '[2025-09-11 10:25:43 TP0] Load weight begin. avail mem=77.43 GB',
        `[2025-09-11 10:25:44 TP0] ValueError: bad key ${SECRET}`,
        '[2025-09-11 10:26:05] The server is fired up and ready to roll!',
      ),
    );
    expect(events.filter((event) => event.type === 'phase').map((event) => event.name)).toEqual([
      'weight-load',
      'ready',
    ]);
    const log = events.find((event) => event.type === 'log' && event.level === 'error');
    expect(log).toMatchObject({ line: 2, text: 'ValueError: bad key ***' });
    expect(signals.ready).toBe(1);
    expect(diagnoser.finish().class).toBe('ready');
  });
});
