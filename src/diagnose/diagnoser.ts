// Explains a start from its log: the root cause above the last line, through wrappers, with evidence and advice.
// Consumes lines one at a time with bounded state (first/last match per signature, a small ring of recent lines,
// the phase), so a watcher can feed it live and `vigil diagnose` can stream a file of any size through it.
import type { Diagnosis, Evidence, PhaseId } from '../events.ts';

// Evidence the diagnoser quotes always comes from the log, so it always has a line number.
type LogEvidence = Evidence & { line: number };
import { engineOfFrame, getEngine, NAMED_ENGINES } from '../engines/index.ts';
import { holdsFor, knownRelease } from '../engines/releases.ts';
import { releaseFor as releaseOf } from '../engines/known-releases.ts';
import type { EngineId, FrameContext, NoticeContext, StopRule } from '../engines/types.ts';
import type { RawLine } from '../logs/types.ts';
import { collapseRedraws, normalizeLine, visibleText, type NormalizedLine } from '../logs/normalize.ts';
import { adviseFor } from './advice.ts';
import { createWrapperPrefix } from './wrapper-prefix.ts';
import { splitJoinedLine } from '../logs/joined-lines.ts';
import { createEngineGuess } from './detect-engine.ts';
import type { DiagnosisContext, FailureFacts, Signature } from './facts.ts';
import { candidatesFor, frameOf } from './signature-index.ts';
import {
  FRAME_CONTEXTS,
  NOTICE_CONTEXTS,
  TORCH_CAPTURE_FRAME,
  TRACEBACK_HEADER,
  TRANSLATED_SIGNAL_NAMES,
  TRANSLATED_SIGNAL_REPORT,
} from './signatures.ts';
import type { Redactor } from '../redact/redactor.ts';
import {
  ALWAYS_NEEDLES,
  ERROR_NEEDLES,
  PHASE_NEEDLES,
  SERVING_HINT_NEEDLES,
  minimizeNeedles,
} from './needles.ts';
import { createLiteralMatcher } from './literal-automaton.ts';
import { EXCEPTION_CLASS, EXCEPTION_NAME_HEAD } from './exception-modules.ts';
import { CAPTURE_ENDS, QUOTED_LINES, STOP_RULES, SURVIVED_THREADS } from './engine-lines.ts';
import { describePhase } from './phase-labels.ts';
import { createStartThrough } from './start-through.ts';
import { explainSignal, signalFromExitCode, signalName, signalNumber } from './signals.ts';
import { createStartTracker, type LogStartTracker, type PhaseMark } from './tracker.ts';
import type { DiagnoseEnd, Diagnoser, DiagnoserOptions } from './types.ts';

// After the ready line only failures (and a restart) can change the diagnosis, so phase lines are no longer searched.
const BASE_NEEDLES = minimizeNeedles([...ERROR_NEEDLES, ...ALWAYS_NEEDLES]);
const ALL_NEEDLES = minimizeNeedles([...BASE_NEEDLES, ...PHASE_NEEDLES]);
const PREFILTER = createLiteralMatcher(ALL_NEEDLES);
// Each step's frame needle, found in one pass; a bit per context, so there may be at most 31 (a test checks).
const FRAME_NEEDLES = createLiteralMatcher(FRAME_CONTEXTS.map((context) => context.needle));
// A file's search, one byte automaton, costs the same with non-ASCII needles.
const FILE_NEEDLES = {
  settled: [
    ...minimizeNeedles(
      [...ERROR_NEEDLES, ...ALWAYS_NEEDLES].filter((needle) => !SERVING_HINT_NEEDLES.includes(needle)),
    ),
    ...TRANSLATED_SIGNAL_NAMES,
  ],
  all: [...ALL_NEEDLES, ...TRANSLATED_SIGNAL_NAMES],
};

// The empty literal: every line holds it.
const EVERY_LINE: readonly string[] = [''];

/** How many of the last lines are kept for evidence. */
const TAIL_LINES = 8;
/** How many lines above a failure line the diagnoser reads (the traceback frame that loaded a checkpoint). */
const CONTEXT_LINES = 3;
const MAX_PHASE_EVIDENCE = 8;
const MAX_SUPPORTING = 3;
const MAX_RANKS = 1024;

const MAX_STOPS = 16;
const TRACEBACK_HEAD = /^Traceback \(most recent call last\):/;
// Python's words between the tracebacks of one chain of exceptions: the later one carries the earlier one on.
const CHAIN_MARKER =
  /^(?:During handling of the above exception, another exception occurred|The above exception was the direct cause of the following exception):$/;
/** At most this many chain markers are kept (the last ones). */
const MAX_CHAIN_MARKERS = 64;
/** How far below its head a traceback's exception line may be. */
const MAX_TRACEBACK_LINES = 400;
/** Lines whose wrapper prefix was taken off that evidence can still quote whole (the most recent ones). */
const MAX_UNWRAPPED = 20_000;
/** Lines held at most while a wrapper prefix they show is counted toward learning (see holdOrTake). */
const MAX_HELD = 16;
type SeenFrame = { line: number; seq: number; raw: string; context: FrameContext };
/** How far below a native crash Python's faulthandler dump of the stacks may reach. */
const MAX_DUMP_LINES = 200;
/** How many frames of steps (see FRAME_CONTEXTS) are kept: half the first ones, half the most recent. */
const MAX_FRAMES = 32;
// A frame printed below a native crash, not above it: faulthandler's dump (`File "…", line 741 in f`) and a C++
// exception's stack (`frame #3: at::… + 0x4c (…)`).
const DUMP_FRAME = /", line \d+ in \w+$|^frame #\d+: /;
// A Python traceback's frame line, or its start where a paste wrapped it.
const PYTHON_FRAME_START = /^File "[^"]+", l(?:ine \d+, in \S+)?$/;

const TP_SIZE = /\btp_size=(\d+)|tensor_parallel_size['"]?[=:]\s*(\d+)|num_shard: Some\((\d+)\)/;

interface Finding {
  line: number;
  /** The order the diagnoser took it in: pieces of one joined line share a line number, not an order. */
  seq: number;
  raw: string;
  facts: FailureFacts;
  /** Printed at WARNING level (or below): a notice the server survived, not a stop. */
  nonFatal?: boolean;
  /** The quoted source line that raised a bare exception (`assert x` above `AssertionError`). */
  source?: { line: number; raw: string };
}

interface SignatureHits {
  signature: Signature;
  first: Finding;
  /** The first finding printed above warning level: a notice first, then the same error for real, is the error. */
  firstFatal?: Finding;
  last: Finding;
  count: number;
}

/** The diagnoser vigil builds: the shared contract plus what a file scanner needs to skip lines safely. */
export interface LogDiagnoser extends Diagnoser {
  /**
   * Literals a line must contain to matter now. A file scanner may skip other lines (except the last
   * {@link TAIL_LINES}); once the start reached its last phase, phase lines no longer matter.
   */
  needles(): readonly string[];
  /** How many trailing lines the diagnoser quotes; a file scanner always passes these. */
  readonly tailLines: number;
  /** How many lines above each matching line the diagnoser reads; a file scanner passes these too. */
  readonly contextLines: number;
}

// The signal that ended the server, from its signal name or its exit code (−9, 137), when either says one.
const signalOfEnd = (end: DiagnoseEnd): number | null =>
  (end.signal === null || end.signal === undefined ? null : signalNumber(end.signal)) ??
  signalFromExitCode(end.exitCode);

// A wrapper line such as `Scheduler hit an exception:` names no error of its own.
const isPointer = (signature: Signature): boolean => signature.class === 'unknown' && signature.weight < 20;
// An exception's own line, which ends a traceback: `json.decoder.JSONDecodeError: Expecting value`.
const EXCEPTION_LINE = new RegExp(
  String.raw`^(?:[\w.]+\.)?(?:${EXCEPTION_CLASS}|${EXCEPTION_NAME_HEAD}\w*(?:Exit|Interrupt))\b`,
);
// IPython's header names the exception first: `AttributeError            Traceback (most recent call last)`.
const IPYTHON_HEAD = /^\w+ +Traceback \(most recent call last\)\s*$/;
// IPython's frames: a notebook cell's, and a file's.
const CELL_FRAME = /^Cell In\[\d+\], line \d+/;
const IPYTHON_FILE_FRAME = /^File (?:~|\/|[A-Za-z]:\\).*:\d+, in /;
// A distributed transport reporting that the other end went away.
const PEER_LOST = /Connection (?:closed|reset) by peer|Connection was likely closed/;

// Source lines quoted in a traceback (`raise ValueError("...")`) repeat an error's text without being the error.
const CODE_LINE = /^\s*(?:raise|assert)\b/;
// uvicorn's own lines as a server process starts (every engine's HTTP server but TGI's is uvicorn).
const WEB_SERVER_START =
  /^(?:INFO:\s+)?(?:Started server process \[\d+\]|Waiting for application startup\.|Application startup complete\.|Uvicorn running on \S+(?: \(Press CTRL\+C to quit\))?)$/;
// Drops, in place, the items a new start at `line` forgets: those that began before it.
const keepFrom = <T>(items: T[], line: number, lineOf: (item: T) => number): void => {
  const kept = items.filter((item) => lineOf(item) >= line);
  items.length = 0;
  items.push(...kept);
};
// How many of the caller's own tracebacks (after the start got through) are remembered.
const MAX_CALLER_TRACEBACKS = 16;
// Python's report of an exception it went on past: `Exception ignored in atexit callback: <function …>`.
const IGNORED_EXCEPTION = /^Exception ignored (?:in|on|while)\b/;
// A frame of Python's exit handlers (weakref finalizers run at exit, atexit callbacks): the traceback it stands in is a
// cleanup's at interpreter exit, which Python reports and ignores, also where the paste lost its `Exception ignored` line.
const EXIT_HANDLER_FRAME =
  /^File "[^"]*\/(?:weakref|atexit)\.py", line \d+,? in (?:_exitfunc|_run_exitfuncs)$/;
// NCCL's own debug output carries its level after the library's name (`… NCCL WARN NET/OFI Initializing plugin
// failed`): a WARN is a notice NCCL survived (a plugin falling back to sockets), like any warning.
const NCCL_NOTICE = /\bNCCL (?:WARN|INFO)\b/;
const NCCL_INFO = /\bNCCL INFO\b/;
// A message that says what the program does instead (`Skipping import of cpp extensions: … undefined symbol …`,
// `…; falling back to …`) is a notice it survived, whatever its level or where the logger prints none.
const SURVIVED_WORDING =
  /^(?:Skipping|Ignoring)\b|\b(?:[Ff]all(?:ing|s) back to|will be (?:disabled|skipped|ignored)|will (?:remain|be used as) the fallback)\b/;

// Creates a diagnoser that consumes a log incrementally.
export const createDiagnoser = (options: DiagnoserOptions): LogDiagnoser => {
  const redact = options.redact ?? ((text: string) => text);
  const learn = options.redact === undefined ? undefined : (options.redact as Partial<Redactor>).learn;
  const hits = new Map<string, SignatureHits>();
  const ring: RawLine[] = [];
  // Whether the start got through (its ready line, after its first phase): a log file's search then narrows.
  const settled = (): boolean => {
    const engine = resolveEngine();
    const readyLine = through.readyFor(engine);
    const start = trackerFor(engine)?.phaseMarks()[0];
    return readyLine !== undefined && (start === undefined || start.line <= readyLine.line);
  };
  // A wrapper's prefix learned from the log (see wrapper-prefix.ts), and the lines it was taken off, as they were.
  // Learned from every line until the start got through (stopped as lines are inspected): a log file's search passes
  // them all on meanwhile, so a fed diagnoser and a file's read the same lines.
  const wrapper = createWrapperPrefix();
  const unwrapped = new Map<number, string>();
  const guess = createEngineGuess();
  const trackers = new Map<EngineId, LogStartTracker>();
  // The count of lines (pieces of joined lines) taken so far, and when each phase mark was taken (see Finding.seq).
  let seq = 0;
  const markSeq = new WeakMap<PhaseMark, number>();
  for (const spec of NAMED_ENGINES) {
    if (options.engine === 'auto' || options.engine === 'generic' || options.engine === spec.id)
      trackers.set(spec.id, createStartTracker(spec));
  }
  // The last line that ended a CUDA graph capture, by engine (see EngineSpec.captureEnds).
  const captureEndedAt = new Map<EngineId, number>();
  // Which lines showed each engine's start got through.
  const through = createStartThrough({
    startFailed: () => startFailed(),
    anyFatal: () => [...hits.values()].some((hit) => hit.firstFatal !== undefined),
    phaseMarks: (id) => trackers.get(id)?.phaseMarks(),
    onlyWebServerLines: () =>
      lastLine <= ring.length &&
      ring.every((raw) => {
        const text = normalizeLine(raw.text).text.trim();
        return text === '' || WEB_SERVER_START.test(text);
      }),
  });
  const stops: { line: number; raw: string; engine: EngineId | null; rule: StopRule }[] = [];
  const lastLineByRank = new Map<number, number>();
  // The innermost traceback frame in the few lines above a line (the ring holds them in both modes).
  const frameAbove = (line: number): string | null => {
    for (let i = ring.length - 1; i >= 0; i--) {
      const raw = ring[i];
      if (raw === undefined || raw.line >= line) continue;
      if (raw.line < line - CONTEXT_LINES) break;
      const frame = frameOf(normalizeLine(raw.text).text.trim());
      if (frame !== null) return frame;
    }
    return null;
  };
  // The quoted `raise`/`assert` source line in the few lines above a line, if any.
  const sourceAbove = (line: number): { line: number; raw: string } | null => {
    for (let i = ring.length - 1; i >= 0; i--) {
      const raw = ring[i];
      if (raw === undefined || raw.line >= line) continue;
      if (raw.line < line - CONTEXT_LINES) break;
      if (CODE_LINE.test(normalizeLine(raw.text).text)) return { line: raw.line, raw: raw.text };
    }
    return null;
  };
  let tp: number | null = null;
  let lastLine = 0;
  // The frames of steps of the start seen (see FRAME_CONTEXTS), in tracebacks and in faulthandler dumps.
  // Bounded: the first frames (the first failure is usually the cause) and the most recent ones.
  const tracedFrames: SeenFrame[] = [];
  const dumpedFrames: SeenFrame[] = [];
  // The lines that chain one traceback to the next (see CHAIN_MARKER), the last ones.
  const chainMarkers: number[] = [];
  // The first line of each notice of a condition a later unnamed failure comes from (see NOTICE_CONTEXTS).
  const notices: { line: number; raw: string; context: NoticeContext }[] = [];
  const keepFrame = (frames: SeenFrame[], line: number, raw: string, context: FrameContext): void => {
    if (frames.length >= MAX_FRAMES) frames.splice(MAX_FRAMES / 2, 1);
    frames.push({ line, seq, raw, context });
  };

  const resolveEngine = (): EngineId =>
    options.engine === 'auto' || options.engine === 'generic' ? guess.best() : options.engine;

  // The engine whose phases the log follows: the named one, else the one whose tracker saw the most phases.
  const phaseEngineFor = (engine: EngineId): EngineId | undefined => {
    if (trackers.has(engine)) return engine;
    let best: EngineId | undefined;
    let most = -1;
    for (const [id, tracker] of trackers) {
      const marks = tracker.phaseMarks().length;
      if (marks > most) [best, most] = [id, marks];
    }
    return best;
  };
  const trackerFor = (engine: EngineId): LogStartTracker | undefined => {
    const id = phaseEngineFor(engine);
    return id === undefined ? undefined : trackers.get(id);
  };

  const record = (
    signature: Signature,
    line: number,
    raw: string,
    match: RegExpExecArray,
    code: boolean,
    nonFatal: boolean,
  ): boolean => {
    const facts: FailureFacts = { ...(signature.facts?.(match) ?? {}) };
    if (signature.class === 'weight-mismatch' || signature.holdsWhen !== undefined) {
      const frame = frameAbove(line);
      if (frame !== null) facts.frame = frame;
    }
    if (signature.holdsWhen?.(facts) === false) return false;
    const finding: Finding = { line, seq, raw, facts, ...(nonFatal ? { nonFatal } : {}) };
    // A bare exception (`AssertionError` with no message) says what failed only through the line that raised it.
    if (/(?:Error|Exception)\s*$/.test(match[0]) && match.index === 0) {
      const source = sourceAbove(line);
      if (source !== null) finding.source = source;
    }
    // A quoted source line counts just below the error it raises, so the real error line wins when both are there.
    const id = code ? `${signature.id}:code` : signature.id;
    const existing = hits.get(id);
    const ranked = code ? { ...signature, weight: signature.weight - 1 } : signature;
    if (!nonFatal) for (const tracker of trackers.values()) tracker.noteFailure(line);
    if (existing === undefined) {
      const entry: SignatureHits = { signature: ranked, first: finding, last: finding, count: 1 };
      if (!nonFatal) entry.firstFatal = finding;
      hits.set(id, entry);
    } else {
      existing.last = finding;
      existing.count += 1;
      if (!nonFatal) existing.firstFatal ??= finding;
    }
    return true;
  };

  // A traceback logged as part of a warning (`WARN … Could not import X` and the traceback under it, without
  // prefixes of its own) is a notice the server survived, like the warning line itself; so is one under Python's
  // report of an exception it went on past (`Exception ignored in atexit callback: …`). One under Python's report of
  // a thread the engine goes on without (SURVIVED_THREADS) is less still: nothing in it is a finding, not even a notice.
  let survivedTraceback: { line: number; kind: 'notice' | 'thread' } | null = null;
  const survivedAt = (line: number): 'notice' | 'thread' | null =>
    survivedTraceback !== null &&
    line >= survivedTraceback.line &&
    line - survivedTraceback.line <= MAX_TRACEBACK_LINES
      ? survivedTraceback.kind
      : null;
  // A logger that prints an exception's message at error level, then its traceback (vLLM V0's `[engine.py:448]`):
  // where the log is cut inside that traceback, the message above its header is the error it lost.
  const messageAboveHeader = new Map<number, { line: number; raw: string; message: string }>();
  // A notebook's traceback whose last frame before its error is a cell (`Cell In[1], line 5`, not IPython's `File
  // ~/…/llm.py:2074, in …` of a library): the caller's own code raised it. After the engine's start got through, that
  // is no failure of the start.
  let ipythonTraceback: { line: number; lastFrame: 'cell' | 'file' | null } | null = null;
  // The caller's own tracebacks (header to error line) after the start got through: nothing in them is a finding.
  const callerTracebacks: { from: number; to: number }[] = [];
  const raisedInCell = (line: number): boolean =>
    ipythonTraceback?.lastFrame === 'cell' && line - ipythonTraceback.line <= MAX_TRACEBACK_LINES;
  const followCells = (text: string, line: number): void => {
    if (IPYTHON_HEAD.test(text)) ipythonTraceback = { line, lastFrame: null };
    else if (ipythonTraceback === null) return;
    else if (CELL_FRAME.test(text)) ipythonTraceback.lastFrame = 'cell';
    else if (IPYTHON_FILE_FRAME.test(text)) ipythonTraceback.lastFrame = 'file';
  };
  const followTracebacks = (raw: RawLine, normalized: NormalizedLine): void => {
    const header = TRACEBACK_HEAD.test(normalized.text.trim());
    followCells(normalized.text.trim(), raw.line);
    const above = header ? ring.find((line) => line.line === raw.line - 1) : undefined;
    const abovePiece = above === undefined ? undefined : normalizeLine(above.text).pieces.at(-1);
    if (above !== undefined && abovePiece?.level === 'error' && /\w/.test(abovePiece.text)) {
      messageAboveHeader.set(raw.line, {
        line: above.line,
        raw: above.text,
        message: abovePiece.text.trim(),
      });
      if (messageAboveHeader.size > 16)
        messageAboveHeader.delete(messageAboveHeader.keys().next().value ?? 0);
    }
    if (normalized.pieces.some((piece) => piece.level !== null)) survivedTraceback = null;
    else if (survivedTraceback === null && EXIT_HANDLER_FRAME.test(normalized.text.trim()))
      survivedTraceback = { line: raw.line, kind: 'notice' };
    else if (header) {
      const aboveText = abovePiece?.text.trim() ?? '';
      const kind = SURVIVED_THREADS.some((thread) => thread.test(aboveText))
        ? 'thread'
        : abovePiece?.level === 'warning' || IGNORED_EXCEPTION.test(aboveText)
          ? 'notice'
          : null;
      survivedTraceback = kind === null ? null : { line: raw.line, kind };
    }
  };

  const inspect = (raw: RawLine): void => {
    guess.observe(raw.text);
    const normalized = normalizeLine(raw.text);
    followTracebacks(raw, normalized);
    for (const piece of normalized.pieces) {
      const text = piece.text.trim();
      if (text === '') continue;
      if (
        piece.rank !== null &&
        piece.rank >= 0 &&
        (lastLineByRank.size < MAX_RANKS || lastLineByRank.has(piece.rank))
      )
        lastLineByRank.set(piece.rank, raw.line);
      if (CHAIN_MARKER.test(text)) {
        chainMarkers.push(raw.line);
        if (chainMarkers.length > MAX_CHAIN_MARKERS) chainMarkers.shift();
      }
      // The contexts whose needle the line holds, each once and in FRAME_CONTEXTS order (a needle may occur twice).
      let holds = 0;
      FRAME_NEEDLES.forEach(text, (index) => {
        holds |= 1 << index;
      });
      for (let index = 0; holds !== 0; index++, holds >>>= 1) {
        const context = FRAME_CONTEXTS[index];
        if ((holds & 1) === 0 || context === undefined || !context.pattern.test(text)) continue;
        keepFrame(DUMP_FRAME.test(text) ? dumpedFrames : tracedFrames, raw.line, raw.text, context);
      }
      for (const context of NOTICE_CONTEXTS)
        if (
          text.includes(context.needle) &&
          context.pattern.test(text) &&
          !notices.some((seen) => seen.context === context)
        )
          notices.push({ line: raw.line, raw: raw.text, context });
      const tpMatch = TP_SIZE.exec(text);
      if (tpMatch !== null) tp = Number(tpMatch[1] ?? tpMatch[2] ?? tpMatch[3]);
      through.observe(raw, piece, text);
      for (const end of CAPTURE_ENDS) {
        if (end.pattern.test(text)) captureEndedAt.set(end.id, raw.line);
        else if (text.includes('aptur') && end.running.some((pattern) => pattern.test(text)))
          captureEndedAt.delete(end.id);
      }
      if (stops.length < MAX_STOPS)
        for (const stop of STOP_RULES)
          if (raw.text.includes(stop.rule.needle) && stop.rule.pattern.test(text))
            stops.push({ line: raw.line, raw: raw.text, ...stop });
      // A line that quotes other text (a logged request's "… is not divisible by n") is never read for failures.
      if (QUOTED_LINES.some((pattern) => pattern.test(text))) continue;
      const code = CODE_LINE.test(piece.text);
      if (piece.level === null && survivedAt(raw.line) === 'thread') continue;
      if (raisedInCell(raw.line) && through.readyFor(resolveEngine()) !== undefined) {
        callerTracebacks.push({ from: ipythonTraceback?.line ?? raw.line, to: raw.line });
        if (callerTracebacks.length > MAX_CALLER_TRACEBACKS) callerTracebacks.shift();
        continue;
      }
      let matched = false;
      for (const signature of candidatesFor(text)) {
        if (signature.fallback === true && matched) continue;
        const match = signature.pattern.exec(text);
        if (match === null) continue;
        // NCCL's own INFO lines (NCCL_DEBUG=INFO) report its setup, a plugin it did not find included: never a failure.
        if (signature.fatalAtAnyLevel !== true && piece.level === 'info' && NCCL_INFO.test(raw.text))
          continue;
        matched =
          record(
            signature,
            raw.line,
            raw.text,
            match,
            code,
            signature.fatalAtAnyLevel !== true &&
              (piece.level === 'warning' ||
                piece.level === 'info' ||
                NCCL_NOTICE.test(text) ||
                SURVIVED_WORDING.test(text) ||
                (piece.level === null && survivedAt(raw.line) === 'notice')),
          ) || matched;
      }
    }
    for (const tracker of trackers.values()) {
      const before = tracker.phaseMarks().length;
      const lastBefore = tracker.phaseMarks().at(-1);
      tracker.track(raw, normalized, raw.line);
      const marks = tracker.phaseMarks();
      // A new last mark (a restart may leave as many marks as before).
      const lastAfter = marks.at(-1);
      if (lastAfter !== undefined && lastAfter !== lastBefore) markSeq.set(lastAfter, seq);
      // The server started again (a log appended to by launch after launch, or a container restarted after a crash
      // whose tail opens the log): what the earlier starts printed no longer explains this one. Rare, so the engine
      // is resolved only then.
      if (
        marks.length === 1 &&
        marks[0]?.line === raw.line &&
        (before > 0 || endedBefore(tracker, raw.line))
      ) {
        if (trackerFor(resolveEngine()) === tracker) forgetBefore(raw.line);
      }
    }
  };

  // Whether the engine said this start failed (a new start forgets it). Asked for each up or serving line, so it walks
  // the hits without copying them.
  const startFailed = (): boolean => {
    for (const entry of hits.values()) if (entry.signature.endsStart === true) return true;
    return false;
  };

  // Whether an earlier start ended in failure above a line that begins the engine's first phase (a container
  // restarted after a crash whose tail opens the log). A later phase, or no word that the start failed, is read as
  // the same start: lines of several processes interleave, and users paste the error above the log.
  const endedBefore = (tracker: LogStartTracker, line: number): boolean =>
    tracker.phaseMarks()[0]?.name === tracker.firstPhase &&
    [...hits.values()].some((entry) => entry.signature.endsStart === true && entry.last.line < line);

  const forgetBefore = (line: number): void => {
    for (const [id, entry] of hits) if (entry.last.line < line) hits.delete(id);
    through.forgetBefore(line);
    keepFrom(callerTracebacks, line, (span) => span.from);
    keepFrom(stops, line, (stop) => stop.line);
    lastLineByRank.clear();
    keepFrom(tracedFrames, line, (frame) => frame.line);
    keepFrom(dumpedFrames, line, (frame) => frame.line);
    keepFrom(notices, line, (notice) => notice.line);
  };

  // Evidence quotes a line as the file has it, with the wrapper's prefix the diagnoser took off to read it.
  const quote = (line: number, raw: string): LogEvidence => ({
    line,
    text: redact(visibleText(collapseRedraws(unwrapped.get(line) ?? raw))).trimEnd(),
  });

  // The release whose rules apply: the caller's, else the log's banner; a release newer than any vigil knows
  // takes every generation's rules.
  const releaseFor = (engine: EngineId): string | null => {
    if (engine === 'generic') return null;
    // A given release replaces detection when it is one of this engine's (under --engine auto it may name another).
    const given = releaseOf(engine, options.engineVersion);
    const named = given ?? guess.version(engine);
    if (named === null) return null;
    const newest = getEngine(engine).flags?.newest ?? null;
    return newest === null ? named : knownRelease(named, newest);
  };

  const tailEvidence = (): LogEvidence[] => ring.map((raw) => quote(raw.line, raw.text));

  const sortEvidence = (evidence: LogEvidence[]): LogEvidence[] => {
    const seen = new Set<number>();
    return evidence
      .filter((item) => (seen.has(item.line) ? false : (seen.add(item.line), true)))
      .sort((a, b) => a.line - b.line);
  };

  // Notes about ranks that stopped printing, from the other ranks' last lines (phases are keyed off rank 0).
  const rankNote = (): string => {
    if (tp !== null && tp > 1 && lastLineByRank.size < tp) {
      const missing = Array.from({ length: tp }, (_, i) => i).filter((rank) => !lastLineByRank.has(rank));
      if (missing.length > 0)
        return `; ranks that printed nothing: ${missing.map((rank) => `TP${rank}`).join(', ')}`;
    }
    if (lastLineByRank.size > 1) {
      let laggard: [number, number] | null = null;
      for (const entry of lastLineByRank) if (laggard === null || entry[1] < laggard[1]) laggard = entry;
      const zero = lastLineByRank.get(0);
      if (laggard !== null && laggard[0] !== 0 && zero !== undefined && laggard[1] < zero)
        return `; TP${laggard[0]} printed its last line earliest (line ${laggard[1]})`;
    }
    return '';
  };

  // Whether the log's last lines are a Python traceback's frames (`File "…", line N, in f` and the code under it, a
  // frame a paste wrapped in two included: `File "…/x.py", l` then `ine 743, in __init__`).
  // A frame among them not followed by its error line, nor by a line logged at another level than the traceback's
  // (the process went on).
  const endsInTraceback = (): boolean => {
    const last = ring
      .map((raw) => normalizeLine(raw.text))
      .filter((normalized) => normalized.text.trim() !== '')
      .slice(-3);
    const levelOf = (normalized: NormalizedLine): string | null =>
      normalized.pieces.find((piece) => piece.level !== null)?.level ?? null;
    const frame = last.findLastIndex((normalized) => PYTHON_FRAME_START.test(normalized.text.trim()));
    const frameLevel = frame >= 0 ? levelOf(last[frame] as NormalizedLine) : null;
    return (
      frame >= 0 &&
      last.slice(frame + 1).every((normalized) => {
        const level = levelOf(normalized);
        return !EXCEPTION_LINE.test(normalized.text.trim()) && (level === null || level === frameLevel);
      })
    );
  };

  // The line logged at error level that the log ends at (`ERROR … [engine.py:448] 'X' object has no attribute 'y'`,
  // a paste cut right below it): among the last three lines, followed only by lines of no level or of that level.
  const errorAtEnd = (): RawLine | undefined => {
    const last = ring.filter((raw) => raw.text.trim() !== '').slice(-3);
    const levels = last.map((raw) => normalizeLine(raw.text).pieces.find((piece) => piece.level !== null));
    const at = levels.findLastIndex((piece) => piece?.level === 'error' && /[A-Za-z]{3}/.test(piece.text));
    const after = levels.slice(at + 1);
    return at >= 0 && after.every((piece) => piece === undefined || piece.level === 'error')
      ? last[at]
      : undefined;
  };

  const diagnoseSilence = (
    engine: EngineId,
    end: DiagnoseEnd,
    context: DiagnosisContext,
    stopped?: { line: number; raw: string },
  ): Diagnosis => {
    const tracker = trackerFor(engine);
    const marks = tracker?.phaseMarks() ?? [];
    const phaseEvidence = marks
      .slice(-MAX_PHASE_EVIDENCE)
      .map((mark) => quote(mark.line, rawOf(mark.line, mark.text)));
    const bar = tracker?.lastBarLine ?? null;
    const evidence = sortEvidence([
      ...phaseEvidence,
      ...(bar === null ? [] : [quote(bar.line, rawOf(bar.line, bar.text))]),
      ...tailEvidence(),
      ...(stopped === undefined ? [] : [quote(stopped.line, stopped.raw)]),
    ]);
    // A bar stuck in the phase it stopped in says how far it got (`graph-capture at 0/34`).
    const progress = tracker?.phase === context.phase ? tracker.progress : null;
    const at = progress === null ? '' : ` at ${progress.done}/${progress.total}`;
    const where =
      context.phase === null
        ? 'before any startup phase was recognised'
        : `in ${describePhase(context.phase)}${at}`;
    // A start stopped as asked exits by that signal: the stop, not the exit, says what happened.
    const signal = stopped !== undefined ? null : signalOfEnd(end);
    if (signal !== null) {
      const facts: FailureFacts = { signal };
      return {
        class: 'killed',
        summary: `the server was killed by ${signalName(signal) ?? `signal ${signal}`} (signal ${signal}) ${where}, without an error in the log; ${explainSignal(signal, context.phase)}`,
        evidence,
        advice: adviseFor(engine, 'killed', facts, context),
      };
    }
    if (stopped === undefined && end.exitCode !== undefined && end.exitCode !== null) {
      return {
        class: 'unknown',
        summary: `the server exited with code ${end.exitCode} ${where} without printing a recognised error`,
        evidence,
        advice: adviseFor(engine, 'unknown', {}, context),
      };
    }
    const how =
      stopped !== undefined
        ? `the start was stopped as asked (line ${stopped.line})`
        : end.reason === 'timeout'
          ? 'the start timed out'
          : end.reason === 'stalled'
            ? 'the start stalled'
            : 'the log stopped';
    // Nothing was read (no log, or an empty one): nothing to explain it with, so no advice is made up.
    if (lastLine === 0) {
      return {
        class: 'unknown',
        summary: `${how}, and there are no log lines to explain why`,
        evidence: [],
        advice: [],
      };
    }
    // A log that ends among a traceback's frames was cut before its error line: a failure, not a hang; a frame of a
    // step of the start in that traceback tells which step failed.
    if (stopped === undefined && endsInTraceback()) {
      const framed = tracedFrames.findLast((frame) => lastLine - frame.line <= MAX_TRACEBACK_LINES);
      const cls = framed?.context.class ?? 'unknown';
      return {
        class: cls,
        summary: `${framed === undefined ? '' : `${framed.context.label}: `}the log ends inside a traceback, before its error line`,
        evidence: sortEvidence([
          ...evidence,
          ...(framed === undefined ? [] : [quote(framed.line, framed.raw)]),
        ]),
        advice: adviseFor(engine, cls, {}, context),
      };
    }
    // An error the engine logged, then nothing: the log was cut below the error it stopped at, not a hang.
    const errorLine = stopped === undefined ? errorAtEnd() : undefined;
    if (errorLine !== undefined) {
      return {
        class: 'unknown',
        summary: `the log ends at an error the engine logged (line ${errorLine.line}), which names no known cause`,
        evidence: sortEvidence([
          ...evidence.filter((item) => item.line !== errorLine.line),
          quote(errorLine.line, errorLine.text),
        ]),
        advice: adviseFor(engine, 'unknown', {}, context),
      };
    }
    const heartbeat = engine === 'generic' ? [] : getEngine(engine).heartbeatLines;
    const waiting = ring.some((raw) =>
      heartbeat.some((pattern) => pattern.test(normalizeLine(raw.text).text)),
    );
    return {
      class: 'hang',
      summary: `${how} ${where}: no error and no ready line${waiting ? '; only heartbeat lines followed (alive, no progress)' : ''}${rankNote()}`,
      evidence,
      advice: adviseFor(engine, 'hang', {}, context),
    };
  };

  // Phase marks keep the normalised text; the raw line is in the ring or was a finding, otherwise the text serves.
  const rawOf = (line: number, fallback: string): string =>
    ring.find((raw) => raw.line === line)?.text ?? phaseRaw.get(line) ?? fallback;
  const phaseRaw = new Map<number, string>();

  // Explains how the log's last start ended: a failure, a hang, a kill, or its ready line.
  const explain = (end: DiagnoseEnd): Diagnosis => {
    const engine = resolveEngine();
    const phase: PhaseId | null = end.phase ?? trackerFor(engine)?.phase ?? null;
    const release = releaseFor(engine);
    const context: DiagnosisContext = { phase, tp, engineVersion: release };
    const readyLine = through.readyFor(engine);
    const after = readyLine?.line ?? 0;
    // A stop asked for after the start got through: what fails below it is the shutdown, not a failure.
    // A stop asked for (after the ready line, if there is one): what fails below it is the shutdown. When a watcher
    // ended the start (a timeout), the stop is its own and the watcher's reason stands.
    const stop =
      readyLine === undefined && end.reason !== undefined && end.reason !== null
        ? undefined
        : stops.find(
            (found) =>
              found.line > after &&
              (found.engine === null || found.engine === engine) &&
              holdsFor(found.rule.releases, release),
          );
    const before = stop?.line ?? Number.POSITIVE_INFINITY;
    const candidates: { hits: SignatureHits; finding: Finding }[] = [];
    const byCaller = (line: number): boolean =>
      callerTracebacks.some((span) => line >= span.from && line <= span.to);
    for (const entry of hits.values()) {
      if (!holdsFor(entry.signature.releases, release)) continue;
      if (entry.signature.requestScoped === true && readyLine !== undefined) continue;
      const fatal = entry.firstFatal !== undefined && entry.firstFatal.line > after ? entry.firstFatal : null;
      const finding =
        fatal ?? (entry.first.line > after ? entry.first : entry.last.line > after ? entry.last : null);
      if (finding !== null && finding.line < before && !byCaller(finding.line))
        candidates.push({ hits: entry, finding });
    }
    // A notice printed at WARNING level (a traceback the server logged and survived, a deprecation) is never the
    // root cause when the log holds an error line, before or after it. A wrapper that only points at a traceback
    // below it (weighted under any named exception) is not such an error: when the traceback is cut off, the warning
    // is all there is.
    const anyFatal = candidates.some((c) => c.finding.nonFatal !== true && !isPointer(c.hits.signature));
    // Some shapes (a traceback without its error line) count only where the log ends inside them: not before a
    // later phase, nor before a stop (Ctrl-C's own traceback ends in `KeyboardInterrupt`); a stop after a report of
    // a death does not undo the death.
    const lastMark = trackerFor(engine)?.phaseMarks().at(-1);
    const lastPhaseLine = lastMark?.line ?? 0;
    // Lines are taken in order, so `seq` orders findings and marks, also pieces of one joined line.
    const lastPhaseSeq = lastMark === undefined ? 0 : (markSeq.get(lastMark) ?? 0);
    const endsInside = (signature: Signature, finding: Finding): boolean =>
      finding.seq > lastPhaseSeq && (stop === undefined || signature.consequence === true);
    const eligible = candidates.filter(
      (c) =>
        (c.finding.nonFatal !== true || (!anyFatal && c.finding.line >= lastPhaseLine)) &&
        (c.hits.signature.untilNextPhase !== true || endsInside(c.hits.signature, c.finding)),
    );
    candidates.length = 0;
    candidates.push(...eligible);
    candidates.sort(
      (a, b) => b.hits.signature.weight - a.hits.signature.weight || a.finding.line - b.finding.line,
    );
    // A report that a process died (a shell's bare `Killed`, an engine noticing a worker gone) after a fatal error is
    // that failure's cleanup (a launcher killing its own process tree), not its cause: the error above it explains it.
    // Another such report above it explains nothing.
    const first = candidates[0];
    // The heaviest fatal finding above the first one (or on its line: a page joined the log's lines into one, or the
    // report quotes it) that names an error of its own and passes `test`.
    const fatalAbove = (test: (signature: Signature) => boolean) =>
      first === undefined
        ? undefined
        : candidates.find(
            (c) =>
              c !== first &&
              c.finding.line <= first.finding.line &&
              c.finding.nonFatal !== true &&
              !isPointer(c.hits.signature) &&
              test(c.hits.signature),
          );
    // A report that may reach the log before the error it reports (Signature.causeMayFollow): the heaviest finding of
    // a failure of its own on its line or below it.
    const reportedBelow =
      first?.hits.signature.causeMayFollow === true
        ? candidates.find(
            (c) =>
              c !== first &&
              c.finding.line >= first.finding.line &&
              c.finding.nonFatal !== true &&
              c.hits.signature.consequence !== true &&
              c.hits.signature.class !== 'killed',
          )
        : undefined;
    const cause =
      first?.hits.signature.consequence === true
        ? (fatalAbove((signature) => signature.consequence !== true && signature.class !== 'killed') ??
          reportedBelow)
        : undefined;
    // A rank's connection closed by its peer is the peer's death, when the log shows that death above it (a GPU
    // fault, a signal): the death is the cause, not the distributed layer that noticed it.
    const peerDeath =
      cause === undefined && first !== undefined && PEER_LOST.test(first.finding.raw)
        ? fatalAbove((signature) => signature.consequence !== true && signature.class === 'killed')
        : undefined;
    const winner = cause ?? peerDeath ?? first;
    if (winner === undefined) {
      // A server stopped as asked exits with the signal's code: that is no failure either.
      if (
        readyLine !== undefined &&
        (stop !== undefined ||
          ((end.exitCode === undefined || end.exitCode === null) &&
            (end.signal === undefined || end.signal === null)))
      ) {
        const id = through.upEngine(engine);
        const shown = (id === undefined ? undefined : through.shownUp(id)) ?? readyLine;
        return {
          class: 'ready',
          summary: `${through.isCallerBar(shown.line) ? `the engine's start returned to its caller, whose own progress finished (line ${shown.line})` : `the server reached its ready line (line ${shown.line})`}${stop === undefined ? '' : `, and later stopped as asked (line ${stop.line})`}`,
          // The line that showed it got through, the last up line (it was still serving), and the stop.
          evidence: sortEvidence([
            quote(shown.line, shown.raw),
            quote(readyLine.line, readyLine.raw),
            ...(stop === undefined ? [] : [quote(stop.line, stop.raw)]),
          ]),
          advice: [],
        };
      }
      return diagnoseSilence(engine, end, context, stop);
    }
    const signature = winner.hits.signature;
    const facts = { ...winner.finding.facts };
    // The traceback frame names the engine when the log's other lines did not.
    const framed = engineOfFrame(facts.frame);
    const advisedBy = engine === 'generic' && framed !== null ? framed : engine;
    const endSignal = signalOfEnd(end);
    const killedBy = signature.weight < 40 ? endSignal : null;
    if (killedBy !== null) facts.signal = killedBy;
    // A failure that names no cause inside a step of the start takes the step's class: in the capture phase, or
    // below a frame of a step (see FRAME_CONTEXTS) in the same traceback.
    const at = winner.finding.line;
    // A traceback's header that won has no error line after it (one would outrank it): the log was cut inside the
    // traceback, and its first frame of a step tells where the start was.
    const cutTraceback = signature.class === 'unknown' && TRACEBACK_HEADER.test(winner.finding.raw.trimEnd());
    const lostMessage = cutTraceback ? messageAboveHeader.get(at) : undefined;
    if (lostMessage !== undefined) facts.value = lostMessage.message;
    // The frame of a step near the error, among the contexts `keep` accepts: above it in its traceback, below a cut
    // traceback's header (`cut`), in a later traceback of its chain (`During handling of the above exception, …`: the
    // later exception carried it on), or in Python's faulthandler dump after a native crash.
    const stepFrame = (
      keep: (context: FrameContext) => boolean,
    ): { frame: SeenFrame; cut: boolean } | undefined => {
      // The order taken tells above from below, also where frames share the error's line (a page's joined copy).
      const seqAt = winner.finding.seq;
      const isBelow = (frame: SeenFrame): boolean => frame.seq > seqAt;
      const below = (frame: SeenFrame, limit: number): boolean =>
        keep(frame.context) && isBelow(frame) && frame.line - at <= limit;
      const above = tracedFrames.findLast(
        (frame) => keep(frame.context) && frame.seq < seqAt && at - frame.line <= MAX_TRACEBACK_LINES,
      );
      if (above !== undefined) return { frame: above, cut: false };
      const cut = cutTraceback
        ? tracedFrames.findLast((frame) => below(frame, MAX_TRACEBACK_LINES))
        : undefined;
      if (cut !== undefined) return { frame: cut, cut: true };
      const later =
        tracedFrames.find(
          (frame) =>
            below(frame, MAX_TRACEBACK_LINES) &&
            chainMarkers.some((marker) => marker > at && marker < frame.line),
        ) ??
        dumpedFrames.find((frame) => below(frame, MAX_DUMP_LINES)) ??
        // An error line (its own traceback ends there), and the log ends inside a later traceback cut before its
        // error line (another rank's, raising the same): that traceback's frames are where this error broke too.
        (!cutTraceback &&
        EXCEPTION_LINE.test(normalizeLine(winner.finding.raw).text.trim()) &&
        endsInTraceback()
          ? tracedFrames.findLast(
              (frame) =>
                keep(frame.context) && isBelow(frame) && lastLine - frame.line <= MAX_TRACEBACK_LINES,
            )
          : undefined);
      return later === undefined ? undefined : { frame: later, cut: false };
    };
    // Steps with a class decide; a context of class `unknown` only says where an error that stays unknown broke
    // (vLLM's profiling run, which its capture calls too).
    const placed = stepFrame((context) => context.class !== 'unknown');
    const frameStep = placed?.frame.context;
    // A step that takes only some errors takes a cut traceback too: its error is lost, the frame is what is left.
    const inStep =
      frameStep?.errors === undefined || cutTraceback || frameStep.errors.test(winner.finding.raw)
        ? frameStep
        : undefined;
    const phaseEngine = phaseEngineFor(engine);
    const phaseStep =
      phaseEngine === undefined
        ? undefined
        : getEngine(phaseEngine).phaseSteps?.find((candidate) => candidate.phase === phase);
    // The capture phase decides only while a capture runs: after its end line, the error is a later step's.
    const inCapture = phase === 'graph-capture' || phase === 'draft-graph-capture';
    const endedAt = phaseEngine === undefined ? undefined : captureEndedAt.get(phaseEngine);
    const captureOver = inCapture && endedAt !== undefined && endedAt < at;
    // An error with no class of its own after a notice of a condition it comes from (no GPU visible) takes the
    // notice's class, wherever it broke: without a device, the first step that needs one fails.
    const notice =
      killedBy === null && signature.class === 'unknown'
        ? notices.findLast((seen) => seen.line <= at && holdsFor(seen.context.releases, release))
        : undefined;
    const step =
      notice !== undefined ||
      killedBy !== null ||
      (signature.class !== 'unknown' && signature.stepDecides !== true)
        ? undefined
        : inCapture && !captureOver
          ? TORCH_CAPTURE_FRAME
          : (inStep ?? (captureOver ? undefined : phaseStep));
    const cls = killedBy !== null ? 'killed' : (notice?.context.class ?? step?.class ?? signature.class);
    const where =
      step === undefined && cls === 'unknown'
        ? stepFrame((context) => context.class === 'unknown')
        : undefined;
    const label = notice?.context.label ?? step?.label ?? where?.frame.context.label;
    const summary =
      killedBy !== null
        ? `the server was killed by ${signalName(killedBy) ?? 'a signal'} (signal ${killedBy}); ${explainSignal(killedBy, phase)}`
        : label !== undefined
          ? `${label}: ${signature.summary(facts, context)}`
          : signature.summary(facts, context);
    // A cut traceback's header says nothing by itself: the frame below it that placed it in a step does.
    const cutFrame =
      placed?.cut === true && step === placed.frame.context
        ? placed.frame
        : where?.cut === true
          ? where.frame
          : undefined;
    const supporting = candidates
      .filter((other) => other !== winner)
      .filter(
        (other) =>
          other.hits.signature.class !== 'unknown' ||
          signature.class === 'unknown' ||
          cls === 'killed' ||
          // The error printed just above a wrapper is what it wraps (`Exception: Capture cuda graph failed`).
          (other.finding.line < at && at - other.finding.line <= 2),
      )
      .slice(0, MAX_SUPPORTING)
      .map((other) => quote(other.finding.line, other.finding.raw));
    return {
      class: cls,
      summary,
      evidence: sortEvidence([
        ...(winner.finding.source === undefined
          ? []
          : [quote(winner.finding.source.line, winner.finding.source.raw)]),
        quote(winner.finding.line, winner.finding.raw),
        // With the frame that placed a cut traceback, the message its logger printed above it.
        ...(cutFrame === undefined ? [] : [quote(cutFrame.line, cutFrame.raw)]),
        ...(lostMessage === undefined ? [] : [quote(lostMessage.line, lostMessage.raw)]),
        ...(notice === undefined ? [] : [quote(notice.line, notice.raw)]),
        ...supporting,
      ]),
      advice: adviseFor(advisedBy, cls, facts, context),
    };
  };

  // A start that got through (its decisive ready line, or a request served) did not fail: what went wrong later is
  // told in the summary, and its advice kept, but the start's class is `ready`.
  const afterServing = (diagnosis: Diagnosis, end: DiagnoseEnd): Diagnosis => {
    // A watcher that ended the start (a crash, a timeout) never saw it ready: its own probes outweigh the log's lines.
    if (end.reason !== undefined && end.reason !== null) return diagnosis;
    const id = through.upEngine(resolveEngine());
    const served = id === undefined ? undefined : through.servedFrom(id);
    // The line that showed the start got through (uvicorn's start line), where it is not the request itself.
    const shown = id === undefined ? undefined : through.shownUp(id);
    // A port taken is found when the server binds, which can come after its app started (uvicorn binds last). The
    // engine's word that its warm-up failed, after requests were answered, means the start did not get through: the
    // engine stops itself, whatever clients it answered meanwhile.
    if (
      diagnosis.class === 'ready' ||
      diagnosis.class === 'port-in-use' ||
      served === undefined ||
      [...hits.values()].some(
        (entry) =>
          entry.signature.endsStart === true &&
          entry.signature.class === 'warmup-failed' &&
          entry.last.line > served.line,
      )
    )
      return diagnosis;
    // No error after it: the log ends while the server serves (its last bar is a request's, not a step's); its last
    // lines stay the evidence.
    const silent = diagnosis.class === 'hang';
    return {
      class: 'ready',
      summary: `the server got through its start (line ${served.line}) and took requests; ${silent ? 'no error follows' : `later ${diagnosis.summary}`}`,
      evidence: sortEvidence([
        ...(shown === undefined ? [] : [quote(shown.line, shown.raw)]),
        quote(served.line, served.raw),
        ...(diagnosis.evidence as LogEvidence[]),
      ]),
      advice: silent ? [] : diagnosis.advice,
    };
  };

  // Reads one line: past a wrapper's learned prefix (quoted whole where `whole`), into the tail, and through the rules.
  const take = (input: RawLine, whole: boolean, text = wrapper.strip(input.text)): void => {
    const line = text === input.text ? input : { line: input.line, text };
    if (line !== input && whole) {
      unwrapped.set(input.line, input.text);
      if (unwrapped.size > MAX_UNWRAPPED) unwrapped.delete(unwrapped.keys().next().value ?? 0);
    }
    ring.push(line);
    if (ring.length > TAIL_LINES) ring.shift();
    seq += 1;
    if (!PREFILTER.test(line.text) && !TRANSLATED_SIGNAL_REPORT.test(line.text)) return;
    inspect(line);
    if (wrapper.learning() && settled()) wrapper.stop();
    // Keep the raw text of phase and bar lines: evidence quotes raw lines, trackers keep normalised ones.
    for (const tracker of trackers.values()) {
      if (tracker.phaseMarks().at(-1)?.line === line.line || tracker.lastBarLine?.line === line.line) {
        phaseRaw.set(line.line, line.text);
        if (phaseRaw.size > 64) phaseRaw.delete(phaseRaw.keys().next().value ?? 0);
      }
    }
  };

  // Lines held while a wrapper's prefix they show is counted but not yet learned: once it is, they are read without
  // it (a short log's first lines would be read through it otherwise); else they are read as they are, in order.
  const held: { raw: RawLine; whole: boolean }[] = [];
  const release = (): void => {
    // Called for every line once learning ended: nothing held is the common case, and costs no array.
    if (held.length === 0) return;
    for (const { raw, whole } of held.splice(0)) take(raw, whole, wrapper.strip(raw.text, false));
  };
  const holdOrTake = (raw: RawLine, whole: boolean): void => {
    if (!wrapper.learning()) {
      release();
      take(raw, whole);
      return;
    }
    const before = wrapper.learnedCount();
    const text = wrapper.strip(raw.text);
    if (wrapper.learnedCount() > before) release();
    else if (wrapper.counted() || held.length > 0) {
      held.push({ raw, whole });
      if (held.length >= MAX_HELD) release();
      return;
    }
    take(raw, whole, text);
  };

  const diagnoser: LogDiagnoser = {
    tailLines: TAIL_LINES,
    contextLines: CONTEXT_LINES,
    push(input) {
      lastLine = Math.max(lastLine, input.line);
      // A key the log itself reveals (SGLang echoes server_args) is masked wherever it appears later.
      learn?.(input.text);
      // A line that holds a log's lines joined (a page's copy) is read as those lines, each under its number.
      const pieces = splitJoinedLine(input.text);
      if (pieces === null) holdOrTake(input, true);
      else for (const text of pieces) holdOrTake({ line: input.line, text }, false);
    },
    needles() {
      if (settled()) return FILE_NEEDLES.settled;
      return wrapper.learning() ? EVERY_LINE : FILE_NEEDLES.all;
    },
    finish(end: DiagnoseEnd = {}): Diagnosis {
      release();
      return afterServing(explain(end), end);
    },
  };
  return diagnoser;
};
