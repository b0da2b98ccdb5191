// Picks a renderer for `--output`: tty on a terminal, plain otherwise, jsonl/json for machines.
import { createJsonRenderer, createJsonlRenderer } from './json.ts';
import { createPlainRenderer } from './plain.ts';
import { createTtyRenderer } from './tty.ts';
import type { OutputKind, Renderer, RendererOptions } from './types.ts';

export type { OutputKind, Renderer, RendererOptions } from './types.ts';

export { defaultOutputKind, loadRenderer } from './load.ts';

// Builds the renderer for one command's output stream.
export const createRenderer = (kind: OutputKind, options: RendererOptions): Renderer => {
  switch (kind) {
    case 'tty':
      return createTtyRenderer(options);
    case 'plain':
      return createPlainRenderer(options);
    case 'jsonl':
      return createJsonlRenderer(options);
    case 'json':
      return createJsonRenderer(options);
  }
};
