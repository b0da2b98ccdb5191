// The plain renderer: one timestamped line per meaningful event, no control codes; for pipes, files and CI.
import { linesFor, humanLineOptions } from './human-lines.ts';
import { createPaint } from './style.ts';
import type { Renderer, RendererOptions } from './types.ts';
import { createWatchState } from './watch-state.ts';
import { redactEvent } from '../redact/redactor.ts';

// Plain text never carries colour unless asked for explicitly (`color: true`).
export const createPlainRenderer = (options: RendererOptions): Renderer => {
  const state = createWatchState();
  const lineOptions = humanLineOptions(options, createPaint(options.color === true), false);
  return {
    render(event) {
      const lines = linesFor(redactEvent(event, options.redact), state, lineOptions);
      if (lines.length > 0) options.stream.write(`${options.redact(lines.join('\n'))}\n`);
    },
    close: () => undefined,
  };
};
