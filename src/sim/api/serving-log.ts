// The lines an engine prints while it serves (its access log, batch lines, a failed health check); each engine
// writes them in its own words (src/engines/<engine>/sim.ts).
import { simEngineOf } from '../../engines/sim.ts';
import type { SimEngine, SimSink } from '../types.ts';
import type { DecodeReport } from './stats.ts';

export interface ServingLog {
  access(client: string, method: string, path: string, status: number): void;
  prefill(promptTokens: number, running: number): void;
  decode(report: DecodeReport): void;
  /** /health answered 503 after ready (the flap failure). */
  healthFailed(): void;
}

// The serving lines of one engine.
export const createServingLog = (engine: SimEngine, sink: SimSink, pid: number): ServingLog =>
  simEngineOf(engine).servingLog(sink, pid);
