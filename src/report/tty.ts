// The terminal renderer: lines that matter scroll above one live status line, redrawn in place at most 10 times
// a second. Hand-written (no log-update): one line, one escape sequence, and output batched per frame.
import { performance } from 'node:perf_hooks';
import type { VigilEvent } from '../events.ts';
import { redactEvent } from '../redact/redactor.ts';
import { renderSegments, statusSegments } from './status-line.ts';
import { createPaint, decideColor, humanLineOptions, linesFor } from './human-lines.ts';
import type { Renderer, RendererOptions } from './types.ts';
import { createWatchState } from './watch-state.ts';

/** Minimum time between two frames (10 Hz). */
export const FRAME_MS = 100;
const DEFAULT_COLUMNS = 80;
// Carriage return, then erase the whole line.
const CLEAR_LINE = '\r\u001b[2K';

// Events of a running watch bring up the status line; a lone preflight report or diagnosis does not.
const startsLive = (event: VigilEvent): boolean =>
  event.type !== 'preflight' &&
  event.type !== 'diagnosis' &&
  event.type !== 'ready' &&
  event.type !== 'failed';

// The tty renderer; colour follows the terminal (NO_COLOR, FORCE_COLOR) unless `color` says otherwise.
export const createTtyRenderer = (options: RendererOptions): Renderer => {
  const { stream, redact } = options;
  const paint = createPaint(decideColor(options, true));
  const state = createWatchState();
  const lineOptions = humanLineOptions(options, paint, true);
  let pending: string[] = [];
  let live = false;
  let shown = false;
  let timer: NodeJS.Timeout | null = null;
  let frame = 0;
  let lastEventAt = performance.now();

  const width = (): number => (stream.columns ?? options.columns ?? DEFAULT_COLUMNS) - 1;
  const elapsed = (): number => state.lastT + (performance.now() - lastEventAt);

  // Writes one frame: erase the status line, print what is pending, draw the status line again.
  const draw = (): void => {
    timer = null;
    let out = shown ? CLEAR_LINE : '';
    out += pending.join('');
    pending = [];
    shown = live;
    if (live) {
      out += redact(renderSegments(statusSegments(state, elapsed(), frame), width(), paint));
      frame++;
      timer = setTimeout(draw, FRAME_MS);
      timer.unref();
    }
    if (out !== '') stream.write(out);
  };

  const stop = (): void => {
    live = false;
    if (timer !== null) clearTimeout(timer);
    draw();
  };

  return {
    render(event) {
      if (state.finished && event.type !== 'ready' && event.type !== 'failed') return;
      const lines = linesFor(redactEvent(event, redact), state, lineOptions);
      lastEventAt = performance.now();
      if (lines.length > 0) pending.push(`${redact(lines.join('\n'))}\n`);
      if (state.finished) {
        stop();
        return;
      }
      if (startsLive(event)) live = true;
      // A frame is drawn now only when none is scheduled, so frames stay FRAME_MS apart; the word that the server
      // exited goes out at once.
      if (event.type === 'exited' && timer !== null) clearTimeout(timer);
      if (timer === null || event.type === 'exited') draw();
    },
    close() {
      stop();
    },
  };
};
