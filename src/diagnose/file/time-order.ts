// Puts back in time order a log pasted newest line first: log consoles (Google Cloud Logging's explorer, CloudWatch,
// Kibana, Grafana) show the newest entry on top, and a copy of that view reads a start backwards, its failure before
// its launch. Only a log whose stamps run backwards nearly throughout is turned round.

// A date and time near a line's start (a console's own stamp, or the process's): ISO-8601, or the month and day
// without the year, as vLLM's logger prints them (`INFO 03-24 18:13:28 …`). Compared without the year.
const STAMP = /(?:\b\d{4}-)?(\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:[.,](\d{1,9}))?/;
/** How far into a line its stamp may begin. */
const STAMP_WITHIN = 80;
/** At least this many steps backwards in time, and at most one step forwards for each this many backwards; or, in a
 * short log, this fewer many and none forwards. */
const MIN_BACKWARD_STEPS = 5;
const BACKWARD_PER_FORWARD = 10;
const MIN_BACKWARD_ONLY = 3;

// A line's stamp as a comparable number of nanoseconds within its day, with the day, or null when it has none.
const stampOf = (line: string): string | null => {
  const match = STAMP.exec(line.slice(0, STAMP_WITHIN + 32));
  if (match === null || match.index > STAMP_WITHIN) return null;
  return `${match[1] ?? ''}T${match[2] ?? ''}.${(match[3] ?? '').padEnd(9, '0')}`;
};

// Whether the stamped lines run backwards in time nearly throughout.
export const isNewestFirst = (lines: readonly string[]): boolean => {
  let backward = 0;
  let forward = 0;
  let previous: string | null = null;
  for (const line of lines) {
    const stamp = stampOf(line);
    if (stamp === null) continue;
    if (previous !== null && stamp < previous) backward++;
    else if (previous !== null && stamp > previous) forward++;
    previous = stamp;
  }
  return (
    (backward >= MIN_BACKWARD_STEPS && forward * BACKWARD_PER_FORWARD <= backward) ||
    (backward >= MIN_BACKWARD_ONLY && forward === 0)
  );
};

// The 1-based line numbers of a log in time order, for a log pasted newest first: each stamped line with the
// unstamped lines below it (an entry's continuation) is one entry, and the entries are read last first.
export const timeOrder = (lines: readonly string[]): number[] => {
  const entries: number[][] = [];
  lines.forEach((line, i) => {
    const last = entries.at(-1);
    if (last === undefined || stampOf(line) !== null) entries.push([i + 1]);
    else last.push(i + 1);
  });
  return entries.reverse().flat();
};
