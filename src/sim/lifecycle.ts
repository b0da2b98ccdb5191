// One simulated run from spawn to end: workers and HTTP server up, phases in order (or the injected failure),
// then the ending the real engine has: serve until signalled, exit with a code, die by SIGKILL, or hang.
// SIGTERM/SIGINT stop the workers, print uvicorn's shutdown lines if the port was open, and re-raise the signal.
import type { SimConfig } from './config.ts';
import { createSimClock } from './clock.ts';
import type { SimFailure } from './failures/catalog.ts';
import { simEngineOf } from '../engines/sim.ts';
import { createSimServer } from './api/server.ts';
import type { SimIo } from './run.ts';
import { printShutdown } from './scripts/shutdown.ts';
import type { SimSettings } from './settings.ts';
import type { SimTrace } from './trace.ts';
import type { PhaseScript, SimContext, SimOutcome, SimSink } from './types.ts';
import { spawnWorkers } from './workers.ts';

export interface SimPlan {
  config: SimConfig;
  settings: SimSettings;
  phases: PhaseScript[];
  failure: SimFailure | null;
  trace: SimTrace;
  io: SimIo;
  usageWidth: number;
  argsLine: string;
  serverArgs: Record<string, unknown>;
}

// Heartbeats never come faster than this, whatever the time scale.
const MIN_HEARTBEAT_MS = 20;

const createSink = (io: SimIo): SimSink => {
  // A reader that went away must not crash the engine (a real one would die on EPIPE later, if at all).
  io.stdout.on('error', () => undefined);
  io.stderr.on('error', () => undefined);
  return {
    stdout: (text) => io.stdout.write(text),
    stderr: (text) => io.stderr.write(text),
  };
};

const runPhases = async (plan: SimPlan, ctx: SimContext): Promise<SimOutcome> => {
  const { failure } = plan;
  for (const phase of plan.phases) {
    if (failure !== null && failure.class !== 'flap' && failure.trigger === phase.id) {
      return simEngineOf(plan.config.engine).runFailure(failure, ctx);
    }
    const outcome = await phase.run(ctx);
    if (outcome !== null) return outcome;
  }
  return { kind: 'serving' };
};

const waitForAbort = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) resolve();
    else
      signal.addEventListener(
        'abort',
        () => {
          resolve();
        },
        { once: true },
      );
  });

// Ends the process by a signal, the way the real engine's process ends; never resolves.
const dieBy = (signal: NodeJS.Signals): Promise<never> => {
  process.kill(process.pid, signal);
  return new Promise<never>(() => undefined);
};

// Runs the simulation to its end; resolves to the exit code when the process exits normally.
export const runSimulation = async (plan: SimPlan): Promise<number> => {
  const { config, settings, trace } = plan;
  const stop = new AbortController();
  const sink = createSink(plan.io);
  const workers = spawnWorkers(config.engine, config.tpSize);
  let received: NodeJS.Signals = 'SIGTERM';
  const onSignal = (signal: NodeJS.Signals): void => {
    // A second signal skips the workers' grace period.
    if (stop.signal.aborted) workers.killAll();
    else received = signal;
    stop.abort();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  await workers.started;
  const release = (): void => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
  const server = createSimServer({
    config,
    settings,
    sink,
    pid: process.pid,
    serverArgs: plan.serverArgs,
    trace: (event) => {
      trace.event(event);
    },
  });
  const ctx: SimContext = {
    config,
    settings,
    clock: createSimClock(settings.timeScale, stop.signal),
    sink,
    argsLine: plan.argsLine,
    usageWidth: plan.usageWidth,
    pid: process.pid,
    workers: workers.workers,
    listen: () => server.listen(),
    setHealthy: () => {
      server.setHealthy();
    },
    traceReadyLine: () => {
      trace.event('ready-line');
    },
    killWorker: (role) => {
      workers.signal(role, 'SIGKILL');
    },
  };

  let outcome: SimOutcome | null = null;
  try {
    outcome = await runPhases(plan, ctx);
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  }

  if (outcome?.kind === 'exit') {
    await workers.stop();
    await server.close();
    release();
    const code = outcome.code;
    process.once('exit', () => {
      trace.exit({ code });
    });
    return code;
  }
  if (outcome?.kind === 'killed') {
    if (!outcome.orphanWorkers) workers.killAll();
    trace.exit({ signal: 'SIGKILL' });
    release();
    return dieBy('SIGKILL');
  }
  if (outcome?.kind === 'serving' && plan.failure?.class === 'flap') server.startFlap(settings.flap);
  let heartbeat: NodeJS.Timeout | null = null;
  if (outcome?.kind === 'hang' && outcome.heartbeat !== null) {
    const { everySeconds, write } = outcome.heartbeat;
    heartbeat = setInterval(write, Math.max(MIN_HEARTBEAT_MS, everySeconds * 1000 * settings.timeScale));
  }

  await waitForAbort(stop.signal);
  if (heartbeat !== null) clearInterval(heartbeat);
  server.setStopping();
  if (server.listening) printShutdown(ctx);
  await workers.stop();
  await server.close();
  trace.exit({ signal: received });
  release();
  return dieBy(received);
};
