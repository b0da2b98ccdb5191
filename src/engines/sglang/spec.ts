// SGLang's speculative acceptance: the server-wide mean in /server_info's internal_states[0].avg_spec_accept_length
// (cumulative since start; absent until the first verify step) and, per request, /generate's
// meta_info completion_tokens / spec_verify_ct (bonus token included), as SGLang's own tests compute it.
import type { SpecReader, SpecSnapshot } from '../types.ts';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const parseJson = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
};

// /server_info's acceptance: `{}` for an SGLang answer without one, null for any other answer.
const parseServerInfo = (body: string): SpecSnapshot | null => {
  const info = parseJson(body);
  if (!isRecord(info) || !Array.isArray(info['internal_states'])) return null;
  const state: unknown = info['internal_states'][0];
  // Older versions merged the internal state into the top level.
  const accept = isRecord(state) ? state['avg_spec_accept_length'] : info['avg_spec_accept_length'];
  return typeof accept === 'number' && Number.isFinite(accept) ? { avg_spec_accept_length: accept } : {};
};

export const sglangSpec: SpecReader = {
  path: '/server_info',
  parse: parseServerInfo,
  // The figure is a running mean since the server started, so the answer after the run is the figure.
  acceptance: (_before, after) => {
    const accept = after['avg_spec_accept_length'];
    return accept === undefined ? null : { accept_length: accept, source: 'sglang /server_info' };
  },
  perRequest: {
    path: '/generate',
    body: (prompt, maxTokens) => ({
      text: prompt,
      sampling_params: { max_new_tokens: maxTokens, temperature: 0 },
    }),
    acceptLength: (json) => {
      const meta = isRecord(json) ? json['meta_info'] : null;
      if (!isRecord(meta)) return null;
      const tokens = meta['completion_tokens'];
      const steps = meta['spec_verify_ct'];
      if (typeof tokens !== 'number' || typeof steps !== 'number' || steps <= 0) return null;
      return tokens / steps;
    },
  },
};
