// `vigil smoke <base-url>`: prove a running server generates; exit 0, or 7 with the response as evidence.
import type { CommandModule } from './context.ts';
import { EXIT } from '../exit-codes.ts';
import { invalidOption } from '../errors.ts';
import { createRedactor } from '../redact/redactor.ts';
import { SMOKE_TIMEOUT, SMOKE_TIMEOUT_HELP, parseSmokeTimeout } from '../smoke/options.ts';
import { parseBaseUrl, parseEngine, readApiKey } from './bench-options.ts';
import { addForwardOptions, planForward, type RawHostOptions } from './host-forward.ts';
import { stateDir } from '../state/dir.ts';

interface RawSmokeOptions extends RawHostOptions {
  engine: string;
  model?: string;
  smokeTimeout: string;
  apiKeyEnv?: string;
  output?: string;
}

// Adds `vigil smoke` to the program.
export const register: CommandModule['register'] = (program, ctx, done) => {
  const command = program
    .command('smoke')
    .description('prove a running server generates: one short streamed chat completion (exit 7 if not)')
    .argument('<base-url>', 'the server, e.g. http://127.0.0.1:30000 (as the --host sees it, with --host)');
  addForwardOptions(command)
    .option('--engine <engine>', 'sglang, vllm, generic or auto (asks the server)', 'auto')
    .option('--model <name>', 'the model to ask (default: the first of /v1/models)')
    .option('--smoke-timeout <duration>', SMOKE_TIMEOUT_HELP, SMOKE_TIMEOUT.default)
    .option('--api-key-env <NAME>', 'send the API key held in this environment variable')
    .option('--output <kind>', 'tty, plain or json')
    .action(async (base: string, raw: RawSmokeOptions) => {
      const url = parseBaseUrl(base, '<base-url>');
      const engine = parseEngine(raw.engine);
      const timeoutMs = parseSmokeTimeout(raw.smokeTimeout);
      const apiKey = readApiKey(raw.apiKeyEnv, ctx.env);
      const output = raw.output ?? null;
      if (output !== null && !['tty', 'plain', 'json'].includes(output))
        throw invalidOption('--output', 'one of tty, plain, json', output);
      const openForward = planForward(raw, [url], () => stateDir(ctx.env));
      const { runSmoke } = await import('../smoke/index.ts');
      const reached = await openForward();
      let report;
      try {
        report = await runSmoke({
          url: reached.urls[0] ?? url,
          engine,
          timeoutMs,
          ...(raw.model === undefined ? {} : { model: raw.model }),
          ...(apiKey === undefined ? {} : { apiKey }),
        });
      } finally {
        await reached.close();
      }
      const redact = createRedactor({ secrets: apiKey === undefined ? [] : [apiKey], env: ctx.env });
      if (output === 'json') {
        ctx.stdout.write(`${redact(JSON.stringify({ url: url.href, ...report }))}\n`);
      } else {
        const { formatSmokeReport } = await import('../report/bench.ts');
        ctx.stdout.write(redact(formatSmokeReport(url.href, report)));
      }
      done(report.ok ? EXIT.ready : EXIT.smoke);
    });
};
