// vLLM's Prometheus /metrics basics: request gauges, token counters and the spec_decode counters
// (docs/engines/facts.md).
import { render, type Metric } from '../../../sim/api/metrics.ts';
import type { ApiContext } from '../../../sim/api/openai.ts';

// vLLM's /metrics text.
export const vllmMetrics = (api: ApiContext): string => {
  const { stats } = api;
  const metrics: Metric[] = [
    ['vllm:num_requests_running', 'gauge', 'Number of requests in model execution batches.', stats.running],
    ['vllm:num_requests_waiting', 'gauge', 'Number of requests waiting to be processed.', 0],
    ['vllm:kv_cache_usage_perc', 'gauge', 'KV-cache usage. 1 means 100 percent usage.', 0],
    ['vllm:prompt_tokens_total', 'counter', 'Number of prefill tokens processed.', stats.promptTokens],
    [
      'vllm:generation_tokens_total',
      'counter',
      'Number of generation tokens processed.',
      stats.generationTokens,
    ],
    [
      'vllm:request_success_total',
      'counter',
      'Count of successfully processed requests.',
      stats.requests - stats.running,
    ],
  ];
  const draft = api.config.speculative;
  if (draft !== null) {
    metrics.push(
      ['vllm:spec_decode_num_drafts_total', 'counter', 'Number of spec decoding drafts.', stats.specSteps],
      [
        'vllm:spec_decode_num_draft_tokens_total',
        'counter',
        'Number of draft tokens.',
        stats.specSteps * draft.numSteps,
      ],
      [
        'vllm:spec_decode_num_accepted_tokens_total',
        'counter',
        'Number of accepted tokens.',
        stats.specTokens - stats.specSteps,
      ],
    );
  }
  const labels = `engine="0",model_name="${api.config.servedModelName}"`;
  return (
    render(metrics, labels) +
    (draft === null ? '' : perPosition(labels, draft.numSteps, stats.acceptedByPosition))
  );
};

// vLLM's accepted-tokens counter per draft position, one sample per position.
const perPosition = (labels: string, positions: number, accepted: readonly number[]): string => {
  const name = 'vllm:spec_decode_num_accepted_tokens_per_pos_total';
  const samples = Array.from(
    { length: positions },
    (_, p) => `${name}{${labels},position="${String(p)}"} ${(accepted[p] ?? 0).toFixed(1)}\n`,
  );
  return `# HELP ${name} Accepted tokens per draft position.\n# TYPE ${name} counter\n${samples.join('')}`;
};
