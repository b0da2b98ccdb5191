// What `vigil up` and `vigil wait` share: the common options (DESIGN.md) as commander definitions, their
// conversion into library options (each error names the option, what was expected and what came), and
// rendering a start's events to its end.
import type { Command } from 'commander';
import { VigilError, invalidOption } from '../errors.ts';
import { parseDuration } from '../config/duration.ts';
import { defaultOutputKind, loadRenderer } from '../report/load.ts';
import type { OutputKind } from '../report/types.ts';
import type { WatchCommonOptions } from '../watch/options.ts';
import type { StartHandle } from '../watch/result.ts';
import type { EngineChoice } from '../engines/command.ts';
import type { CliContext } from './context.ts';

/** The raw strings commander hands over. */
export interface RawWatchOptions {
  engine?: string;
  url?: string;
  port?: string;
  timeout?: string;
  stallTimeout?: string;
  interval?: string;
  probeTimeout?: string;
  successThreshold?: string;
  expectStatus?: string;
  heartbeat?: string;
  output?: string;
}

// Adds the shared options to a command; `target` adds --url and --port (up: wait takes the URL as argument).
export const addWatchOptions = (command: Command, { target }: { target: boolean }): Command => {
  command.option('--engine <engine>', 'sglang, vllm, generic or auto (reads the command)', 'auto');
  if (target) {
    command
      .option('--url <url>', 'health URL; one without a path gets the engine health path')
      .option('--port <n>', "the server's port, when the command does not say it");
  }
  return command
    .option('--timeout <duration>', 'the whole start, counted from spawn', '60m')
    .option('--stall-timeout <duration>', 'time without progress in the log', '10m')
    .option('--interval <duration>', 'time between probes', '1s')
    .option('--probe-timeout <duration>', 'limit for one probe', '5s')
    .option('--success-threshold <n>', 'healthy answers in a row needed for ready', '1')
    .option('--expect-status <list>', 'statuses that count as healthy, a comma list', '200')
    .option('--heartbeat <duration>', 'time between heartbeats', '60s')
    .option('--output <kind>', 'tty, plain, jsonl or json (default: tty on a terminal, else plain)');
};

const ENGINES = ['auto', 'sglang', 'vllm', 'generic'] as const;
const OUTPUTS: readonly OutputKind[] = ['tty', 'plain', 'jsonl', 'json'];

// Converts the shared options; throws UsageError for the first invalid one.
export const parseWatchOptions = (
  raw: RawWatchOptions,
): WatchCommonOptions & { output: OutputKind | null } => {
  const engine = raw.engine ?? 'auto';
  if (!(ENGINES as readonly string[]).includes(engine)) {
    throw invalidOption('--engine', 'one of auto, sglang, vllm, generic', engine);
  }
  const output = raw.output ?? null;
  if (output !== null && !(OUTPUTS as readonly string[]).includes(output)) {
    throw invalidOption('--output', 'one of tty, plain, jsonl, json', output);
  }
  return {
    engine: engine as EngineChoice,
    ...(raw.url === undefined ? {} : { url: raw.url }),
    ...(raw.port === undefined ? {} : { port: parsePortOption(raw.port, '--port') }),
    timeoutMs: positiveDuration(raw.timeout ?? '60m', '--timeout'),
    stallTimeoutMs: positiveDuration(raw.stallTimeout ?? '10m', '--stall-timeout'),
    intervalMs: positiveDuration(raw.interval ?? '1s', '--interval'),
    probeTimeoutMs: positiveDuration(raw.probeTimeout ?? '5s', '--probe-timeout'),
    successThreshold: parseCount(raw.successThreshold ?? '1', '--success-threshold'),
    expectStatus: parseStatusList(raw.expectStatus ?? '200'),
    heartbeatMs: positiveDuration(raw.heartbeat ?? '60s', '--heartbeat'),
    output: output as OutputKind | null,
  };
};

// A duration above zero (`0s` would mean "never wait", which is never what anyone wants here).
export const positiveDuration = (text: string, option: string, allowZero = false): number => {
  const ms = parseDuration(text, option);
  if (ms === 0 && !allowZero)
    throw invalidOption(option, 'a duration above zero, such as 500ms, 10s or 15m', text);
  return ms;
};

// A port: 1 to 65535.
export const parsePortOption = (text: string, option: string): number => {
  if (!/^\d+$/.test(text.trim())) throw invalidOption(option, 'a port number from 1 to 65535', text);
  const port = Number(text);
  if (port < 1 || port > 65535) throw invalidOption(option, 'a port number from 1 to 65535', text);
  return port;
};

const parseCount = (text: string, option: string): number => {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1)
    throw invalidOption(option, 'a whole number of 1 or more', text);
  return Number(text);
};

// `200` or `200,204`: HTTP statuses from 100 to 599.
export const parseStatusList = (text: string): number[] => {
  const parts = text.split(',').map((part) => part.trim());
  const statuses = parts.map(Number);
  if (parts.some((part) => !/^\d{3}$/.test(part)) || statuses.some((s) => s < 100 || s > 599)) {
    throw invalidOption('--expect-status', 'a comma list of HTTP statuses, e.g. 200 or 200,204', text);
  }
  return statuses;
};

// Adds to a repeatable option's list (commander's collector).
export const collect = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  value,
];

// How to word and shape a start's output.
export interface RenderStartOptions {
  output: OutputKind | null;
  command: 'up' | 'wait';
  serverCommand?: readonly string[];
  stallTimeoutMs?: number;
}

// Renders every event of a start, then resolves to vigil's exit code for it. Should rendering or the output stream
// fail, the start is aborted (so a launched server is stopped, not orphaned) before the error goes on.
export const renderStart = async (
  ctx: CliContext,
  handle: StartHandle,
  options: RenderStartOptions,
  abort: () => void,
): Promise<number> => {
  const renderer = await loadRenderer(options.output ?? defaultOutputKind(ctx.stdout), {
    stream: ctx.stdout,
    redact: handle.redact,
    command: options.command,
    ...(options.serverCommand === undefined ? {} : { serverCommand: options.serverCommand }),
    ...(options.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: options.stallTimeoutMs }),
  });
  // A stream reports a failed write (EPIPE: the reader went away) as an 'error' event, not a throw.
  // Set from the stream's event handler, so read through a function (TypeScript cannot see the assignment).
  let outputError: Error | null = null;
  const failedOutput = (): Error | null => outputError;
  const onOutputError = (error: Error): void => {
    if (outputError !== null) return;
    outputError = error;
    abort();
  };
  ctx.stdout.on('error', onOutputError);
  try {
    for await (const event of handle.events) {
      if (failedOutput() === null) renderer.render(event);
    }
  } catch (error) {
    abort();
    await handle.result.catch(() => undefined);
    throw error;
  } finally {
    if (failedOutput() === null) renderer.close();
    ctx.stdout.off('error', onOutputError);
  }
  const failed = failedOutput();
  if (failed !== null) {
    await handle.result.catch(() => undefined);
    throw new VigilError('E_INTERNAL', `cannot write the output (${failed.message}); the start was aborted`, {
      cause: failed,
      hint: "keep reading vigil's output to its end (a pipe into `head` closes early), or redirect it to a file",
    });
  }
  const result = await handle.result;
  for (const warning of result.warnings ?? [])
    ctx.stderr.write(`vigil: warning: ${handle.redact(warning)}\n`);
  return result.exitCode;
};
