// Progress bars as tqdm writes them to a file (docs/engines/log-patterns.md): every redraw starts with `\r`, the bar is
// 10 cells wide when there is no terminal, and closing redraws the final state with the overall rate.
// Hand-written: the point is tqdm's exact text, which no JS progress library produces.

export interface BarState {
  desc: string;
  n: number;
  total: number;
  elapsedSeconds: number;
  /** Iterations per second, or null before the first one. */
  rate: number | null;
}

export type BarStyle =
  /** The weight loaders' format: `desc:  50% Completed | 1/2 [04:38<04:38, 278.99s/it]` plus a newline. */
  | 'shards'
  /** tqdm's default: `desc:  25%|██▌       | 1/4 [00:01<00:03,  1.14s/it]`. */
  | 'default';

const CELLS = 10;
const BLOCKS = ' ▏▎▍▌▋▊▉█';

// tqdm's format_interval: `MM:SS`, or `H:MM:SS` past an hour.
export const formatInterval = (seconds: number): string => {
  const total = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  const mm = String(minutes).padStart(2, '0');
  const ss = String(secs).padStart(2, '0');
  return hours > 0 ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
};

const formatRate = (rate: number | null): string => {
  if (rate === null || rate <= 0) return '?it/s';
  return rate >= 1 ? `${rate.toFixed(2).padStart(5)}it/s` : `${(1 / rate).toFixed(2).padStart(5)}s/it`;
};

const formatCells = (fraction: number): string => {
  const eighths = Math.floor(fraction * CELLS * 8);
  const full = Math.min(CELLS, Math.floor(eighths / 8));
  if (full >= CELLS) return '█'.repeat(CELLS);
  return '█'.repeat(full) + (BLOCKS[eighths % 8] ?? ' ') + ' '.repeat(CELLS - full - 1);
};

// Renders one redraw of a bar (without the leading `\r`).
export const formatBar = (style: BarStyle, state: BarState): string => {
  const fraction = state.total > 0 ? Math.min(1, state.n / state.total) : 0;
  const percent = String(Math.round(fraction * 100)).padStart(3);
  const remaining =
    state.rate === null || state.rate <= 0 ? '?' : formatInterval((state.total - state.n) / state.rate);
  const times = `[${formatInterval(state.elapsedSeconds)}<${remaining}, ${formatRate(state.rate)}]`;
  const count = `${state.n}/${state.total}`;
  if (style === 'shards') return `${state.desc}: ${percent}% Completed | ${count} ${times}\n`;
  const label = state.desc === '' ? '' : `${state.desc}: `;
  return `${label}${percent}%|${formatCells(fraction)}| ${count} ${times}`;
};

// Writes one bar's redraws to a stream the way tqdm does, padding over a longer previous redraw.
export class TqdmWriter {
  private readonly started = Date.now();
  private lastAt = this.started;
  private lastN = 0;
  private lastLength = 0;
  private desc: string;
  private n = 0;

  constructor(
    private readonly write: (text: string) => void,
    private readonly style: BarStyle,
    desc: string,
    private readonly total: number,
  ) {
    this.desc = desc;
    this.draw(null);
  }

  // Advances to `n` (optionally renaming the bar, as SGLang's capture bar does per batch size).
  update(n: number, desc?: string): void {
    const now = Date.now();
    const seconds = (now - this.lastAt) / 1000;
    const rate = seconds > 0 ? (n - this.lastN) / seconds : null;
    this.n = n;
    this.lastN = n;
    this.lastAt = now;
    if (desc !== undefined) this.desc = desc;
    this.draw(rate);
  }

  // Redraws the final state with the overall rate and ends the line.
  close(): void {
    const seconds = (Date.now() - this.started) / 1000;
    this.draw(seconds > 0 ? this.n / seconds : null);
    this.write('\n');
  }

  private draw(rate: number | null): void {
    const elapsedSeconds = (Date.now() - this.started) / 1000;
    const text = formatBar(this.style, {
      desc: this.desc,
      n: this.n,
      total: this.total,
      elapsedSeconds,
      rate,
    });
    if (this.style === 'shards') {
      this.write(`\r${text}`);
      return;
    }
    const padding = ' '.repeat(Math.max(0, this.lastLength - text.length));
    this.lastLength = text.length;
    this.write(`\r${text}${padding}`);
  }
}
