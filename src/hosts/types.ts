// Where commands run: this machine now, a remote host over SSH later; one interface for both.
import type { ExecOptions, ExecResult } from './exec.ts';

export interface HostRunner {
  /** `local`, or `[user@]host[:port]` for a remote host. */
  readonly name: string;
  /** Runs a short command to completion. */
  exec(argv: readonly string[], options?: ExecOptions): Promise<ExecResult>;
  /** Whether a path exists on the host (`~` expands to the host user's home). */
  pathExists(path: string): Promise<boolean>;
}
