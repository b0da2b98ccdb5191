// Builds dist/ once when it is missing or older than src/, so tests that run bin/vigil.js see the current code.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const VIGIL_BIN = join(ROOT, 'bin', 'vigil.js');

const newest = (dir: string, ext: string): number => {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path, ext));
    else if (entry.name.endsWith(ext)) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
};

let built = false;

// Runs `tsc -p tsconfig.build.json` when src/ changed since the last build (the global setup calls it first).
export const ensureBuilt = (): void => {
  if (built) return;
  let stale: boolean;
  try {
    stale = newest(join(ROOT, 'src'), '.ts') > newest(join(ROOT, 'dist'), '.js');
  } catch {
    stale = true;
  }
  if (stale) {
    try {
      execFileSync(
        process.execPath,
        [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
        {
          cwd: ROOT,
          stdio: 'pipe',
        },
      );
    } catch (error) {
      // tsc still emits when some file has type errors; only a missing entry point is fatal.
      if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw error;
    }
  }
  built = true;
};
