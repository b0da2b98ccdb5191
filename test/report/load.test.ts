import { describe, expect, it } from 'vitest';
import { createRenderer } from '../../src/report/index.ts';
import { defaultOutputKind, loadRenderer } from '../../src/report/load.ts';
import { createMemoryStream } from './memory-stream.ts';
import { ready } from './scripts.ts';

const identity = (text: string): string => text;

describe('loadRenderer', () => {
  it('defaults to tty on a terminal and plain elsewhere', () => {
    expect(defaultOutputKind({ isTTY: true })).toBe('tty');
    expect(defaultOutputKind({ isTTY: false })).toBe('plain');
  });

  it('loads the renderer of each output kind, printing what createRenderer prints', async () => {
    for (const kind of ['tty', 'plain', 'jsonl', 'json'] as const) {
      const loadedStream = createMemoryStream({ columns: 80 });
      const loaded = await loadRenderer(kind, { stream: loadedStream, redact: identity, color: false });
      const builtStream = createMemoryStream({ columns: 80 });
      const built = createRenderer(kind, { stream: builtStream, redact: identity, color: false });
      for (const renderer of [loaded, built]) {
        renderer.render(ready());
        renderer.close();
      }
      expect(loadedStream.text()).toContain('http://127.0.0.1:30000');
      expect(loadedStream.text()).toBe(builtStream.text());
    }
  });
});
