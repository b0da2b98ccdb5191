// Picks a renderer for `--output`: tty on a terminal, plain otherwise, jsonl/json for machines. Only the renderer an
// output needs is loaded: `--output jsonl` and `json`, what scripts use, then never load the human renderers and
// the formatters they borrow from flags and diagnose.
import type { OutputKind, Renderer, RendererOptions } from './types.ts';

export type { OutputKind, Renderer, RendererOptions } from './types.ts';

// tty on a terminal, else plain (docs/cli.md, output).
export const defaultOutputKind = (stream: { isTTY?: boolean }): OutputKind =>
  stream.isTTY === true ? 'tty' : 'plain';

// Builds the renderer for one command's output stream, importing its module on first use.
export const createRenderer = async (kind: OutputKind, options: RendererOptions): Promise<Renderer> => {
  switch (kind) {
    case 'tty':
      return (await import('./tty.ts')).createTtyRenderer(options);
    case 'plain':
      return (await import('./human-lines.ts')).createPlainRenderer(options);
    case 'jsonl':
      return (await import('./json.ts')).createJsonlRenderer(options);
    case 'json':
      return (await import('./json.ts')).createJsonRenderer(options);
  }
};
