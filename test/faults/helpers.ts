// Shared by the fault suite: what every failed start must look like, and read-only folders made with a real mount.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { VigilRun } from '../helpers/cli.ts';
import { ensureBuilt } from '../helpers/build.ts';

// Builds dist/ before the first case, so no case's own time limit pays for the build.
export const buildOnce = (): void => {
  ensureBuilt();
};

const mounts: string[] = [];

// A folder whose filesystem refuses writes: a tmpfs remounted read-only when vigil runs as root (chmod does not
// stop root), a folder without write permission otherwise. unmountAll() removes the mounts.
export const readOnlyDir = (parent: string): string => {
  const dir = join(parent, 'ro');
  mkdirSync(dir);
  if (process.getuid?.() === 0) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
    mounts.push(dir);
    execFileSync('mount', ['-o', 'remount,ro', dir]);
  } else {
    chmodSync(dir, 0o500);
  }
  return dir;
};

// A small tmpfs of `size` (e.g. 256k), for disk-full cases; unmountAll() removes it.
export const smallTmpfs = (dir: string, size: string): void => {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
  mounts.push(dir);
};

export const unmountAll = (): void => {
  for (const dir of mounts.splice(0).reverse()) {
    try {
      execFileSync('umount', ['-l', dir]);
    } catch {
      // already gone
    }
  }
};

// A failed start in human output: the given exit code, one `vigil:`/verdict line naming the fault, no stack.
export const expectCleanFailure = (run: VigilRun, code: number, pattern: RegExp): void => {
  const text = `${run.stdout}${run.stderr}`;
  expect(run.code, text).toBe(code);
  expect(text).toMatch(pattern);
  expect(text).not.toMatch(/^\s+at .+\(.+:\d+:\d+\)$/m);
  expect(text).not.toMatch(/internal error/);
};

// A failed start in jsonl: the last event is `failed` with the exit code, and nothing but events on stdout.
export const expectFailedEvent = (run: VigilRun, code: number, pattern: RegExp): void => {
  expect(run.code, run.stdout + run.stderr).toBe(code);
  const last = run.events.at(-1);
  expect(last?.type, run.stdout + run.stderr).toBe('failed');
  if (last?.type !== 'failed') return;
  expect(last.exit_code).toBe(code);
  expect(`${last.diagnosis.summary} ${last.message ?? ''}`).toMatch(pattern);
  expect(run.stderr).not.toMatch(/^\s+at /m);
};
