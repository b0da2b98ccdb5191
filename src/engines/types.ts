// What an engine module provides: data plus small pure functions; engines do no I/O of their own.
import type { DiagnosisClass, Finding, PhaseId } from '../events.ts';
import type { Advisor, Signature } from '../diagnose/facts.ts';
import type { Releases } from './releases.ts';
import type { ArgparseResult } from '../flags/argparse/parse.ts';
import type { FlagSchema } from '../flags/schema/schema.ts';
import type { EngineId } from './ids.ts';
import type { DraftLoader } from '../ckpt/draft-loader.ts';
import type { LayoutSignature } from '../ckpt/layout.ts';
import type { PresetConfig } from '../ckpt/presets.ts';

export type { EngineId } from './ids.ts';

/** A line shape that moves the start into a phase, optionally carrying progress. */
export interface PhaseRule {
  phase: PhaseId;
  pattern: RegExp;
  /** Extracts x/y progress (e.g. from a tqdm bar) when the line carries it. */
  progress?: (match: RegExpExecArray) => { done: number; total: number } | null;
  /** The releases that print this shape; absent = every release the engine folder knows. */
  releases?: Releases;
  /** Where the shape comes from when it is not the engine's own logger (uvicorn, tqdm): no catalogue check. */
  origin?: 'engine' | 'dependency';
  /** Printed by any process that imports the engine (another engine's workers too): it never tells a start apart. */
  printedOnImport?: true;
}

/** An engine's own line shape, with the releases that print it and sample lines the catalogue test checks. */
export interface LineRule {
  pattern: RegExp;
  /** The releases that print this shape; absent = every release the engine folder knows. */
  releases?: Releases;
  samples: readonly string[];
}

/** A phase in which an error that names no class of its own is the failure of that step of the start. */
export interface PhaseStep {
  phase: PhaseId;
  class: DiagnosisClass;
  label: string;
}

/**
 * A traceback frame that places the error below it in one step of the start (a function of the engine's warm-up):
 * an error that names no class of its own takes the step's class. Checked by its samples: a function name is no
 * logged string, so no catalogue holds it.
 */
export interface FrameContext {
  class: DiagnosisClass;
  /** What failed, put before the error's own summary. */
  label: string;
  /** Matches the frame in a traceback (`line N, in f`) and in a faulthandler dump (`line N in f`). */
  pattern: RegExp;
  /** A literal every frame it matches contains (the diagnoser's prefilter). */
  needle: string;
  /** The errors it gives a class to, where not every one (a setting's checks raise ValueError, not RuntimeError). */
  errors?: RegExp;
  samples: readonly string[];
}

/** A notice the engine (or a library) prints of a condition any later failure with no class of its own comes from
 * (vLLM's `No platform detected`: torch sees no GPU): that failure takes its class. */
export interface NoticeContext extends LineRule {
  class: DiagnosisClass;
  /** What the notice says of the start, put before the error's own summary. */
  label: string;
  /** A literal every line it matches contains (the diagnoser's prefilter). */
  needle: string;
}

/** A line that shows the server was asked to stop (a signal, Ctrl-C), not that it failed. */
export interface StopRule extends LineRule {
  /** A literal every line it matches contains (searched for in every part of a log). */
  needle: string;
}

/** How a parser reads argv: plain argparse, vLLM's flexible argparse, or a Rust clap launcher. */
export type FlagDialect = 'argparse' | 'flexible' | 'clap';

/** A purpose two engines spell differently (`tensor parallelism`: --tensor-parallel-size / --tp-size). */
export interface FlagPurpose {
  purpose: string;
  /** This engine's spellings, preferred first. */
  options: readonly string[];
  /** What differs in this engine's reading of it, said to a user of another engine. */
  note?: string;
}

/** What a preflight check on an unknown option may ask of the engine. */
export interface UnknownOptionQuery {
  /** The option string as the engine's parser saw it (`--num-speculative-tokens`). */
  option: string;
  /** As typed, before the engine's own normalisation. */
  typed: string;
  value: string | undefined;
  /** Whether the schema has this option string. */
  has: (name: string) => boolean;
}

/** A finding's worth of engine-specific reasons and suggestions. */
export interface EngineHint {
  reasons: string[];
  suggestions: string[];
  /** True when the hint names the option's cross-engine meaning itself (the generic one is then skipped). */
  explainsOrigin?: boolean;
}

/** Everything preflight knows about one engine's command line. */
export interface EngineFlags {
  /** Releases with a bundled table (data/flags/<engine>-v<version>.flags.json), oldest first. */
  bundled: readonly string[];
  /** The default table: the newest bundled release. */
  newest: string;
  /** The parser's reading of argv: plain argparse, vLLM's flexible one, or a clap launcher. */
  dialect: FlagDialect;
  /** `python -m` modules that start the server. */
  modules: readonly string[];
  /** A console script that starts the server, and the subcommand it needs (`vllm serve`), if any. */
  script: { name: string; subcommand: string | null } | null;
  /** Container image names whose entrypoint is the server (arguments follow the image). */
  images?: readonly RegExp[];
  /** The --help arguments that list every option. */
  helpArgs: readonly string[];
  /** The Python distribution to read the installed release from (`importlib.metadata.version`). */
  distribution: string | null;
  /** The release a --help text names, when it names one. */
  versionFromHelp?: (text: string) => string | null;
  /** How to save the --help text, for a hint. */
  helpHint: string;
  /** Where the server binds when the command names no host. */
  defaultBind: string;
  /** Options a later release replaced, for names the schema lacks. */
  replaced: Readonly<Record<string, readonly string[]>>;
  /** Purposes this engine spells differently from others. */
  purposes: readonly FlagPurpose[];
  /** Whether `_` reads as `-` in option names. */
  underscoreDashes: boolean;
  /** The option that names the model, when a stray positional is the model. */
  modelOption?: string;
  /** Engine-specific reasons for an unknown option (another engine's spelling of a subtle setting). */
  unknownOptionHint?: (query: UnknownOptionQuery) => EngineHint | null;
  /** The engine's own consistency checks of a parsed command (speculative decoding, ...). */
  extraChecks?: (
    parsed: ArgparseResult,
    context: { schema: FlagSchema; engineVersion: string | null },
  ) => Finding[];
  /** Rewrites argv the way the engine's own parser does before argparse sees it (vLLM's `_` and `-O3`). */
  normalizeArgv?: (schema: FlagSchema, argv: readonly string[], known: ReadonlySet<string>) => NormalizedArgv;
}

export interface EngineSpec {
  id: EngineId;
  /** The engine's name as people write it. */
  label: string;
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
  /** A line only a server taking requests prints (an access line): its start got through, even without a ready line. */
  servingLine?: RegExp;
  /** A line a server taking requests prints, but that its own warm-up can print too: it shows the start got through
   * only where the log holds no phase of a start before it (an excerpt that begins while the server runs). */
  servingWithoutStart?: RegExp;
  /** The line after which the diagnoser reads a start as up (the ready line, or the last line before serving). */
  upLine: RegExp | null;
  /** A line that says the start logs nothing once its model is set up (SGLang's offline Engine logs only errors):
   * then a caller's own progress bar (no label) that finished after the start reached `from` shows it returned. */
  quietStart?: { line: RegExp; from: PhaseId };
  /** An engine class run in the caller's process (vLLM's offline `LLM`) prints nothing once its engine is built:
   * where the log shows that class's start (`begin`, on a raw line without the `tagged` process tag of an engine
   * process of its own) and no line of the engine's HTTP server (`server`), its last start line (`done`) shows the
   * start returned to its caller. */
  inProcessStart?: { begin: RegExp; done: RegExp; server: RegExp; tagged?: RegExp };
  /** Lines that make the watcher probe at once (vLLM: `Application startup complete.`). */
  probeTriggers: RegExp[];
  /** Lines that show the process is alive but making no progress; they never reset the stall timer. */
  heartbeatLines: RegExp[];
  /** Lines that quote other text (a request's prompt, a diagnostic tool's own error): no failure is ever read in them. */
  quotedLines?: readonly LineRule[];
  /** Python's report of an uncaught exception in a thread the engine goes on without (`Exception in thread Thread-1
   * (_report_usage_worker):`, a usage-statistics reporter): the traceback below it is a notice. Python's wording,
   * not the engine's logger, so no catalogue holds it. */
  survivedThreads?: readonly RegExp[];
  /** Lines that show the server was asked to stop: after the ready line, errors below one are its shutdown. */
  stopLines?: readonly StopRule[];
  /** Phase line shapes, in phase order. */
  phaseRules: PhaseRule[];
  /** Literals of which every phase, ready and up line contains one (the diagnoser's prefilter). */
  phaseNeedles: readonly string[];
  /** Names the engine prints (paths, banners): each hit counts toward guessing the engine of a log. */
  hints: RegExp | null;
  /** The shape of the engine's own log lines where another program may print it too (vLLM's logger format): it counts
   * toward the guess only in a log where no line names an engine. Needs no literal of its own: any line read will do. */
  weakHints?: RegExp;
  /** Literals always searched for hint lines (a hint that begins every line, like a process tag, may have none). */
  hintNeedles: readonly string[];
  /** Those of hintNeedles that only a serving server prints, line after line (SGLang's `Decode batch`): once the start
   * got through, a log file's search skips them. */
  servingHintNeedles?: readonly string[];
  /** Python (or other) package folders in traceback frames, e.g. `sglang/`. */
  framePackages: readonly string[];
  /** Traceback frames of the engine's own steps that give an unnamed error below them a class. */
  frameContexts?: readonly FrameContext[];
  /** Notices of a condition that gives a later unnamed failure its class (see NoticeContext). */
  noticeContexts?: readonly NoticeContext[];
  /** Phases in which an unnamed error is that step's failure (SGLang's warm-up requests once HTTP is up). */
  phaseSteps?: readonly PhaseStep[];
  /** Lines that end a CUDA graph capture (`Graph capturing finished in 16 secs`): an error after one is not the
   * capture's, though no later phase line came between. */
  captureEnds?: RegExp;
  /** The release a log line names (a version banner), or null. */
  versionFromLog?: (text: string) => string | null;
  /** The engine's own failure shapes. */
  signatures: readonly Signature[];
  /** Advice naming the engine's own flags. */
  advise: Advisor | null;
  /** Whether a command starts a worker that serves no HTTP API (a non-zero node rank). */
  servesNoApi?: (command: { nodeRank: number }) => boolean;
  /** Command-line knowledge; absent when vigil has no flag table for the engine. */
  flags?: EngineFlags;
  /** A path that answers 200 only after a real generation (SGLang: /health_generate); smoke tests call it. */
  generationHealthPath?: string;
  /** Where and how the engine reports speculative acceptance (src/engines/<engine>/spec.ts). */
  spec?: SpecReader;
  /** How the engine loads an EAGLE-3 drafter; absent when vigil has no description of its loader. */
  draft?: EngineDraftSupport;
}

/** An engine's EAGLE-3 drafter support: its loader by release, the key layout it names, where a command names it. */
export interface EngineDraftSupport {
  loader(version: string): DraftLoader;
  /** The release to check against when the installed one is unknown, and how to say so. */
  unknownVersion: { version: string; note: string | null };
  /** The local draft folder a server command names, if any. */
  draftFolder(parsed: ArgparseResult): { path: string; index: number; arg: string } | null;
  /** The checkpoint layout this engine's own drafters are saved in (for `vigil ckpt inspect`). */
  layout: LayoutSignature;
  /** The rename presets into and out of this engine's layout, with the config.json rewrite each needs. */
  presets?: {
    names: readonly string[];
    /** The `config.kind` values (data/ckpt/eagle3-presets.json) whose config.json rewrite this engine owns. */
    configKinds: readonly string[];
    rewriteConfig(
      source: Record<string, unknown>,
      preset: PresetConfig,
    ): { config: Record<string, unknown>; notes: string[] };
  };
}

/** A token of argv as the engine's own parser rewrote it, with the index of the typed token it came from. */
export interface NormalizedToken {
  text: string;
  /** Index in the argv given to the normaliser. */
  origin: number;
}

/** The rewritten argv, plus dotted keys whose value was missing (the engine itself crashes on those). */
export interface NormalizedArgv {
  tokens: NormalizedToken[];
  missingValue: NormalizedToken[];
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
