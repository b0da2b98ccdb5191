// vigil's exit codes: the contract users script against (docs/cli.md).
export const EXIT = {
  ready: 0,
  usage: 1,
  preflight: 2,
  exited: 3,
  timeout: 4,
  stalled: 5,
  unreachable: 6,
  smoke: 7,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

// Maps the reason a start failed to vigil's exit code.
export const exitCodeForReason = (
  reason: 'preflight' | 'exited' | 'timeout' | 'stalled' | 'unreachable' | 'smoke' | 'interrupted' | 'usage',
): ExitCode => EXIT[reason];
