// Fault injection for the kill -9 tests: VIGIL_CKPT_CRASH_AT=<point> makes vigil SIGKILL itself at that step of
// a rewrite, so tests can prove every intermediate state is recoverable. Unset, it does nothing.
export type CrashPoint =
  | 'after-header-copy'
  | 'mid-header-write'
  | 'after-header-write'
  | 'mid-copy'
  | 'before-swap'
  | 'after-journal'
  | 'after-first-file';

export const crashRequested = (point: CrashPoint): boolean => process.env['VIGIL_CKPT_CRASH_AT'] === point;

export const crashAt = (point: CrashPoint): void => {
  if (crashRequested(point)) process.kill(process.pid, 'SIGKILL');
};
