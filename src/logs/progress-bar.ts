// tqdm progress bars (`Loading safetensors checkpoint shards:  50% Completed | 1/2 [04:38<04:38, 278.99s/it]`,
// `Capturing batches (bs=1 avail_mem=10.28 GB): 100%|██████████| 23/23 [00:16<00:00,  1.42it/s]`).

/** A progress bar's state: what it counts and how far it got. */
export interface ProgressBar {
  /** The text before the percentage, without its colon (empty for unlabelled bars). */
  label: string;
  done: number;
  total: number;
}

export interface BarSplit {
  bar: ProgressBar;
  /** The bar as printed (label, percentage, counts, rate). */
  text: string;
  /** Whatever was printed after the bar on the same physical line (tqdm writes no newline before the next log line). */
  rest: string;
}

// The percentage, then either tqdm's `|███|` block or SGLang's ` Completed |`, then `x/y [elapsed<remaining, rate]`.
const BAR = /(\d{1,3})%(?:\|[^|]*\||\s+Completed\s*\|)\s*(\d+)\/(\d+)\s*(?:\[[^\]]*\])?/;

// Finds a progress bar at the start of a (prefix-free) line and splits off a log line joined after it.
export const splitProgressBar = (text: string): BarSplit | null => {
  // Cheap guards first: most lines carry no bar.
  if (!text.includes('%') || !text.includes('/')) return null;
  const match = BAR.exec(text);
  if (match === null) return null;
  // What another bar left before this one on the line (two ranks drawing at once: `100%|███100%|███| 1/1`) is no label.
  const label = text
    .slice(0, match.index)
    .replace(/:?\s*$/, '')
    .trim()
    .replace(/^(?:\d{1,3}%\|[^|]*)+$/, '');
  // A bar is the first thing on its line; `50%` inside a sentence is not a bar.
  if (label.length > 160 || /[[\]]/.test(label.slice(0, 1))) return null;
  const end = match.index + match[0].length;
  return {
    bar: { label, done: Number(match[2]), total: Number(match[3]) },
    text: text.slice(0, end).trim(),
    rest: text.slice(end).trim(),
  };
};
