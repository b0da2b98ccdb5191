// SGLang's Prometheus /metrics basics: request gauges, token counters and the sglang:spec_accept_length gauge
// (docs/engines/facts.md).
import { render, type Metric } from '../../../sim/api/metrics.ts';
import type { ApiContext } from '../../../sim/api/openai.ts';

// SGLang's /metrics text (served only with --enable-metrics).
export const sglangMetrics = (api: ApiContext): string => {
  const { stats } = api;
  const metrics: Metric[] = [
    ['sglang:num_running_reqs', 'gauge', 'The number of running requests.', stats.running],
    ['sglang:num_queue_reqs', 'gauge', 'The number of requests in the waiting queue.', 0],
    ['sglang:gen_throughput', 'gauge', 'The generation throughput (token/s).', stats.lastGenThroughput],
    ['sglang:prompt_tokens_total', 'counter', 'Number of prefill tokens processed.', stats.promptTokens],
    [
      'sglang:generation_tokens_total',
      'counter',
      'Number of generation tokens processed.',
      stats.generationTokens,
    ],
    ['sglang:num_requests_total', 'counter', 'Number of requests processed.', stats.requests],
  ];
  const draft = api.config.speculative;
  const accept = stats.avgAcceptLength;
  if (draft !== null && accept !== null) {
    const rate = draft.numDraftTokens > 1 ? (accept - 1) / (draft.numDraftTokens - 1) : 0;
    metrics.push(
      [
        'sglang:spec_accept_length',
        'gauge',
        'Mean acceptance length of speculative decoding (accepted drafts + bonus token per forward).',
        accept,
      ],
      [
        'sglang:spec_accept_rate',
        'gauge',
        'Speculative acceptance rate (accepted drafts / proposed drafts in batch).',
        rate,
      ],
    );
  }
  return render(metrics, `model_name="${api.config.servedModelName}"`);
};
