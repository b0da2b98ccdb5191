// `vigil sim`: validate everything (environment, command line, failure request) before anything starts, then
// run the simulated engine. Resolves to the exit code; some endings are a signal instead (see lifecycle.ts).
import type { Writable } from 'node:stream';
import { argparseWidth } from '../flags/argparse/usage.ts';
import { checkSimArgv, formatRejection } from './argv.ts';
import { buildSimConfig } from './config.ts';
import { resolveSimFailure } from './failures/catalog.ts';
import { runSimulation } from './lifecycle.ts';
import { serverArgsJson } from './log/server-args.ts';
import { readSimSettings } from './settings.ts';
import { simEngineOf } from '../engines/sim.ts';
import { openSimTrace } from './trace.ts';
import type { SimEngine } from './types.ts';

export interface SimIo {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  /** The terminal's width, when stdout is one (argparse falls back to it without COLUMNS). */
  columns?: number;
}

// Runs `vigil sim <engine> -- <argv>`; throws a UsageError for a bad VIGIL_SIM_* value before any side effect.
export const runSim = async (engine: SimEngine, argv: readonly string[], io: SimIo): Promise<number> => {
  const settings = readSimSettings(io.env);
  const sim = simEngineOf(engine);
  // An unknown release stops here, before anything starts, naming the catalogued ones.
  sim.checkRelease(settings.engineVersion ?? undefined);
  const usageWidth = argparseWidth(io.env, io.columns);
  const checked = await checkSimArgv(engine, argv, usageWidth);
  if (!checked.ok) {
    io[checked.stream].write(checked.text);
    return checked.code;
  }
  const { schema, result } = checked;
  const built = buildSimConfig(engine, result);
  if (!built.ok) {
    io.stderr.write(formatRejection(engine, schema, built.message, false, usageWidth));
    return 2;
  }
  const { config } = built;
  const phases = sim.phases(config);
  const failure =
    settings.fail === null
      ? null
      : resolveSimFailure(
          settings.fail,
          engine,
          config,
          phases.map((phase) => phase.id),
        );
  const trace = openSimTrace(settings.tracePath);
  return runSimulation({
    config,
    settings,
    phases,
    failure,
    trace,
    io,
    usageWidth,
    argsLine: sim.argsLine(schema, result),
    serverArgs: serverArgsJson(schema, result),
  });
};
