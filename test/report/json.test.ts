import { describe, expect, it } from 'vitest';
import { EVENT_SCHEMA_VERSION, type VigilEvent } from '../../src/events.ts';
import { createJsonRenderer, createJsonlRenderer } from '../../src/report/json.ts';
import { createRedactor, MASK } from '../../src/redact/redactor.ts';
import { createMemoryStream } from './memory-stream.ts';
import { failed, readyRun, SECRET_KEY, SECRET_TOKEN } from './scripts.ts';

const redact = createRedactor({ argv: ['--api-key', SECRET_KEY], env: { HF_TOKEN: SECRET_TOKEN } });

const renderAll = (events: VigilEvent[], kind: 'jsonl' | 'json') => {
  const stream = createMemoryStream();
  const renderer = (kind === 'jsonl' ? createJsonlRenderer : createJsonRenderer)({ stream, redact });
  for (const event of events) renderer.render(event);
  renderer.close();
  return stream.text();
};

const parseLines = (text: string): Record<string, unknown>[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('jsonl renderer', () => {
  it('prints one JSON object per event, with v, that round-trips to the event', () => {
    const events = readyRun();
    const text = renderAll(events, 'jsonl');
    expect(text.endsWith('\n')).toBe(true);
    const parsed = parseLines(text);
    expect(parsed).toHaveLength(events.length);
    parsed.forEach((object, i) => {
      expect(object['v']).toBe(EVENT_SCHEMA_VERSION);
      const { v: _v, ...rest } = object;
      const original = events[i]!;
      // Only secrets differ from the event that was rendered.
      expect(JSON.parse(redact(JSON.stringify(original))) as unknown).toEqual(rest);
    });
    expect(parsed.at(-1)?.['type']).toBe('ready');
  });

  it('ends with the final event even when more events arrive after it', () => {
    const events: VigilEvent[] = [
      ...readyRun().slice(0, 4),
      failed(),
      { type: 'notice', t: 32_000, code: 'late', message: 'after the end' },
      {
        type: 'probe',
        t: 32_100,
        url: 'http://127.0.0.1:1/health',
        status: null,
        error: 'ECONNREFUSED',
        ms: 1,
        rung: 'spawned',
      },
    ];
    const parsed = parseLines(renderAll(events, 'jsonl'));
    expect(parsed.map((object) => object['type'])).toEqual([
      'preflight',
      'launched',
      'probe',
      'probe',
      'failed',
    ]);
  });

  it('never prints a secret, and stays valid JSON when a secret shape ends a string', () => {
    const events: VigilEvent[] = [
      ...readyRun().slice(0, 5),
      { type: 'log', t: 2000, line: 9, text: 'api_key=unlistedsecret', level: 'info' },
      failed({
        diagnosis: {
          class: 'unknown',
          summary: `bad key ${SECRET_KEY}`,
          evidence: [{ line: 9, text: SECRET_TOKEN }],
          advice: [],
        },
        log_tail: [{ line: 9, text: `HF_TOKEN=${SECRET_TOKEN}` }],
      }),
    ];
    const text = renderAll(events, 'jsonl');
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain(SECRET_TOKEN);
    expect(text).not.toContain('unlistedsecret');
    expect(text).toContain(MASK);
    const parsed = parseLines(text);
    expect(parsed[1]?.['command']).toEqual([
      'python',
      '-m',
      'sglang.launch_server',
      '--api-key',
      MASK,
      '--port',
      '30000',
    ]);
  });
});

describe('json renderer', () => {
  it('prints nothing until close, then exactly one object: the final event', () => {
    const stream = createMemoryStream();
    const renderer = createJsonRenderer({ stream, redact });
    const events = readyRun();
    for (const event of events) renderer.render(event);
    expect(stream.text()).toBe('');
    renderer.close();
    renderer.close();
    const parsed = parseLines(stream.text());
    expect(parsed).toHaveLength(1);
    expect(parsed[0]).toMatchObject({ type: 'ready', elapsed_ms: 131_000, v: EVENT_SCHEMA_VERSION });
  });

  it('uses the preflight report as the result of a command that only checks flags', () => {
    const text = renderAll(
      [{ type: 'preflight', t: 3, status: 'errors', source: null, findings: [] }],
      'json',
    );
    expect(parseLines(text)).toEqual([
      { type: 'preflight', t: 3, status: 'errors', source: null, findings: [], v: EVENT_SCHEMA_VERSION },
    ]);
  });

  it('prints nothing when there was no result', () => {
    expect(renderAll([{ type: 'notice', t: 1, code: 'x', message: 'y' }], 'json')).toBe('');
  });
});
