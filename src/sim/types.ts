// The simulator's shared shapes: what a phase script gets to work with and how a simulated start ends.
import type { PhaseId } from '../events.ts';
import type { BindError } from './api/server.ts';
import type { SimClock } from './clock.ts';
import type { SimConfig } from './config.ts';
import type { SimSettings } from './settings.ts';
import type { EngineId } from '../engines/ids.ts';

/** An engine with a simulator (src/engines/sim.ts lists them). */
export type SimEngine = EngineId;

/** Where the simulated engine writes: its own stdout and stderr, as the real engine does. */
export interface SimSink {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** How a simulated start ends (or that it reached ready and serves). */
export type SimOutcome =
  | { kind: 'serving' }
  | { kind: 'exit'; code: number }
  /** Dies by SIGKILL; `orphanWorkers` leaves the workers running, as the host OOM killer does. */
  | { kind: 'killed'; orphanWorkers: boolean }
  /** Stops making progress; an optional heartbeat line keeps coming until the process is signalled. */
  | { kind: 'hang'; heartbeat: { everySeconds: number; write: () => void } | null };

/** One simulated worker process (a TP rank's scheduler, the detokenizer, vLLM's EngineCore). */
export interface SimWorker {
  role: string;
  pid: number;
}

/** What phase and failure scripts use. */
export interface SimContext {
  readonly config: SimConfig;
  readonly settings: SimSettings;
  readonly clock: SimClock;
  readonly sink: SimSink;
  /** SGLang's `ServerArgs(...)` repr or vLLM's non-default args dict, built from the command line. */
  readonly argsLine: string;
  /** The width argparse would format its usage block for (COLUMNS or the terminal, minus 2). */
  readonly usageWidth: number;
  /** The main process's pid (SGLang's `Started server process [N]`, vLLM's `(APIServer pid=N)`). */
  readonly pid: number;
  readonly workers: readonly SimWorker[];
  /** Opens the HTTP port; resolves null once listening, or why the bind failed. */
  listen(): Promise<BindError | null>;
  /** From now on /health and /health_generate answer 200. */
  setHealthy(): void;
  /** Notes that the engine printed its ready line (for VIGIL_SIM_TRACE). */
  traceReadyLine(): void;
  /** SIGKILLs one worker, as a peer rank dying would look. */
  killWorker(role: string): void;
}

/** One phase of an engine's start: its lines, waits and side effects. Returns an outcome to stop early. */
export interface PhaseScript {
  id: PhaseId;
  run(ctx: SimContext): Promise<SimOutcome | null>;
}
