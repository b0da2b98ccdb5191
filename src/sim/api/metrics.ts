// The basics of each engine's Prometheus /metrics: request gauges and token counters, plus speculative
// acceptance (vLLM's spec_decode counters, SGLang's sglang:spec_accept_length gauge; docs/engines/facts.md).
import type { ApiContext } from './openai.ts';

type Metric = [name: string, type: 'gauge' | 'counter', help: string, value: number];

const render = (metrics: Metric[], labels: string): string =>
  metrics
    .map(
      ([name, type, help, value]) =>
        `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name}{${labels}} ${Number.isInteger(value) ? value.toFixed(1) : String(value)}\n`,
    )
    .join('');

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
