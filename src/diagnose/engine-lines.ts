// The lines of every engine the diagnoser reads beside failures, gathered once from the registry: lines that show a
// start got through or served, quiet and in-process starts, capture ends, stops asked for, lines that quote other
// text and threads the engine goes on without.
import { NAMED_ENGINES } from '../engines/index.ts';
import type { EngineId, StopRule } from '../engines/types.ts';

/** Each engine's ready and serving lines: the first one shows its start got through. */
export const SERVED_LINES = NAMED_ENGINES.map((spec) => ({
  id: spec.id,
  lines: [spec.readyLine, spec.servingLine].filter(
    (line): line is RegExp => line !== null && line !== undefined,
  ),
})).filter((entry) => entry.lines.length > 0);

/** Lines that show serving only in an excerpt that begins while the server runs (EngineSpec.servingWithoutStart). */
export const SERVED_WITHOUT_START = NAMED_ENGINES.flatMap((spec) =>
  spec.servingWithoutStart === undefined ? [] : [{ id: spec.id, pattern: spec.servingWithoutStart }],
);

/** Each engine's up line, with the lines among them that decide (its ready line, and lines that make a watcher probe). */
export const UP_LINES = NAMED_ENGINES.flatMap((spec) =>
  spec.upLine === null
    ? []
    : [
        {
          id: spec.id,
          pattern: spec.upLine,
          decisive: [...(spec.readyLine === null ? [] : [spec.readyLine]), ...spec.probeTriggers],
        },
      ],
);

/** Starts that log nothing once their model is set up (EngineSpec.quietStart). */
export const QUIET_STARTS = NAMED_ENGINES.flatMap((spec) =>
  spec.quietStart === undefined ? [] : [{ id: spec.id, ...spec.quietStart }],
);

/** Engines run in the caller's process (EngineSpec.inProcessStart). */
export const IN_PROCESS_STARTS = NAMED_ENGINES.flatMap((spec) =>
  spec.inProcessStart === undefined ? [] : [{ id: spec.id, ...spec.inProcessStart }],
);

/** Lines that end a CUDA graph capture, with the capture lines that open or continue one (EngineSpec.captureEnds). */
export const CAPTURE_ENDS = NAMED_ENGINES.flatMap((spec) =>
  spec.captureEnds === undefined
    ? []
    : [
        {
          id: spec.id,
          pattern: spec.captureEnds,
          running: spec.phaseRules
            .filter((rule) => rule.phase === 'graph-capture' || rule.phase === 'draft-graph-capture')
            .map((rule) => rule.pattern),
        },
      ],
);

// Ctrl-C in any Python server: the exception line of the traceback it prints, the terminal's echo, a child it ended;
// abseil's banner for SIGTERM or SIGINT (Ray and other native code) in any process.
const GENERIC_STOPS: StopRule[] = [
  { pattern: /^KeyboardInterrupt\b/, needle: 'KeyboardInterrupt', samples: [] },
  // A terminal echoes Ctrl-C as `^C` at the start of the line, before whatever the server prints next.
  {
    pattern: /^\^C/,
    needle: '^C',
    samples: ['^CINFO 09-23 17:54:16 multiproc_worker_utils.py:136] Terminating'],
  },
  // A child process (a GPU check, a compile) ended by Ctrl-C: the keyboard's signal reached the whole process group.
  {
    pattern: /CalledProcessError: Command .* died with <Signals\.SIGINT: 2>/,
    needle: 'Signals.SIGINT',
    samples: [
      "subprocess.CalledProcessError: Command '['python', 'check.py']' died with <Signals.SIGINT: 2>.",
    ],
  },
  // The banner loses its `***` where a paste's Markdown took it for emphasis.
  { pattern: /^(?:\*{1,3} ?)?SIG(?:TERM|INT) received at time=/, needle: 'received at time', samples: [] },
];

/** Lines that show a stop was asked for, each with the engine whose rule it is (null: any engine's). */
export const STOP_RULES: readonly { engine: EngineId | null; rule: StopRule }[] = [
  ...GENERIC_STOPS.map((rule) => ({ engine: null, rule })),
  ...NAMED_ENGINES.flatMap((spec) => (spec.stopLines ?? []).map((rule) => ({ engine: spec.id, rule }))),
];

/** Lines that quote other text (a request's prompt, a diagnostic tool's own error): no failure is read in them. */
export const QUOTED_LINES: readonly RegExp[] = NAMED_ENGINES.flatMap((spec) =>
  (spec.quotedLines ?? []).map((rule) => rule.pattern),
);

/** Threads whose uncaught exception the engine survives (see EngineSpec.survivedThreads). */
export const SURVIVED_THREADS: readonly RegExp[] = NAMED_ENGINES.flatMap(
  (spec) => spec.survivedThreads ?? [],
);
