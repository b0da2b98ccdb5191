// Picks and builds a renderer. (Minimal version: tty and plain print lines; jsonl prints events.)
import { EVENT_SCHEMA_VERSION } from '../events.ts';
import type { OutputKind, Renderer, RendererOptions } from './types.ts';

// tty on a terminal, else plain (DESIGN.md `--output`).
export const defaultOutputKind = (stream: { isTTY?: boolean }): OutputKind => (stream.isTTY === true ? 'tty' : 'plain');

export const createRenderer = (kind: OutputKind, options: RendererOptions): Renderer => {
  const { stream, redact } = options;
  if (kind === 'jsonl' || kind === 'json') {
    return {
      render: (event) => stream.write(`${redact(JSON.stringify({ ...event, v: EVENT_SCHEMA_VERSION }))}\n`),
      close: () => undefined,
    };
  }
  return {
    render: (event) => stream.write(`${redact(`${event.type} ${JSON.stringify(event)}`)}\n`),
    close: () => undefined,
  };
};
