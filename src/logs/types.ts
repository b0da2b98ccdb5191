// Lines as the log followers hand them on.

/** One physical line of a log file, without its trailing newline; may still contain `\r` redraws and ANSI codes. */
export interface RawLine {
  /** 1-based file line number. */
  line: number;
  text: string;
}
