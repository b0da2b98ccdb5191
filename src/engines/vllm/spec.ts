// vLLM's speculative acceptance from its Prometheus counters, as the difference over a run:
// 1 + Δspec_decode_num_accepted_tokens_total / Δspec_decode_num_drafts_total, and per draft position
// Δspec_decode_num_accepted_tokens_per_pos_total{position=i} / Δdrafts.
import type { SpecReader, SpecSnapshot } from '../types.ts';

const ACCEPTED = 'vllm:spec_decode_num_accepted_tokens_total';
const DRAFTS = 'vllm:spec_decode_num_drafts_total';
const DRAFT_TOKENS = 'vllm:spec_decode_num_draft_tokens_total';
const PER_POSITION = 'vllm:spec_decode_num_accepted_tokens_per_pos_total';
// `name{labels} value`: the sample lines of the text exposition format (comments and blank lines skipped).
// Hand-written because only these few counters are read; a full Prometheus parser would be a dependency for 10 lines.
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})?\s+(\S+)/;
const POSITION = /(?:^|,)\s*position="(\d+)"/;

// Sums each counter over its label sets (one per engine), keeping per-position counters apart as `pos:<i>`.
const parseMetrics = (body: string): SpecSnapshot | null => {
  if (!body.includes('vllm:')) return null;
  const snapshot: SpecSnapshot = {};
  for (const line of body.split('\n')) {
    const match = SAMPLE.exec(line);
    if (match === null) continue;
    const [, name = '', labels = '', text = ''] = match;
    const value = Number(text);
    if (!Number.isFinite(value)) continue;
    let key: string | null = null;
    if (name === ACCEPTED || name === DRAFTS || name === DRAFT_TOKENS) key = name;
    else if (name === PER_POSITION) {
      const position = POSITION.exec(labels)?.[1];
      if (position !== undefined) key = `pos:${position}`;
    }
    if (key !== null) snapshot[key] = (snapshot[key] ?? 0) + value;
  }
  return snapshot;
};

const delta = (before: SpecSnapshot | null, after: SpecSnapshot, key: string): number =>
  (after[key] ?? 0) - (before?.[key] ?? 0);

export const vllmSpec: SpecReader = {
  path: '/metrics',
  parse: parseMetrics,
  acceptance: (before, after) => {
    if (after[DRAFTS] === undefined || after[ACCEPTED] === undefined) return null;
    const drafts = delta(before, after, DRAFTS);
    if (drafts <= 0) return null;
    const positions = Object.keys(after)
      .filter((key) => key.startsWith('pos:'))
      .map((key) => Number(key.slice(4)))
      .sort((a, b) => a - b);
    return {
      accept_length: 1 + delta(before, after, ACCEPTED) / drafts,
      source: 'vllm /metrics',
      ...(positions.length === 0
        ? {}
        : { per_position: positions.map((p) => delta(before, after, `pos:${String(p)}`) / drafts) }),
    };
  },
};
