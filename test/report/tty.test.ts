import { stripVTControlCharacters } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { VigilEvent } from '../../src/events.ts';
import { createTtyRenderer, FRAME_MS } from '../../src/report/tty.ts';
import type { Renderer } from '../../src/report/types.ts';
import { createRedactor } from '../../src/redact/redactor.ts';
import { createMemoryStream, type MemoryStream } from './memory-stream.ts';
import { failed, launched, readyRun, SECRET_KEY, SECRET_TOKEN } from './scripts.ts';

const redact = createRedactor({ argv: ['--api-key', SECRET_KEY], env: { HF_TOKEN: SECRET_TOKEN } });
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[\d+(;\d+)*m/;

const open: Renderer[] = [];
afterEach(() => {
  for (const renderer of open.splice(0)) renderer.close();
});

const tty = (
  columns = 80,
  color?: boolean,
): { stream: MemoryStream; renderer: Renderer; times: number[] } => {
  const stream = createMemoryStream({ columns });
  const times: number[] = [];
  const write = stream.write.bind(stream);
  stream.write = ((chunk: string) => {
    times.push(performance.now());
    return write(chunk);
  }) as typeof stream.write;
  const renderer = createTtyRenderer({ stream, redact, ...(color === undefined ? {} : { color }) });
  open.push(renderer);
  return { stream, renderer, times };
};

// The status line a frame leaves on screen: the text after its last newline, without escape codes.
const statusOf = (chunk: string): string =>
  stripVTControlCharacters(chunk.slice(chunk.lastIndexOf('\n') + 1)).replaceAll('\r', '');

describe('tty renderer', () => {
  it('prints the exited line at once, above the status line', () => {
    const { stream, renderer } = tty();
    renderer.render(launched());
    renderer.render({
      type: 'exited',
      t: 31_010,
      server_exit_code: 1,
      server_signal: null,
      elapsed_ms: 31_000,
    });
    expect(stripVTControlCharacters(stream.text())).toContain('server exited (code 1) after 31s');
  });

  it('redraws at most every FRAME_MS however fast events come, and loses no line', async () => {
    const { stream, renderer, times } = tty();
    renderer.render(launched());
    const started = performance.now();
    for (let i = 0; i < 120; i++) {
      renderer.render({ type: 'log', t: 100 + i, line: i + 1, text: `line number ${i}`, level: 'info' });
      await delay(5);
    }
    const spent = performance.now() - started;
    renderer.close();
    // Frames are FRAME_MS apart (timers never fire early by more than a millisecond).
    for (let i = 1; i < times.length - 1; i++)
      expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(FRAME_MS - 2);
    expect(times.length).toBeLessThanOrEqual(spent / FRAME_MS + 3);
    expect(times.length).toBeGreaterThanOrEqual(3);
    const text = stream.text();
    for (let i = 0; i < 120; i++) expect(text).toContain(`line number ${i}\n`);
  });

  it('keeps the status line within the terminal width', async () => {
    const { stream, renderer } = tty(32);
    renderer.render(launched());
    renderer.render({
      type: 'phase',
      t: 100,
      name: 'draft-graph-capture',
      progress: { done: 17, total: 52 },
      previous: null,
    });
    renderer.render({
      type: 'probe',
      t: 200,
      url: 'http://127.0.0.1:30000/health',
      status: null,
      error: 'ECONNREFUSED 127.0.0.1:30000',
      ms: 3,
      rung: 'spawned',
    });
    await delay(FRAME_MS * 3);
    const statuses = stream.chunks.map(statusOf).filter((line) => line !== '');
    expect(statuses.length).toBeGreaterThanOrEqual(2);
    for (const line of statuses) expect(Array.from(line).length).toBeLessThanOrEqual(31);
    const last = statuses.at(-1) ?? '';
    expect(last).toMatch(/^. \d+m?s · spawned · draft-/u);
    expect(last.endsWith('…')).toBe(true);
    expect(Array.from(last)).toHaveLength(31);
  });

  it('shows rung, phase with progress, ETA and the last probe in the status line', async () => {
    const { stream, renderer } = tty(120);
    renderer.render(launched());
    renderer.render({
      type: 'phase',
      t: 2000,
      name: 'weight-load',
      progress: { done: 3, total: 18 },
      previous: null,
      eta: { ms: 90_000, basis: '3 earlier starts' },
    });
    renderer.render({
      type: 'probe',
      t: 2100,
      url: 'http://127.0.0.1:30000/health',
      status: 503,
      error: null,
      ms: 3,
      rung: 'http-up',
    });
    await delay(FRAME_MS * 2);
    const line =
      stream.chunks
        .map(statusOf)
        .filter((status) => status !== '')
        .at(-1) ?? '';
    expect(line).toMatch(/^. \d+s · http-up · weight-load 3\/18 · ETA 1m[0-3]\ds · probe 503$/u);
  });

  it('prints phase changes with the time spent before, and notices, above the status line', () => {
    const { stream, renderer } = tty(120, false);
    for (const event of readyRun()) renderer.render(event);
    const text = stripVTControlCharacters(stream.text());
    expect(text).toContain('[1m01s] phase graph-capture (weight-load took 59s)\n');
    expect(text).toContain('note: health answers 200; waiting for the ready line\n');
    expect(text).toContain('stop with: vigil stop l-7f3a\n');
    // Heartbeats and single probes live in the status line only.
    expect(text).not.toContain('still starting');
    expect(text).not.toContain('→ 503');
  });

  it('ends with the verdict, clears the status line and draws nothing after it', async () => {
    const { stream, renderer } = tty(120, false);
    for (const event of readyRun()) renderer.render(event);
    const count = stream.chunks.length;
    const last = stream.chunks.at(-1) ?? '';
    expect(last.startsWith('\r\u001b[2K')).toBe(true);
    expect(last.endsWith('ready after 2m11s — http://127.0.0.1:30000\nstop with: vigil stop l-7f3a\n')).toBe(
      true,
    );
    await delay(FRAME_MS * 3);
    expect(stream.chunks.length).toBe(count);
  });

  it('shows a crash with its log tail and diagnosis', () => {
    const { stream, renderer } = tty(120, false);
    renderer.render(launched());
    renderer.render(failed({ server_exit_code: null, server_signal: 'SIGKILL' }));
    const text = stripVTControlCharacters(stream.text());
    expect(text).toContain('crashed after 31s (signal SIGKILL)\nlast 2 lines of /tmp/vigil/l-7f3a.log:\n');
    expect(text).toContain('cuda-oom');
  });

  it('clears the status line on close', () => {
    const { stream, renderer } = tty(120);
    renderer.render(launched());
    renderer.close();
    expect(stream.chunks.at(-1)).toBe('\r\u001b[2K');
  });

  it('colours only when asked or when the terminal supports it', () => {
    const coloured = tty(120, true);
    for (const event of readyRun()) coloured.renderer.render(event);
    expect(coloured.stream.text()).toMatch(SGR);

    const plain = tty(120, false);
    for (const event of readyRun()) plain.renderer.render(event);
    expect(plain.stream.text()).not.toMatch(SGR);

    for (const supported of [true, false]) {
      const stream = Object.assign(createMemoryStream({ columns: 80 }), { hasColors: () => supported });
      const renderer = createTtyRenderer({ stream, redact });
      for (const event of readyRun()) renderer.render(event);
      expect(SGR.test(stream.text())).toBe(supported);
    }
  });

  it('never prints a secret', () => {
    const { stream, renderer } = tty(120, true);
    const events: VigilEvent[] = [
      ...readyRun().slice(0, -1),
      failed({ log_tail: [{ line: 3, text: `--api-key ${SECRET_KEY}` }] }),
    ];
    for (const event of events) renderer.render(event);
    expect(stream.text()).not.toContain(SECRET_KEY);
    expect(stream.text()).not.toContain(SECRET_TOKEN);
  });
});
