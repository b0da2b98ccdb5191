// Line prefixes that wrap a server's own message (docs/engines/log-patterns.md): container and CI
// wrappers outside, the engine's own timestamp/rank/level prefix inside. Stripped for matching only.

export type LineLevel = 'debug' | 'info' | 'warning' | 'error';

/** A message with its prefixes removed, and what the prefixes said. */
export interface StrippedLine {
  text: string;
  /** The rank that printed the line (SGLang `TPn`, vLLM `rank=n` / `_TPn`, torch `[rankN]`); null when untagged. */
  rank: number | null;
  level: LineLevel | null;
}

interface PrefixRule {
  pattern: RegExp;
  /** The line starts it can match (see classOf): `t` dates, `d` digits, `v` level words, `u` upper, `l` lower case,
   * `n` letters beyond ASCII. */
  first: string;
  /** A literal the line must contain before the (costlier) pattern is tried. */
  needs?: string;
  rank?: (match: RegExpExecArray) => number | null;
  level?: (match: RegExpExecArray) => LineLevel | null;
}

const LEVELS: Record<string, LineLevel> = {
  TRACE: 'debug',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warning',
  WARNING: 'warning',
  ERROR: 'error',
  CRITICAL: 'error',
  FATAL: 'error',
};

/** The level a log level word names (`WARN`, `error`), or null. */
export const levelOf = (name: string | undefined): LineLevel | null =>
  name === undefined ? null : (LEVELS[name.toUpperCase()] ?? null);

// A one-letter level (`[W930 …]`, `[UC][W] `): E and F are errors, W a warning, any other letter info.
const levelOfLetter = (letter: string | undefined): LineLevel =>
  letter === 'E' || letter === 'F' ? 'error' : letter === 'W' ? 'warning' : 'info';

// A process tag such as `(EngineCore_DP0 pid=441)` or `(VllmWorker rank=3 pid=406)` → its rank, when it names one.
const rankOfTag = (tag: string): number | null => {
  const explicit = /\brank=(\d+)/.exec(tag) ?? /(?:^|[_ (])TP(\d+)/.exec(tag);
  if (explicit !== null) return Number(explicit[1]);
  // vLLM V0 worker processes are the non-zero ranks; the driver prints untagged lines.
  if (/VllmWorkerProcess|RayWorkerWrapper/.test(tag)) return -1;
  return null;
};

const rankOfSglangTags = (tags: string | undefined): number | null => {
  if (tags === undefined || tags === '') return null;
  const tp = /\bTP(\d+)/.exec(tags);
  return tp === null ? null : Number(tp[1]);
};

const DATE = String.raw`\d{4}-\d{2}-\d{2}`;
const TIME = String.raw`\d{2}:\d{2}:\d{2}`;

// Ordered: each rule is tried at the start of what is left; the loop strips until none applies.
const RULES: PrefixRule[] = [
  // A log quoted in an issue or chat: `> ` quote markers and `**` bold markers in front of each line.
  { first: '>*', pattern: /^(?:>[ \t]?|\*\*)/ },
  // Python's traceback of an exception group draws each sub-exception's lines behind a `| ` margin, nested groups
  // behind more (`  |   File "…"`, `    | ValueError: …`), and opens it with `  + Exception Group Traceback …`.
  { first: '|+', pattern: /^(?:\|(?: |$)|\+ (?=Exception Group Traceback))/ },
  // pytest's failure report marks the exception's lines with `E` in the margin: `E       RuntimeError: …`.
  { first: 'u', pattern: /^E {3,}(?=\S)/ },
  // IPython's traceback marks the source line that raised with an arrow and its number: `---> 1228 assert …`.
  { first: '-', pattern: /^-*> \d+ / },
  // Parent-process Python logging: `2025-03-07 23:50:27,531 - __main__ - INFO - `.
  {
    first: 't',
    pattern: new RegExp(String.raw`^${DATE}[ T]${TIME}(?:[,.]\d+)? - [\w.]+ - ([A-Z]+) - `),
    level: (m) => levelOf(m[1]),
  },
  // A Python logger configured as `asctime name process levelname` (Xinference):
  // `2025-06-06 17:54:18,316 xinference.api.restful_api 15545 ERROR    `.
  {
    first: 't',
    pattern: new RegExp(
      String.raw`^${DATE} ${TIME}(?:[,.]\d+)? [A-Za-z_][\w.]* \d+ (DEBUG|INFO|WARNING|ERROR|CRITICAL) +`,
    ),
    level: (m) => levelOf(m[1]),
  },
  // Container UI / loguru: `2025-04-29 22:14:28.456 | ` and `2024-04-27 10:13:05 | ERROR | stderr | `.
  {
    first: 't',
    pattern: new RegExp(String.raw`^${DATE}[ T]${TIME}(?:[,.]\d+)? \| (?:([A-Z]+) +\| [\w.:-]+ +\| )?`),
    level: (m) => levelOf(m[1]),
  },
  // Rust's tracing (TGI, NVIDIA Dynamo): `2024-03-06T17:53:31.052444Z ERROR shard-manager: text_generation_launcher: `,
  // `…Z  INFO dynamo_llm::block_manager::worker: ` (a span, then the target's module path, then a source file); a
  // platform's log view may cut the fraction and the zone (`2024-08-11T08:31:15.18 INFO …`). A worker relaying a
  // child's output names the child (`…::worker: VLLM: `) and logs at INFO every line it finds no level in: that INFO
  // is the relay's default, not the child's word, so such a line has no level.
  {
    first: 't',
    pattern: new RegExp(
      String.raw`^${DATE}T${TIME}(?:\.\d+)?Z?\s+(TRACE|DEBUG|INFO|WARN|ERROR)\s+(?:[\w-]+: )?(?:[a-z_]\w*(?:::\w+)*: )?(?:[\w/.-]+\.rs:\d+: )?(?:([A-Z][A-Z0-9_]{2,15}): )?`,
    ),
    level: (m) => (m[2] !== undefined && m[1] === 'INFO' ? null : levelOf(m[1])),
  },
  // Google Cloud Logging as copied from its explorer: `ERROR 2025-04-07T19:13:52.317869663Z ` (severity first).
  {
    first: 'vu',
    pattern: new RegExp(
      String.raw`^(DEFAULT|DEBUG|INFO|NOTICE|WARNING|ERROR|CRITICAL|ALERT|EMERGENCY) ${DATE}T${TIME}(?:\.\d+)?Z(?:\s+|$)`,
    ),
    level: (m) => levelOf(m[1]),
  },
  // Buildkite `[2025-01-01T00:00:00Z] `, kubectl --timestamps / CloudWatch / GitHub Actions ISO stamps.
  { first: '[', pattern: new RegExp(String.raw`^\[${DATE}T${TIME}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]\s?`) },
  // containerd's CRI log files (what the kubelet keeps on the node): `2026-01-05T10:00:00.123456789Z stdout F `.
  {
    first: 't',
    pattern: new RegExp(
      String.raw`^${DATE}T${TIME}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?(?:\s+(?:stdout|stderr) [FP](?: |$)|\s+|$)`,
    ),
  },
  // The systemd journal and syslog: `Aug 18 14:15:04 host python3[27876]: `, the month in the host's language
  // (`авг 18 …`).
  {
    first: 'un',
    pattern: new RegExp(
      String.raw`^[^\s\d]{3,5}\.? {1,2}\d{1,2} ${TIME} [\w.-]+ [^\s:[\]]{1,60}(?:\[\d+\])?: `,
    ),
  },
  // Docker Desktop: `2025-02-04 21:21:33 ` before the engine's own prefix.
  { first: 't', pattern: new RegExp(String.raw`^${DATE} ${TIME}(?:\.\d+)?(?: |$)`) },
  // docker compose: `vllm-1  | `, `deepseek-v32-exp  | `; swarm's task on its node: `llm_tgi.1.ophf8tfz@node-17    | `;
  // a bracketed container name: `[text-generation-inference] | `.
  { first: 'tdvul', pattern: /^[A-Za-z0-9][\w.-]*(?:@[\w.-]+)?\s*\| / },
  { first: '[', pattern: /^\[[A-Za-z0-9][\w.-]*\]\s*\| / },
  // A supervisor naming the program and stream of each line: `vLLM STDOUT: `, `server STDERR | `, or only the
  // stream (`STDERR: `, a notebook relaying a server it started).
  { first: 'vul', needs: 'STD', pattern: /^(?:[A-Za-z][\w.-]{0,40} )?STD(?:OUT|ERR)(?::| \|) ?/ },
  // TorchServe / GPUStack model log wrappers.
  { first: '*', pattern: /^.{0,200}?\bMODEL_LOG - /, needs: 'MODEL_LOG - ' },
  // SGLang: `[2025-09-11 10:25:43 TP0] `, `[… DP2 TP2 EP2] `, `[23:17:01 TP7] `, `[12-16 14:27:10] `.
  {
    first: '[',
    pattern: new RegExp(
      String.raw`^\[(?:\d{4}-)?(?:\d{2}-\d{2} )?${TIME}(?:[.,]\d+)?((?: (?:[A-Z_]*DP|TP|EP|PP|CP)\d+)*)\] `,
    ),
    rank: (m) => rankOfSglangTags(m[1]),
  },
  // A pod's or container's name that a log collector (or a hand) put before vLLM's process tag:
  // `kserve-container (EngineCore_0 pid=58) `. Only before such a tag: a bare word is a message anywhere else.
  {
    first: 'tdul',
    needs: ' pid=',
    pattern: /^[A-Za-z0-9][\w.-]{0,62} (?=\([^()]{1,80}? pid=\d+[^()]{0,60}\) )/,
  },
  // A colour code whose ESC byte a paste dropped, after a wrapper (at a line's start stripAnsi removes it), and the
  // process tag it colours: `[server] [36m(run pid=28)[0m ValueError: …`.
  {
    first: '[',
    pattern: /^\[\d{1,3}(?:;\d{1,3})*m(?:\(([^()]{1,80}? pid=\d+[^()]{0,60})\)\[\d{1,3}(?:;\d{1,3})*m ?)?/,
    rank: (m) => (m[1] === undefined ? null : rankOfTag(m[1])),
  },
  // vLLM process tags, possibly nested: `(EngineCore_0 pid=675221) (VllmWorker TP0 pid=675227) `.
  { first: '(', pattern: /^\(([^()]{1,80}? pid=\d+[^()]{0,60})\) /, rank: (m) => rankOfTag(m[1] ?? '') },
  // The same tags without their pid, as log collectors that drop pids print them: `(APIServer) `, `(EngineCore_DP0) `,
  // and the level alone after one, where a post cut vLLM's stamp and location too: `(Worker_PP1) ERROR KeyError: …`.
  {
    first: '(',
    pattern:
      /^\(((?:APIServer|EngineCore|VllmWorker|Worker)(?:[_ ][\w ]{1,40})?)\) (?:(DEBUG|INFO|WARNING|ERROR|CRITICAL) (?!\d{2}-\d{2} |\d{4}-))?/,
    rank: (m) => rankOfTag(m[1] ?? ''),
    level: (m) => levelOf(m[2]),
  },
  // vLLM level + time + location: `INFO 11-24 11:44:17 [gpu_worker.py:348] `, with a path in newer releases
  // (`[entrypoints/launcher.py:46]`), ≤0.7 `INFO 04-27 10:13:05 llm_engine.py:275] `, and with the year where a
  // deployment's logging config asks for it (`ERROR 2025-10-25 15:32:13.272 [multiproc_executor.py:597] `).
  {
    first: 'v',
    pattern: new RegExp(
      String.raw`^(DEBUG|INFO|WARNING|ERROR|CRITICAL) (?:\d{4}-)?\d{2}-\d{2} ${TIME}(?:\.\d+)? (?:\[[\w./-]+:\d+\]|[\w.-]+:\d+\])(?: |$)`,
    ),
    level: (m) => levelOf(m[1]),
  },
  // SGLang 2026: `INFO server_args.py:1974: `.
  {
    first: 'v',
    pattern: /^(DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.-]+\.py:\d+: /,
    level: (m) => levelOf(m[1]),
  },
  // A prefix shortened by hand in a post, its time elided: `INFO ... [core.py:105] `, `INFO … `.
  {
    first: 'v',
    pattern: /^(DEBUG|INFO|WARNING|ERROR|CRITICAL) (?:\.{3}|…) (?:\[[\w./-]+:\d+\] )?/,
    level: (m) => levelOf(m[1]),
  },
  // uvicorn: `INFO:     `, `ERROR:    `.
  { first: 'v', pattern: /^(DEBUG|INFO|WARNING|ERROR|CRITICAL):\s+/, level: (m) => levelOf(m[1]) },
  // NCCL's own notices: `gx10-3fe8:462:462 [0] NCCL INFO ncclOsDlopen(libnccl-env.so) failed: …` (host:pid:tid
  // [gpu]). Its `NCCL WARN` lines keep their prefix: the failure rules read them whole.
  {
    first: 'tdvul',
    needs: ' NCCL INFO ',
    pattern: /^[\w.-]+:\d+:\d+ \[\d+\] NCCL INFO /,
    level: () => 'info',
  },
  // glog (Triton Inference Server, abseil-based programs): `E1115 02:58:51.162611 1 backend_model.cc:634] `, and
  // torch's logging in its format (`E0716 18:21:22.792000 132331 torch/_inductor/runtime/triton_heuristics.py:874] `,
  // with torch.compile's frame id after it: `[22/0] `). Only
  // its info level is kept: the fast paths find warning and error levels by literal (LEVEL_LITERALS), and a lone
  // letter is none; an unlevelled line counts as fatal, as an E line is.
  {
    first: 'u',
    pattern: /^([IWEF])\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+ [\w./-]+:\d+\] (?:\[\d+\/\d+(?:_\d+)?\] )?/,
    level: (m) => (m[1] === 'I' ? 'info' : null),
  },
  // torch: `[rank3]:[E421 04:13:43.426633564 ProcessGroupGloo.cpp:143] `.
  {
    first: '[',
    pattern: /^\[rank(\d+)\]:(?:\[([EWIF])\d{3,4} [\d:.]+ [\w.]+:\d+\] ?)?/,
    rank: (m) => Number(m[1]),
    level: (m) => (m[2] === 'E' || m[2] === 'F' ? 'error' : m[2] === 'W' ? 'warning' : null),
  },
  // torch's c10 logging without a rank tag: `[W930 22:06:04.754669273 ProcessGroupNCCL.cpp:1234] `, older
  // `[W socket.cpp:601] `.
  {
    first: '[',
    pattern: /^\[([EWIF])(?:\d{3,4} [\d:.]+)? [\w.]+:\d+\] ?/,
    level: (m) => levelOfLetter(m[1]),
  },
  // A bracketed time, a component tag and a one-letter level, as vllm-ascend's loggers print them:
  // `[2026-05-18 04:08:32.871874][UC][W] ` (its source place follows the message).
  {
    first: '[',
    pattern: /^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?\]\[\w{1,16}\]\[([DIWEF])\] /,
    level: (m) => levelOfLetter(m[1]),
  },
  // Ascend's plog records (CANN's runtime and device tools write them to the console too): level, module, pid and
  // process, time, source place, thread:
  // `[ERROR] RUNTIME(557,python3):2025-08-06-06:31:38.004.639 [api_c_device.cc:450]557 `,
  // `[ERROR] IDEDD(554,python3):… [adx_dsmi.cpp:54][tid:588] `.
  {
    first: '[',
    pattern:
      /^\[(ERROR|WARNING|INFO|DEBUG|EVENT)\] [A-Z][A-Z0-9_]{1,24}\(\d+,[^()]{1,60}\):\d{4}-\d{2}-\d{2}-\d{2}:\d{2}:\d{2}\.\d{3}\.\d{3} \[[\w.-]+:\d+\](?:\d+|\[tid:\d+\]) ?/,
    level: (m) => levelOf(m[1]),
  },
  // A process runner's or library's bracketed tag: `[vllm] ` (foreman-style runners), torchrun's `[default0]:`,
  // `[aiter] `, `[Gloo] `. Rules that read a tag as content (`[c10d] `, `[shutdown] `) accept the message without it.
  { first: '[', pattern: /^\[(?!rank\d)[A-Za-z][\w.-]{0,40}\](?: |:)/ },
];

const LEVEL_WORDS = ['INFO', 'DEBUG', 'WARNING', 'ERROR', 'CRITICAL'];

// A line whose prefixes name a warning or error level holds one of these: the level words the rules capture (upper
// case, see LEVELS) or torch's `]:[E…` / `]:[W…` and `[W…` / `[E…` / `[F…`. Lets a caller skip prefix parsing for lines
// that hold none.
export const LEVEL_LITERALS: readonly string[] = [
  'WARN',
  'ERROR',
  'CRITICAL',
  'FATAL',
  ']:[',
  '[W',
  '[E',
  '[F',
];

const digit = (code: number): boolean => code >= 48 && code <= 57;

// Whether a line might hold nothing but prefixes (a bare timestamp line), by how it ends. A rule's match that
// reaches the end of the line (see RULES) ends in whitespace; in a time, a fraction or a zone (ISO and Docker
// Desktop stamps: `…12:00:00`, `…00.123Z`, `…+02:00`); in `<digit>]` or `Z]` (`[…:123]`, Buildkite's `[…Z]`); or in
// torch's `]:`. Any other ending proves a message follows the prefixes.
export const mayBeOnlyPrefixes = (text: string): boolean => {
  const end = text.length - 1;
  if (end < 0) return true;
  const code = text.charCodeAt(end);
  const before = end > 0 ? text.charCodeAt(end - 1) : 0;
  if (code === 58) return before === 93; // `]:`
  if (code === 93 || code === 90) return digit(before) || (code === 93 && before === 90); // `1]` `Z]` `1Z`
  if (digit(code)) return endsInTime(text);
  if (code === 62) return /^[\s>]*$/.test(text); // a quote marker alone: `>`, `  > >`
  if (code > 32 && code < 127) return false;
  return /\s/.test(text.charAt(end));
};

// After the line's last colon only stamp characters: `…:33`, `…:33.123`, `…:00.5+0200`, `…+02:00`.
const endsInTime = (text: string): boolean => {
  const colon = text.lastIndexOf(':');
  if (colon === -1) return false;
  for (let i = colon + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // 0-9 . , + - Z
    if (!(digit(c) || c === 46 || c === 44 || c === 43 || c === 45 || c === 90)) return false;
  }
  return true;
};

// The class of a line's start: `t` a date (`2025-…`), `d` another digit, `v` a log level word's first letter,
// `u` other upper case, `l` lower case, `n` a letter beyond ASCII, or the character itself.
const classOf = (text: string): string => {
  const code = text.charCodeAt(0);
  if (code >= 48 && code <= 57) return text.charCodeAt(4) === 45 ? 't' : 'd';
  if (code >= 65 && code <= 90) return LEVEL_WORDS.some((word) => text.startsWith(word)) ? 'v' : 'u';
  if (code >= 97 && code <= 122) return 'l';
  if (code > 127 && /\p{L}/u.test(text.charAt(0))) return 'n';
  return text.charAt(0);
};

// Rules by the class of the line's start: a line is tried only against rules that can match it
// (a log line pays for a few anchored tests, not for all of them).
const BY_FIRST = new Map<string, PrefixRule[]>();
for (const key of ['t', 'd', 'v', 'u', 'l', 'n', '[', '(', '>', '*', '-', '|', '+']) {
  BY_FIRST.set(
    key,
    RULES.filter((rule) => rule.first === '*' || rule.first.includes(key)),
  );
}
const ANY_FIRST = RULES.filter((rule) => rule.first === '*');

// Strips every known prefix from the start of a line, outermost first, and keeps the rank and level they named.
export const stripPrefixes = (line: string): StrippedLine => {
  let text = line;
  let rank: number | null = null;
  let level: LineLevel | null = null;
  for (let round = 0; round < 8 && text !== ''; round++) {
    let stripped = false;
    for (const rule of BY_FIRST.get(classOf(text)) ?? ANY_FIRST) {
      if (rule.needs !== undefined && !text.includes(rule.needs)) continue;
      const match = rule.pattern.exec(text);
      if (match === null || match[0] === '') continue;
      rank = rule.rank?.(match) ?? rank;
      level = rule.level?.(match) ?? level;
      text = text.slice(match[0].length);
      stripped = true;
      break;
    }
    if (!stripped) break;
  }
  // A log pasted with an indent (a README's code block, `docker logs` quoted under a heading): the prefixes come
  // after the indent. Only when a prefix follows it, since indented lines are also traceback frames and code.
  if (/^[ \t]+\S/.test(text)) {
    const indented = stripPrefixes(text.trimStart());
    // Also after a prefix (a quote marker, then the log's indent): `>     2024-11-03T22:19:14Z  INFO …`.
    if (indented.text !== text.trimStart())
      return text === line
        ? indented
        : { text: indented.text, rank: indented.rank ?? rank, level: indented.level ?? level };
  }
  return { text, rank, level };
};
