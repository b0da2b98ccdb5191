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
  /** The decisive ready line, when the engine has one. */
  readyLine: RegExp | null;
  /** Lines that make the watcher probe at once (vLLM: `Application startup complete.`). */
  probeTriggers: RegExp[];
  /** Lines that show the process is alive but making no progress; they never reset the stall timer. */
  heartbeatLines: RegExp[];
  /** Phase line shapes, in phase order. */
  phaseRules: PhaseRule[];
  /** A path that answers 200 only after a real generation (SGLang: /health_generate); smoke tests call it. */
  generationHealthPath?: string;
  /** Where and how the engine reports speculative acceptance (src/engines/<engine>/spec.ts). */
  spec?: SpecReader;
}

/** Numbers read from one answer of an engine's spec endpoint (counters or gauges by name). */
export type SpecSnapshot = Record<string, number>;

/** The acceptance length over a run, and where it came from. */
export interface SpecFigures {
  accept_length: number;
  /** e.g. "sglang /server_info" or "vllm /metrics". */
  source: string;
  /** Acceptance rate at each draft position, when the engine counts it. */
  per_position?: number[];
}

/** Reads speculative acceptance from the engine's HTTP answers: pure functions, the caller does the GET. */
export interface SpecReader {
  /** The GET path whose body carries the figures. */
  path: string;
  /** Parses that body; null when it is not this engine's shape, {} when it is but holds no spec figures. */
  parse(body: string): SpecSnapshot | null;
  /** The acceptance length over a run, from snapshots taken before and after it; null when there is none. */
  acceptance(before: SpecSnapshot | null, after: SpecSnapshot): SpecFigures | null;
  /** A native request that reports acceptance per request, when the engine has one (SGLang's /generate). */
  perRequest?: {
    path: string;
    body(prompt: string, maxTokens: number): unknown;
    /** Acceptance length of one answer; null when the answer carries none. */
    acceptLength(json: unknown): number | null;
  };
}
