// TGI's launcher and router log line shapes (docs/engines/log-patterns.md): phases, the ready line, heartbeats.
// Each shape names the releases that print it (3.x, from data/catalogue/tgi-*.json) and a sample line.
import type { PhaseRule, StopRule } from '../types.ts';

/** A phase shape with the lines that show it, for the catalogue test. */
export type SampledRule = PhaseRule & { samples: readonly string[] };

// The router's `Connected` is printed once the HTTP server listens after warm-up: TGI's ready line.
export const TGI_READY_LINE = /^Connected$/;

// The router's word that its warm-up succeeded (`Setting max batch total tokens to 30816`, printed once the shards
// answered the warm-up batch); only the webserver's start comes after it. A pasted log that ends there shows a start
// that got through; an error after it (the webserver's port taken) is still the start's.
export const TGI_UP_LINE = /^Connected$|^Setting max batch total tokens to \d+/;

// The router's answer to a request it served (`generate{…}: text_generation_router::server: router/src/server.rs:637:
// Success`), or any line it logs inside a request's span (`generate_stream{parameters=…}: …`, the batches it runs
// for requests, `batch{batch_size=1}:prefill:…`): the start got through, also in a log that begins after `Connected`
// (the diagnoser reads the ready line as served too), also where a paste dropped the time in front (`ERROR batch{…}`).
// Warm-up runs in a `warmup{…}` span, never these. So does a shard's report that a request's batch failed (`Method
// Decode encountered an error.`): the router sends Prefill and Decode only for requests (warm-up is its own Warmup).
export const TGI_SERVING_LINE =
  /text_generation_router::server: \S+: Success$|(?:^|\s)(?:generate|generate_stream|completions|chat_completions)\{|(?:^|\s)batch\{batch_size=\d+\}:(?:prefill|decode)\b|\bMethod (?:Prefill|Decode) encountered an error\b/;

// Lines that prove the process is alive but not moving forward; they never reset the stall timer.
export const TGI_HEARTBEATS: RegExp[] = [/Waiting for shard to be ready\.\.\./];

// In phase order: weights are downloaded, shards load them, then the router starts and warms the model up.
export const TGI_PHASES: SampledRule[] = [
  { phase: 'process-up', pattern: /^Args \{/, samples: ['Args { model_id: "m", revision: None }'] },
  {
    phase: 'weight-load',
    pattern:
      /^Starting (?:check and )?download process|^Successfully downloaded weights|^Files are already present on the host/,
    samples: [
      'Starting check and download process for meta-llama/Llama-3.1-8B-Instruct',
      'Successfully downloaded weights for m',
    ],
  },
  {
    phase: 'weight-load',
    pattern: /^Starting shard\b|^Sharding model on \d+ processes|^Shard ready in /,
    samples: ['Starting shard', 'Shard ready in 15.2s', 'Sharding model on 2 processes'],
  },
  { phase: 'http-up', pattern: /^Starting Webserver/, samples: ['Starting Webserver'] },
  {
    phase: 'warmup',
    pattern: /^Warming up model|^Setting max batch total tokens to |^Using default cuda graphs/,
    samples: ['Warming up model'],
  },
  { phase: 'ready', pattern: /^Connected$/, samples: ['Connected'] },
];

// A stop the server was asked for: the router's answer to SIGTERM or Ctrl-C.
export const TGI_STOP_LINES: StopRule[] = [
  {
    pattern: /signal received, starting graceful shutdown/,
    needle: 'graceful shutdown',
    samples: ['signal received, starting graceful shutdown'],
  },
];

export const TGI_PHASE_NEEDLES: readonly string[] = [
  'Args',
  'Starti',
  'Success',
  'Files are',
  'Shard',
  'Webser',
  'Warmin',
  'Setting max',
  'cuda graphs',
  'Connec',
];

// `text-generation-launcher 3.3.7`, or a container tag `text-generation-inference:3.3.7`.
export const tgiVersionFromLog = (text: string): string | null =>
  /text-generation-(?:launcher|inference|router)[ :]v?(\d+\.\d+\.\d+)/.exec(text)?.[1] ?? null;
