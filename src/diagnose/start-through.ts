// Which lines show each engine's start got through, for one diagnoser: its up lines, a line only a serving engine
// prints, the last line of a quiet or in-process start, a launcher's word that the server is up. A new start in the
// same log forgets what the earlier ones showed.
import { PHASE_IDS, type PhaseId } from '../events.ts';
import { NAMED_ENGINES } from '../engines/index.ts';
import type { EngineId } from '../engines/types.ts';
import type { LinePiece } from '../logs/normalize.ts';
import type { RawLine } from '../logs/types.ts';
import {
  IN_PROCESS_STARTS,
  QUIET_STARTS,
  SERVED_LINES,
  SERVED_WITHOUT_START,
  UP_LINES,
} from './engine-lines.ts';
import type { FailureFacts } from './facts.ts';

/** A line the diagnoser quotes. */
export interface LineFinding {
  line: number;
  raw: string;
  facts: FailureFacts;
}

/** What the start's other bookkeeping tells it. */
export interface StartThroughInput {
  /** Whether the engine said this start failed: after that, only a new start can come up. */
  startFailed(): boolean;
  /** Whether any failure was found, printed above warning level. */
  anyFatal(): boolean;
  /** The phase marks of an engine's start so far, or undefined where the diagnoser tracks no start of that engine. */
  phaseMarks(id: EngineId): readonly { line: number; name: PhaseId }[] | undefined;
  /** Whether every line of the log is a web server's own start line (uvicorn's `Application startup complete.`). */
  onlyWebServerLines(): boolean;
}

export interface StartThrough {
  /** Reads one piece of a line (its normalised message in `text`). */
  observe(raw: RawLine, piece: LinePiece, text: string): void;
  /** Forgets what lines above `line` showed (a new start begins there). */
  forgetBefore(line: number): void;
  /** The engine whose start the log shows up: the one given, or for a log that names none, the one its lines show. */
  upEngine(engine: EngineId): EngineId | undefined;
  /** The last line after which that engine reads the start as up (its ready line, or its last start line). */
  readyFor(engine: EngineId): LineFinding | undefined;
  /** The line quoted to show a start got through: its first decisive one (the ready line, or a line that makes the
   * watcher probe, like uvicorn's `Application startup complete.`), else its first up line. */
  shownUp(id: EngineId): (LineFinding & { decisive: boolean }) | undefined;
  /** The first line that proves the start got through: its decisive ready line, or a request served. */
  servedFrom(id: EngineId): LineFinding | undefined;
  /** Whether the line is a caller's own finished progress bar after a quiet start. */
  isCallerBar(line: number): boolean;
}

// An OpenAI API request answered, or a person reading the server's API docs: no engine sends either while it starts.
const API_SERVED = /"(?:(?:GET|POST) \/v1\/\S*|GET \/(?:docs|redoc|openapi\.json)) HTTP\/[\d.]+" 2\d\d/;
// A launcher's word that the server it started is up at its URL (`SGLang server launched at: http://…`, `vLLM engine
// successfully started at http://…`): launchers say so once the server answers them. Past tense: `Starting … server
// on http://…` and uvicorn's `running on` are said before that.
// A line that ends saying the servers are ready (`INFO: Servers are all ready!`, `✓ VLLM server is up and running!`)
// is a launcher's word too: one still waiting says so first (`Waiting for server ready...`). So is NVIDIA Dynamo's
// `Model registration succeeded; processing queued requests`: it holds clients' requests until the engine is ready.
// So is a serving wrapper's worker saying the engine it wraps for a model is built (NVIDIA Dynamo's `VllmWorker for
// MODEL has been initialized`, logged once the engine's constructor returned; its logger's name may lead). So is a
// caller's own word that the engine it built is loaded, with the time it took (`vLLM Engine loaded in 140.8s`). So is
// a serving benchmark's word that its test request came back (`Initial test run completed. Starting main benchmark
// run...`, both engines' benchmark clients), pasted from the same terminal.
const LAUNCHER_SAYS_UP =
  /^Model registration succeeded; processing queued requests\b|^Initial test run completed\. Starting main benchmark run\b|^\W{0,3}(?:\w+ )?(?:[Ee]ngine|LLM) (?:loaded|initiali[sz]ed) in [\d.]+ ?(?:s|secs?|seconds)\b|^(?:[\w.]+: )?\w*Worker for \S+ has been initiali[sz]ed$|\b(?:[Ss]erver|[Ee]ngine)\b[^.!?]{0,40}?\b(?:launched|started|is (?:up|ready|running))\b:? (?:at|on):? https?:\/\/\S+|(?:^\W{0,3}|: |\] )(?:[Aa]ll |[Tt]he |[\w-]+ )?(?:[Ss]ervers are|[Ss]erver is) (?:all |now )?(?:ready|up and running)[.!]?$/;

// Creates the bookkeeping for one diagnoser.
export const createStartThrough = (input: StartThroughInput): StartThrough => {
  const ready = new Map<EngineId, LineFinding>();
  const shownUp = new Map<EngineId, LineFinding & { decisive: boolean }>();
  const servedFrom = new Map<EngineId, LineFinding>();
  // The line of the first OpenAI API request answered (every engine serves /v1/*; none sends one while it starts).
  let apiServedLine: number | null = null;
  // Quiet starts (see EngineSpec.quietStart), by engine: the line that said so.
  const quietSince = new Map<EngineId, number>();
  // In-process starts (see EngineSpec.inProcessStart), by engine: whether the log showed one begin, and a server.
  const inProcessBegun = new Map<EngineId, number>();
  const serverSeen = new Map<EngineId, number>();
  const callerBars = new Set<number>();

  // A caller's own finished bar (no label) in a quiet start past its `from` phase: the engine returned to its caller.
  const callerWentOn = (id: EngineId, from: PhaseId): boolean => {
    const since = quietSince.get(id);
    const marks = input.phaseMarks(id) ?? [];
    return (
      since !== undefined &&
      (marks[0]?.line ?? Number.POSITIVE_INFINITY) <= since &&
      marks.some((mark) => PHASE_IDS.indexOf(mark.name) >= PHASE_IDS.indexOf(from))
    );
  };

  // A line that shows an engine's start got through without being its ready line (a caller's own progress after a
  // quiet start, a launcher's word): up, and serving, from there, unless an earlier line already said so.
  const gotThrough = (id: EngineId, raw: RawLine): void => {
    const found = { line: raw.line, raw: raw.text, facts: {} };
    if (!ready.has(id)) ready.set(id, found);
    if (!servedFrom.has(id)) servedFrom.set(id, found);
    if (!shownUp.has(id)) shownUp.set(id, { ...found, decisive: false });
  };

  const upEngine = (engine: EngineId): EngineId | undefined =>
    engine !== 'generic'
      ? engine
      : // A log of unknown engine counts only a decisive ready line or an API request answered: a web server's own
        // start line (uvicorn's `Application startup complete.`), its health answers and warm-up requests come before
        // some engines are ready.
        (
          NAMED_ENGINES.find((spec) => spec.readyLine !== null && shownUp.get(spec.id)?.decisive === true) ??
          (apiServedLine === null
            ? // A log of nothing but the web server's start lines (a paste of them alone): an engine whose start
              // ends there (no ready line of its own) is up. An engine with a ready line of its own would have
              // printed more by the time a user pasted it.
              input.onlyWebServerLines()
              ? NAMED_ENGINES.find(
                  (spec) => spec.readyLine === null && shownUp.get(spec.id)?.decisive === true,
                )
              : undefined
            : // The engine whose own lines showed the start up first (uvicorn's start line before the requests).
              NAMED_ENGINES.filter(
                (spec) => spec.servingLine !== undefined && servedFrom.has(spec.id) && ready.has(spec.id),
              ).sort(
                (a, b) =>
                  (shownUp.get(a.id)?.line ?? Number.POSITIVE_INFINITY) -
                  (shownUp.get(b.id)?.line ?? Number.POSITIVE_INFINITY),
              )[0])
        )?.id;

  return {
    observe(raw, piece, text) {
      for (const { id, pattern, decisive } of UP_LINES) {
        // After the engine's word that this start failed, only a new start can come up: an access line then is a
        // wrapper's (a launcher answering that the model failed to load).
        if (!pattern.test(text) || input.startFailed()) continue;
        const found = { line: raw.line, raw: raw.text, facts: {} };
        ready.set(id, found);
        const shown = shownUp.get(id);
        if (shown?.decisive !== true) {
          const isDecisive = decisive.some((line) => line.test(text));
          if (shown === undefined || isDecisive) shownUp.set(id, { ...found, decisive: isDecisive });
        }
      }
      for (const quiet of QUIET_STARTS) {
        if (quiet.line.test(text)) quietSince.set(quiet.id, raw.line);
        const bar = piece.bar;
        if (bar === null || bar.label !== '' || bar.total === 0 || bar.done !== bar.total) continue;
        if (!callerWentOn(quiet.id, quiet.from) || input.startFailed()) continue;
        callerBars.add(raw.line);
        gotThrough(quiet.id, raw);
      }
      for (const start of IN_PROCESS_STARTS) {
        if (start.server.test(text)) serverSeen.set(start.id, raw.line);
        else if (start.begin.test(text) && start.tagged?.test(raw.text) !== true)
          inProcessBegun.set(start.id, raw.line);
        else if (
          start.done.test(text) &&
          inProcessBegun.has(start.id) &&
          !serverSeen.has(start.id) &&
          !input.startFailed()
        ) {
          const found = { line: raw.line, raw: raw.text, facts: {} };
          ready.set(start.id, found);
          if (!shownUp.has(start.id)) shownUp.set(start.id, { ...found, decisive: false });
        }
      }
      if (LAUNCHER_SAYS_UP.test(text) && !input.startFailed())
        for (const spec of NAMED_ENGINES) gotThrough(spec.id, raw);
      if (apiServedLine === null && API_SERVED.test(text)) apiServedLine = raw.line;
      for (const { id, lines } of SERVED_LINES)
        if (!servedFrom.has(id) && lines.some((line) => line.test(text)) && !input.startFailed())
          servedFrom.set(id, { line: raw.line, raw: raw.text, facts: {} });
      // Such a line shows serving only in an excerpt that begins while the server runs: no start, and no failure.
      for (const { id, pattern } of SERVED_WITHOUT_START)
        if (
          !servedFrom.has(id) &&
          pattern.test(text) &&
          input.phaseMarks(id)?.length === 0 &&
          !input.anyFatal()
        )
          servedFrom.set(id, { line: raw.line, raw: raw.text, facts: {} });
    },
    forgetBefore(line) {
      for (const [id, found] of ready) if (found.line < line) ready.delete(id);
      for (const [id, found] of shownUp) if (found.line < line) shownUp.delete(id);
      for (const [id, found] of servedFrom) if (found.line < line) servedFrom.delete(id);
      if (apiServedLine !== null && apiServedLine < line) apiServedLine = null;
      // What an earlier start showed of itself (quiet, in-process, a server) says nothing of this one.
      for (const marks of [quietSince, inProcessBegun, serverSeen])
        for (const [id, at] of marks) if (at < line) marks.delete(id);
    },
    upEngine,
    readyFor(engine) {
      const id = upEngine(engine);
      return id === undefined ? undefined : ready.get(id);
    },
    shownUp: (id) => shownUp.get(id),
    servedFrom: (id) => servedFrom.get(id),
    isCallerBar: (line) => callerBars.has(line),
  };
};
