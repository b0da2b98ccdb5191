// A log whose lines a page joined into one (a Hugging Face Space's "Runtime error" banner, a web page's text, a chat
// that dropped the newlines): the records' own starts inside the line show where its lines were. Written by hand: the
// starts are the engines' and Python's own line shapes, which no library knows.

/** A joined line is long, and holds at least this many record starts (one of them may open it). */
const MIN_STARTS = 3;
const MIN_LENGTH = 200;

const TIME = String.raw`\d{2}:\d{2}:\d{2}`;
// Where a record starts inside the line, after a space: vLLM's level, date and place (behind its process tag); a
// bracketed stamp (SGLang's, with its rank tags); tracing's ISO stamp and level (TGI); uvicorn's `INFO:     `; a Python
// traceback's header, its frames, and `During handling …`.
const RECORD_START = new RegExp(
  [
    String.raw`(?:\([^()]{1,80}? pid=\d+[^()]{0,60}\) )?(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) (?:\d{4}-)?\d{2}-\d{2} ${TIME}`,
    String.raw`\[(?:\d{4}-\d{2}-\d{2} )?${TIME}(?:[.,]\d+)?(?: [A-Z_]*\d+)*\] `,
    String.raw`\d{4}-\d{2}-\d{2}T${TIME}(?:\.\d+)?Z? +(?:TRACE|DEBUG|INFO|WARN|ERROR) `,
    String.raw`(?:INFO|WARNING|ERROR):     `,
    String.raw`Traceback \(most recent call last\):`,
    String.raw`File "[^"]+", line \d+, in [\w<>.]+`,
    String.raw`During handling of the above exception`,
    // A process tag alone (vLLM's, before a traceback's frame or an exception: `(EngineCore_DP0 pid=5132)   File …`,
    // `(VllmWorker rank=0 pid=790)`),
    // with the colour codes a paste kept around it (their ESC, or what a page made of it); torch's glog-form warnings
    // (`[rank0]:[W1203 10:00:00.123 …]`).
    String.raw`(?:[^\s\w(]?\[[\d;]*m)?\([A-Za-z][\w.:= -]{0,40}? pid=\d+[^()]{0,60}\)(?:[^\s\w(]?\[[\d;]*m)? `,
    String.raw`(?:\[rank\d+\]:)?\[[WEIF]\d{3,4} ${TIME}`,
  ].join('|'),
  'g',
);
// NCCL's debug lines (`host:pid:tid [0] NCCL WARN …`), looked for only in a line that holds `NCCL`: their start is a
// host name, which any run of word characters could begin.
const NCCL_START = /[\w.-]{1,64}:\d+:\d+ \[\d+\] (?:[\w.]{1,64}:\d+ )?NCCL (?:INFO|WARN|ERROR)\b/g;
// A start right after a process tag and spaces belongs to the tag's record (`(EngineCore_DP0 pid=5132)   File …`).
const TAG_ONLY = /^(?:[^\s\w(]?\[[\d;]*m)?\([^()]{1,80}? pid=\d+[^()]{0,60}\)(?:[^\s\w(]?\[[\d;]*m)? +$/;
// A frame's record ends at its function's name: the source line that Python prints under it follows.
const FRAME_HEAD = /^((?:\S.*?\] )?File "[^"]+", line \d+, in [\w<>.]+) (.+)$/;
// The exception that ends a traceback, after its last source line: `… self.device_type) RuntimeError: message`.
const EXCEPTION_AFTER_CODE = / ((?:[a-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt)(?::| *$).*)$/;

// The frame's source line and, where one follows it, the exception the traceback ended in.
const splitSource = (source: string): string[] => {
  const exception = EXCEPTION_AFTER_CODE.exec(source);
  return exception === null || exception.index === 0
    ? [source]
    : [source.slice(0, exception.index), exception[1] ?? ''];
};

/** The lines a joined line held, or null for a line that is one line. */
export const splitJoinedLine = (text: string): string[] | null => {
  if (text.length < MIN_LENGTH) return null;
  const starts: number[] = [];
  // A record that opens the line counts toward the starts, though no split is made there.
  let opening = 0;
  const matches = [...text.matchAll(RECORD_START)];
  if (text.includes(' NCCL ')) {
    matches.push(...text.matchAll(NCCL_START));
    matches.sort((a, b) => a.index - b.index);
  }
  for (const match of matches) {
    if (match.index === 0) opening = 1;
    // Only a start after a space: inside a record, the same text is part of its message.
    if (match.index === 0 || text.charCodeAt(match.index - 1) !== 32) continue;
    if (TAG_ONLY.test(text.slice(starts.at(-1) ?? 0, match.index))) continue;
    starts.push(match.index);
  }
  if (starts.length + opening < MIN_STARTS) return null;
  const pieces = [0, ...starts].map((start, i) => text.slice(start, starts[i] ?? text.length).trimEnd());
  return pieces.flatMap((piece, i) => {
    const frame = FRAME_HEAD.exec(piece);
    if (frame !== null) return [frame[1] ?? '', ...splitSource(frame[2] ?? '')];
    // The last piece may end in the exception a traceback without record starts (IPython's, with `->` arrows and
    // numbered source lines) ended in.
    if (i !== pieces.length - 1) return [piece];
    const split = splitSource(piece);
    // Not where only a process tag stands before it: that is the exception's own record.
    return split.length === 2 && TAG_ONLY.test(`${split[0] ?? ''} `) ? [piece] : split;
  });
};
