// Colour for the human renderers: `util.styleText` with the on/off decision made once, per stream.
import { styleText } from 'node:util';
import type { RendererOptions } from './types.ts';

export type Tone = 'dim' | 'bold' | 'red' | 'yellow' | 'green' | 'cyan';

/** Styles a piece of text, or returns it unchanged when colour is off (`enabled` says which). */
export type Paint = ((tone: Tone, text: string) => string) & { readonly enabled: boolean };

// Colour is on for a terminal that supports it (the stream's own check honours NO_COLOR and FORCE_COLOR).
export const decideColor = (
  options: Pick<RendererOptions, 'stream' | 'color'>,
  fallback: boolean,
): boolean => {
  if (options.color !== undefined) return options.color;
  if (!fallback || options.stream.isTTY !== true) return false;
  return options.stream.hasColors?.() ?? process.env['NO_COLOR'] === undefined;
};

// Builds the painter; `validateStream: false` because the decision above already looked at the stream.
export const createPaint = (enabled: boolean): Paint =>
  Object.assign(
    enabled
      ? (tone: Tone, text: string) => styleText(tone, text, { validateStream: false })
      : (_tone: Tone, text: string) => text,
    { enabled },
  );
