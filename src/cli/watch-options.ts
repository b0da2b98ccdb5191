// What `vigil up` and `vigil wait` share: the common options (docs/cli.md) as commander definitions, their
// conversion into library options (each error names the option, what was expected and what came), and
// rendering a start's events to its end.
import { Option, type Command } from 'commander';
import { VigilError, invalidOption } from '../errors.ts';
import { createRenderer, defaultOutputKind } from '../report/index.ts';
import type { OutputKind } from '../report/types.ts';
import {
  OPTION_SPECS,
  parseDurationOption,
  type OptionSpec,
  type WatchCommonOptions,
} from '../watch/options.ts';
import type { StartHandle } from '../watch/result.ts';
import type { EngineChoice } from '../engines/command.ts';
import type { CliContext } from './context.ts';

/** What commander hands over: each common option already parsed and checked by its definition. */
export interface RawWatchOptions {
  engine: EngineChoice;
  url?: string;
  port?: number;
  timeout: number;
  stallTimeout: number;
  interval: number;
  probeTimeout: number;
  successThreshold: number;
  expectStatus: number[];
  heartbeat: number;
  output?: OutputKind;
}

const OUTPUTS: readonly OutputKind[] = ['tty', 'plain', 'jsonl', 'json'];

// A commander option from its definition: the same default, the same check, the same message as the library.
export const optionFrom = <T>(spec: OptionSpec<T>, description = spec.description): Option => {
  const option = new Option(`${spec.flag} ${spec.placeholder}`, description).argParser((text: string) =>
    spec.parse(text, spec.flag),
  );
  return spec.defaultText === '' ? option : option.default(spec.default, spec.defaultText);
};

// Adds the shared options to a command; `target` adds --url and --port (up: wait takes the URL as argument).
export const addWatchOptions = (command: Command, { target }: { target: boolean }): Command => {
  command.addOption(optionFrom(OPTION_SPECS.engine));
  if (target) {
    command
      .option('--url <url>', 'health URL; one without a path gets the engine health path')
      .addOption(optionFrom(OPTION_SPECS.port));
  }
  for (const spec of [
    OPTION_SPECS.timeoutMs,
    OPTION_SPECS.stallTimeoutMs,
    OPTION_SPECS.intervalMs,
    OPTION_SPECS.probeTimeoutMs,
    OPTION_SPECS.successThreshold,
    OPTION_SPECS.expectStatus,
    OPTION_SPECS.heartbeatMs,
  ])
    command.addOption(optionFrom<unknown>(spec));
  return command.addOption(
    new Option(
      '--output <kind>',
      'tty, plain, jsonl or json (default: tty on a terminal, else plain)',
    ).argParser((text: string): OutputKind => {
      if (!(OUTPUTS as readonly string[]).includes(text))
        throw invalidOption('--output', `one of ${OUTPUTS.join(', ')}`, text);
      return text as OutputKind;
    }),
  );
};

// The library's options from what commander parsed.
export const parseWatchOptions = (
  raw: RawWatchOptions,
): WatchCommonOptions & { output: OutputKind | null } => ({
  engine: raw.engine,
  ...(raw.url === undefined ? {} : { url: raw.url }),
  ...(raw.port === undefined ? {} : { port: raw.port }),
  timeoutMs: raw.timeout,
  stallTimeoutMs: raw.stallTimeout,
  intervalMs: raw.interval,
  probeTimeoutMs: raw.probeTimeout,
  successThreshold: raw.successThreshold,
  expectStatus: raw.expectStatus,
  heartbeatMs: raw.heartbeat,
  output: raw.output ?? null,
});

// A duration option outside OPTION_SPECS, checked by the same rule (1ms to 596h; 0s too when `allowZero`).
export const positiveDuration = (text: string, option: string, allowZero = false): number =>
  parseDurationOption(text, option, allowZero);

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
  // The start may fail before its first event (an unknown launch id) while the renderer loads: that rejection
  // is awaited below, so it must not count as unhandled (which would end the process with a stack trace).
  handle.result.catch(() => undefined);
  const renderer = await createRenderer(options.output ?? defaultOutputKind(ctx.stdout), {
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
