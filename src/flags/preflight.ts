// Preflight: check a server command's flags against the engine's CLI before anything is launched. (Implementation pending.)
import type { PreflightEvent } from '../events.ts';
import type { HostRunner } from '../hosts/types.ts';

export interface PreflightOptions {
  /** The whole server command, as the user typed it after `--`. */
  command: readonly string[];
  /** `auto` reads the entrypoint from the command. */
  engine?: 'sglang' | 'vllm' | 'auto';
  /** Validate against this `--help` text only. */
  helpFile?: string;
  /** Use no live `--help`: only --help-file or the bundled schemas. */
  offline?: boolean;
  /** Warnings block too. */
  strict?: boolean;
  /** Where the server will run (live --help and local-path checks happen there). Defaults to this machine. */
  host?: HostRunner;
  /** Directory for the live-schema cache (defaults to the vigil state dir). */
  cacheDir?: string;
  signal?: AbortSignal;
  /** Called with progress notes such as "reading SGLang's --help (first run for this version takes a while)". */
  onNote?: (message: string) => void;
}

export type PreflightReport = Omit<PreflightEvent, 't' | 'type'>;

/** The outcome: the report plus whether it blocks the launch (errors, or warnings under --strict). */
export interface PreflightOutcome {
  report: PreflightReport;
  blocked: boolean;
}

export const runPreflight = (_options: PreflightOptions): Promise<PreflightOutcome> =>
  Promise.resolve({
    report: {
      status: 'skipped',
      source: null,
      findings: [],
      skipped_reason: 'preflight is not available yet',
    },
    blocked: false,
  });
