// The renderers' contract: the only code that writes to the terminal.
import type { Writable } from 'node:stream';
import type { VigilEvent } from '../events.ts';

export type OutputKind = 'tty' | 'plain' | 'jsonl' | 'json';

export interface RendererOptions {
  stream: Writable & { isTTY?: boolean; columns?: number; hasColors?: () => boolean };
  /** Every printed string passes this (the launch's redactor). */
  redact: (text: string) => string;
  /** Colour; tty defaults to what the terminal supports (NO_COLOR, FORCE_COLOR), plain to none. */
  color?: boolean;
  /** What the command is, for wording: `up`, `wait`, `check`, `diagnose`. */
  command?: string;
  /** The server command (argv), for marking bad arguments in preflight findings. */
  serverCommand?: readonly string[];
  /** `--stall-timeout` in ms, for the wording of stall and timeout endings. */
  stallTimeoutMs?: number;
  /** tty only: terminal width when the stream does not report one (default 80). */
  columns?: number;
}

export interface Renderer {
  render(event: VigilEvent): void;
  /** Flushes and clears any live status line. */
  close(): void;
}
