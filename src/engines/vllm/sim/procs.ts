// vLLM's processes as its log lines name them, and the simulated durations of its start (seconds at
// VIGIL_SIM_TIME_SCALE=1; about 2-3 minutes in all).
import type { VllmProc } from './log.ts';
import type { SimContext } from '../../../sim/types.ts';

export const VLLM_SECONDS = {
  processUp: 8,
  distInit: 4,
  weights: 60,
  compile: 35,
  kvCache: 3,
  capture: 25,
  warmup: 3,
  httpUp: 2,
};

export const VLLM_SHARDS = 14;
export const VLLM_VERSION = '0.19.1';

/** The processes that name vLLM's log lines: the API server, the EngineCore and (TP > 1) one worker per rank. */
export interface VllmProcs {
  api: VllmProc;
  engine: VllmProc;
  /** Rank n's process: `Worker_TPn` when TP > 1, else the EngineCore itself. */
  rank(n: number): VllmProc;
}

// The process names and pids of this run (the workers are real child processes).
export const vllmProcs = (ctx: SimContext): VllmProcs => {
  const pidOf = (role: string): number => ctx.workers.find((w) => w.role === role)?.pid ?? ctx.pid;
  const engine = { name: 'EngineCore_DP0', pid: pidOf('EngineCore_DP0') };
  return {
    api: { name: 'APIServer', pid: ctx.pid },
    engine,
    rank: (n) => (ctx.config.tpSize > 1 ? { name: `Worker_TP${n}`, pid: pidOf(`Worker_TP${n}`) } : engine),
  };
};
