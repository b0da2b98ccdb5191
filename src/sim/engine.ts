// What an engine's simulator provides (src/engines/<engine>/sim.ts): its command line, start phases, failure
// scripts, worker processes, serving log and HTTP surface. src/sim runs any of them through this shape and names
// no engine; the simulated engines are listed in src/engines/sim.ts.
import type { PhaseId } from '../events.ts';
import type { ArgparseResult } from '../flags/argparse/parse.ts';
import type { FlagSchema } from '../flags/schema/schema.ts';
import type { Handler } from './api/routes.ts';
import type { ServingLog } from './api/serving-log.ts';
import type { ArgReader, SimConfig } from './config.ts';
import type { SimFailure, SimFailureClass } from './failures/catalog.ts';
import type { PhaseScript, SimContext, SimOutcome, SimSink } from './types.ts';
import type { EngineId } from '../engines/ids.ts';

export interface SimEngineModule {
  id: EngineId;
  /** The engine's name as people write it. */
  label: string;
  /** Throws a UsageError naming the catalogued releases when the release has no catalogue. */
  checkRelease(version: string | undefined): void;
  /** The engine's own arguments: what its parser sees (vLLM's leading `serve` subcommand removed). */
  ownArgs(argv: readonly string[]): readonly string[];
  /** What the parser prints when it rejects a command (`unrecognized`: an unknown option was the problem). */
  formatRejection(schema: FlagSchema, message: string, unrecognized: boolean, width: number): string;
  /** What `--help` prints (the usage block). */
  usage(schema: FlagSchema, width: number): string;
  /** The simulated server's settings from an accepted command line. */
  readConfig(reader: ArgReader, result: ArgparseResult): SimConfig;
  /** The phases of this start, in order. */
  phases(config: SimConfig): PhaseScript[];
  /** The argument echo the engine prints at start (SGLang's `ServerArgs(...)`, vLLM's non-default args). */
  argsLine(schema: FlagSchema, result: ArgparseResult): string;
  /** The phases where the engine really meets each failure class. */
  failurePhases: Readonly<Partial<Record<SimFailureClass, readonly PhaseId[]>>>;
  /** The option that turns CUDA graph capture off, for an error that names a missing phase. */
  noGraphOption: string;
  /** The options that add a draft model, for a weight-mismatch request without one. */
  draftOptions: string;
  /** The phase the draft's weights load in, when not the phase named (SGLang: after the target's graphs). */
  draftWeightsPhase: PhaseId | null;
  runFailure(failure: SimFailure, ctx: SimContext): Promise<SimOutcome>;
  /** The worker processes of a run, named as the engine names them. */
  workerRoles(tpSize: number): string[];
  /** The process title a worker gives itself (what `ps` shows). */
  workerTitle(role: string): string;
  /** The lines the engine prints while it serves. */
  servingLog(sink: SimSink, pid: number): ServingLog;
  /** uvicorn's graceful shutdown lines with the engine's prefix. */
  printShutdown(ctx: SimContext): void;
  /** The engine's own endpoints, added to the common OpenAI ones; `health` answers its health paths. */
  addRoutes(routes: Map<string, Handler>, config: SimConfig, health: Handler): void;
  /** Whether a path needs the API key when the server has one. */
  guards(path: string): boolean;
  /** The body of an error answer. */
  errorBody(info: { message: string; type: string; param: null; code: number }): unknown;
  /** Whether a request naming another model than the served one is refused. */
  checksModelName: boolean;
}
