import { describe, expect, it } from 'vitest';
import { createRenderer, defaultOutputKind } from '../../src/report/index.ts';
import { createMemoryStream } from './memory-stream.ts';
import { ready } from './scripts.ts';
import { EVENT_SCHEMA_VERSION } from '../../src/events.ts';

const identity = (text: string): string => text;

describe('createRenderer', () => {
  it('defaults to tty on a terminal and plain elsewhere', () => {
    expect(defaultOutputKind({ isTTY: true })).toBe('tty');
    expect(defaultOutputKind({})).toBe('plain');
  });

  it('builds the renderer for each output kind', async () => {
    const outputs = await Promise.all(
      (['tty', 'plain', 'jsonl', 'json'] as const).map(async (kind) => {
        const stream = createMemoryStream({ columns: 80 });
        const renderer = await createRenderer(kind, { stream, redact: identity, color: false });
        renderer.render(ready());
        renderer.close();
        return stream.text();
      }),
    );
    const [tty, plain, jsonl, json] = outputs;
    expect(tty).toContain('ready after 2m11s — http://127.0.0.1:30000\n');
    expect(plain).toBe('ready after 2m11s — http://127.0.0.1:30000\n');
    expect(JSON.parse(jsonl ?? '')).toMatchObject({ type: 'ready', v: EVENT_SCHEMA_VERSION });
    expect(json).toBe(jsonl);
  });
});
