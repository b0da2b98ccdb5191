// `vigil bench <base-url>`: an OpenAI-compatible load generator; with --compare, the speed-up of one server
// over another (what a draft model buys).
import type { CommandModule } from './context.ts';
import { EXIT } from '../exit-codes.ts';
import { UsageError, invalidOption } from '../errors.ts';
import { parseDuration } from '../config/duration.ts';
import { createRedactor } from '../redact/redactor.ts';
import { listenForInterrupts } from '../watch/interrupts.ts';
import { parseBaseUrl, parseEngine, parsePositive, parseWhole, readApiKey } from './bench-options.ts';
import { addForwardOptions, planForward, type RawHostOptions } from './host-forward.ts';
import { stateDir } from '../state/dir.ts';

interface RawBenchOptions extends RawHostOptions {
  concurrency?: string;
  rate?: string;
  requests?: string;
  duration?: string;
  maxTokens: string;
  inputTokens: string;
  prompts?: string;
  model?: string;
  warmup?: string;
  seed: string;
  compare?: string;
  block?: string;
  requestTimeout: string;
  stream: boolean;
  engine: string;
  apiKeyEnv?: string;
  output?: string;
  plot?: string;
}

const DEFAULT_REQUESTS = 100;

// Adds `vigil bench` to the program.
export const register: CommandModule['register'] = (program, ctx, done) => {
  const command = program
    .command('bench')
    .description('load an OpenAI-compatible server and report throughput, latency and speculative acceptance')
    .argument('<base-url>', 'the server, e.g. http://127.0.0.1:30000 (as the --host sees it, with --host)');
  addForwardOptions(command)
    .option('--concurrency <n>', 'closed loop: requests in flight at once (default 1)')
    .option('--rate <r>', 'open loop: Poisson arrivals, requests per second')
    .option(
      '--requests <n>',
      `requests to send (default ${String(DEFAULT_REQUESTS)}; per server with --compare)`,
    )
    .option('--duration <d>', 'send requests for this long instead, e.g. 60s')
    .option('--max-tokens <n>', 'max_tokens of each request (a prompt file line may set its own)', '128')
    .option('--input-tokens <n>', 'length of the built-in synthetic prompts, in tokens (about)', '256')
    .option(
      '--prompts <file.jsonl>',
      'prompts from a file: one {"prompt"|"messages", "max_tokens"?} per line',
    )
    .option('--model <name>', 'the model (default: the first of /v1/models)')
    .option('--warmup <n>', 'requests sent first and not counted (default: the concurrency, at least 2)')
    .option('--seed <n>', 'seed of the arrivals, the synthetic prompts and the bootstrap', '1')
    .option('--compare <base-url-2>', 'run the same workload against this server too, in alternating blocks')
    .option('--block <n>', 'requests per block with --compare (default 4 x concurrency, at least 8)')
    .option('--request-timeout <d>', 'limit for one request', '5m')
    .option('--no-stream', 'ask for whole responses (no TTFT or ITL)')
    .option(
      '--engine <engine>',
      'sglang, vllm, generic or auto (asks the server), for acceptance figures',
      'auto',
    )
    .option('--api-key-env <NAME>', 'send the API key held in this environment variable')
    .option('--output <kind>', 'tty, plain or json (one object)')
    .option('--plot <file.svg>', 'draw latency CDFs and output tokens/s over time to an SVG file')
    .action(async (base: string, raw: RawBenchOptions) => {
      const url = parseBaseUrl(base, '<base-url>');
      const compareUrl = raw.compare === undefined ? undefined : parseBaseUrl(raw.compare, '--compare');
      if (raw.concurrency !== undefined && raw.rate !== undefined)
        throw new UsageError('give --concurrency (closed loop) or --rate (open loop), not both', {
          option: '--rate',
        });
      if (raw.requests !== undefined && raw.duration !== undefined)
        throw new UsageError('give --requests or --duration, not both', { option: '--duration' });
      const concurrency = parseWhole(raw.concurrency ?? '1', '--concurrency', 1, 10_000);
      const mode =
        raw.rate === undefined
          ? { kind: 'closed' as const, concurrency }
          : {
              kind: 'open' as const,
              rate: parsePositive(raw.rate, '--rate'),
              seed: parseWhole(raw.seed, '--seed', 0),
            };
      const stop =
        raw.duration === undefined
          ? { requests: parseWhole(raw.requests ?? String(DEFAULT_REQUESTS), '--requests', 1) }
          : { durationMs: parseDuration(raw.duration, '--duration') };
      if ('durationMs' in stop && stop.durationMs <= 0)
        throw invalidOption('--duration', 'a duration above zero, e.g. 60s', raw.duration);
      const maxTokens = parseWhole(raw.maxTokens, '--max-tokens', 1);
      const inputTokens = parseWhole(raw.inputTokens, '--input-tokens', 1, 1_000_000);
      // One warm-up request per connection by default, so every pooled connection is open before timing starts.
      const warmup = parseWhole(raw.warmup ?? String(Math.max(2, concurrency)), '--warmup', 0);
      const seed = parseWhole(raw.seed, '--seed', 0);
      const block = parseWhole(raw.block ?? String(Math.max(8, 4 * concurrency)), '--block', 1);
      const timeoutMs = parseDuration(raw.requestTimeout, '--request-timeout');
      if (timeoutMs <= 0)
        throw invalidOption('--request-timeout', 'a duration above zero, e.g. 5m', raw.requestTimeout);
      const engine = parseEngine(raw.engine);
      const apiKey = readApiKey(raw.apiKeyEnv, ctx.env);
      const output = raw.output ?? (ctx.stdout.isTTY === true ? 'tty' : 'plain');
      if (!['tty', 'plain', 'json'].includes(output))
        throw invalidOption('--output', 'one of tty, plain, json', output);
      if (raw.plot !== undefined && !raw.plot.endsWith('.svg'))
        throw invalidOption('--plot', 'a file name ending in .svg', raw.plot);

      const openForward = planForward(raw, compareUrl === undefined ? [url] : [url, compareUrl], () =>
        stateDir(ctx.env),
      );

      const { readPromptFile, syntheticPrompts } = await import('../bench/prompts.ts');
      const count = 'requests' in stop ? Math.min(stop.requests, 1000) : 1000;
      const prompts =
        raw.prompts === undefined
          ? syntheticPrompts(count, inputTokens, maxTokens, seed)
          : await readPromptFile(raw.prompts, maxTokens);
      const { runBench } = await import('../bench/run.ts');
      const { benchJson, createProgressBar, formatBenchTable } = await import('../report/bench.ts');
      const progress = ctx.stderr.isTTY === true && output !== 'json' ? createProgressBar(ctx.stderr) : null;
      const interrupts = listenForInterrupts();
      let result;
      const reached = await openForward().catch((error: unknown) => {
        interrupts.dispose();
        throw error;
      });
      const [target = url, compareTarget] = reached.urls;
      try {
        result = await runBench({
          url: target,
          ...(compareTarget === undefined ? {} : { compareUrl: compareTarget }),
          ...(raw.model === undefined ? {} : { model: raw.model }),
          ...(apiKey === undefined ? {} : { apiKey }),
          engine,
          prompts,
          mode,
          stop,
          warmup,
          stream: raw.stream,
          timeoutMs,
          blockRequests: block,
          seed,
          signal: interrupts.signal,
          ...(progress === null
            ? {}
            : {
                onProgress: (p) => {
                  progress.update(p);
                },
              }),
        });
      } finally {
        progress?.finish();
        interrupts.dispose();
        await reached.close();
      }
      // The report names the servers as given (on the host), not the forwarded ports.
      for (const [i, given] of [url, compareUrl].entries()) {
        const side = result.sides[i];
        if (side !== undefined && given !== undefined) side.url = given.href;
      }
      const redact = createRedactor({ secrets: apiKey === undefined ? [] : [apiKey] });
      if (raw.plot !== undefined) {
        const { writeBenchPlot } = await import('../bench/plot.ts');
        await writeBenchPlot(raw.plot, result);
      }
      ctx.stdout.write(
        redact(output === 'json' ? `${JSON.stringify(benchJson(result))}\n` : formatBenchTable(result)),
      );
      done(interrupts.signal.aborted ? EXIT.interrupted : EXIT.ready);
    });
};
