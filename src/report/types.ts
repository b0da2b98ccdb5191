// The renderers' contract: the only code that writes to the terminal.
import type { Writable } from 'node:stream';
import type { VigilEvent } from '../events.ts';

export type OutputKind = 'tty' | 'plain' | 'jsonl' | 'json';

export interface RendererOptions {
  stream: Writable & { isTTY?: boolean; columns?: number };
  /** Every printed string passes this (the launch's redactor). */
  redact: (text: string) => string;
  /** Colour; defaults to on for a TTY unless NO_COLOR is set. */
  color?: boolean;
  /** What the command is, for wording: `up`, `wait`, `check`, `diagnose`. */
  command?: string;
}

export interface Renderer {
  render(event: VigilEvent): void;
  /** Flushes and clears any live status line. */
  close(): void;
}
