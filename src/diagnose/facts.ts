// The vocabulary between failure signatures, the diagnoser and the engines' advice.
import type { DiagnosisClass, PhaseId } from '../events.ts';
import type { Releases } from '../engines/releases.ts';
import type { FrameContext } from '../engines/types.ts';

/** What a matched line told us; every field is optional and plain text. */
export interface FailureFacts {
  /** A finer kind inside a class, e.g. `kv-cache` or `nccl-calloc` for cuda-oom, `arch` for weight-mismatch. */
  kind?: string;
  signal?: number;
  /** A process's exit code as the log reports it (`255`, `None`). */
  exitCode?: string;
  port?: string;
  flag?: string;
  value?: string;
  choices?: string;
  /** A parameter name from a KeyError, e.g. `midlayer.self_attn.qkv_proj.weight`. */
  key?: string;
  /** The Python file of the innermost traceback frame before the error, e.g. `sglang/srt/models/qwen3.py`. */
  frame?: string;
  arch?: string;
  model?: string;
  package?: string;
  heads?: string;
  tp?: string;
  prog?: string;
}

/** The state of the start when the diagnosis was made. */
export interface DiagnosisContext {
  phase: PhaseId | null;
  /** Tensor-parallel size from the server's own argument echo, when printed. */
  tp: number | null;
  /** The engine release whose rules apply, when known (from the log, the live --help or --engine-version). */
  engineVersion?: string | null;
}

/** A failure signature: a line shape, the class it means, and how sure it is. */
export interface Signature {
  id: string;
  class: DiagnosisClass;
  /** Higher wins when several signatures match in one log: root causes outrank wrappers and symptoms. */
  weight: number;
  /** Literals of which every line this pattern matches contains at least one: the cheap prefilter. */
  needles: readonly string[];
  /** Tested against each normalised message. */
  pattern: RegExp;
  facts?: (match: RegExpExecArray) => FailureFacts;
  /** Tried only when no other signature matched the line (generic shapes such as any `XxxError: ...`). */
  fallback?: boolean;
  /** A report that a process died: after a fatal error it is that error's consequence, not the cause. */
  consequence?: boolean;
  /** A consequence that may reach the log before the error it reports (a child's output flushed after the
   * launcher's line): the child's error, or its own report of one, below it is the cause too. */
  causeMayFollow?: boolean;
  /** Counts only where the log ends inside what it matched: a later phase line shows the start went on after it. */
  untilNextPhase?: boolean;
  /** The engine's word that its whole start failed: the engine's first start line after it begins a new start. */
  endsStart?: boolean;
  /** A line the engine logs at INFO or WARNING level that already decides the start failed (a negative memory figure). */
  fatalAtAnyLevel?: boolean;
  /** Holds only where its facts say so; the facts then include the innermost traceback frame above the line
   * (`frame`), so a rule can tell the engine's own code from another package's. */
  holdsWhen?: (facts: FailureFacts) => boolean;
  /** Has a class of its own only outside the steps of the start: inside one (CUDA graph capture, a warm-up), the
   * step's class wins, as it does for a failure with no class (a kernel built while capturing is a capture failure). */
  stepDecides?: true;
  /** A request's failure rather than the server's: it says something about the start only before a ready line. */
  requestScoped?: boolean;
  summary: (facts: FailureFacts, context: DiagnosisContext) => string;
  /** The engine releases that print this shape; absent = every release. */
  releases?: Releases;
  /** `dependency` when the text comes from a library (torch, clap, uvicorn), not the engine's own code. */
  origin?: 'engine' | 'dependency';
  /** Real line shapes the pattern must match; engine-origin ones must match the catalogue of each release. */
  samples?: readonly string[];
}

// The errors a setting's checks raise (pydantic's `Value error, …` included); environment failures found while the
// settings are resolved (no accelerator found: a RuntimeError) are not the setting's fault.
export const CONFIG_CHECK_ERRORS =
  /\b(?:ValueError|AssertionError|NotImplementedError|TypeError)\b|Value error, /;

// An engine's model class taking the checkpoint's tensors (a model's `load_weights`, a parameter's `weight_loader`,
// vLLM's `AutoWeightsLoader`) in the engine's package (`packagePath`, a pattern of the folder's name): a KeyError,
// IndexError or AssertionError there with no class of its own is a tensor the class does not have, or has in another
// shape. An assertion about the process groups is not the checkpoint's. Each engine's folder names its package.
export const weightLoadingFrame = (packagePath: string, sample: string): FrameContext => ({
  class: 'weight-mismatch',
  label: "the model class could not take the checkpoint's tensors",
  // Also a loaded tensor copied into a parameter of another shape (`The size of tensor a (3584) must match the size of
  // tensor b (7168)`).
  errors:
    /\b(?:KeyError|IndexError)\b|\bAssertionError\b(?!: .*\b(?:group|distributed)\b)|\bThe size of tensor a \(\d+\) must match the size of tensor b\b/,
  needle: 'models/',
  pattern: new RegExp(
    String.raw`^File "[^"]*${packagePath}\/[^"]*models\/\w+\.py", line \d+,? in (?:load_weights|weight_loader|_load_module|_load_param)$`,
  ),
  samples: [sample],
});

// "the process holding port N (`ss -ltnp | grep :N`)", or words for a port the log did not name.
export const portHolder = (port: string | undefined): string =>
  port === undefined || port === ''
    ? 'the process holding the port (`ss -ltnp` lists the listening ports and their processes)'
    : `the process holding port ${port} (\`ss -ltnp | grep :${port}\`)`;

/** An engine's advice for a class, naming that engine's own flags. */
export type Advisor = (cls: DiagnosisClass, facts: FailureFacts, context: DiagnosisContext) => string[];
