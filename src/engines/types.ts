// What an engine module provides: data plus small pure functions; engines do no I/O of their own.
import type { PhaseId } from '../events.ts';

export type EngineId = 'sglang' | 'vllm' | 'tgi' | 'generic';

/** A line shape that moves the start into a phase, optionally carrying progress. */
export interface PhaseRule {
  phase: PhaseId;
  pattern: RegExp;
  /** Extracts x/y progress (e.g. from a tqdm bar) when the line carries it. */
  progress?: (match: RegExpExecArray) => { done: number; total: number } | null;
}

export interface EngineSpec {
  id: EngineId;
  /** The engine's default HTTP port. */
  defaultPort: number | null;
  /** Health path probed when a log is followed. */
  healthPath: string;
  /** Health path probed when no log is followed (SGLang: /health_generate, since old /health answers 200 during warmup). */
  healthPathWithoutLog: string;
  /** Health paths whose answer runs a generation (SGLang: /health_generate): never probed at a fast rate. */
  generatingHealthPaths?: readonly string[];
  /** The decisive ready line, when the engine has one. */
  readyLine: RegExp | null;
  /** Lines that make the watcher probe at once (vLLM: `Application startup complete.`). */
  probeTriggers: RegExp[];
  /** Lines that show the process is alive but making no progress; they never reset the stall timer. */
  heartbeatLines: RegExp[];
  /** Phase line shapes, in phase order. */
  phaseRules: PhaseRule[];
}
