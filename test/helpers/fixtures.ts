// Test fixture programs: TypeScript sources under test/fixtures/servers, transpiled once to plain JavaScript
// (cached under node_modules/.cache by content hash) so they start as fast as any Node script.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './build.ts';

const SOURCES = join(ROOT, 'test', 'fixtures', 'servers');
const CACHE = join(ROOT, 'node_modules', '.cache', 'vigil-test-fixtures');

// The path of a runnable .mjs for test/fixtures/servers/<name>.ts.
export const fixtureScript = (name: string): string => {
  const source = readFileSync(join(SOURCES, `${name}.ts`), 'utf8');
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 12);
  const out = join(CACHE, `${name}-${hash}.mjs`);
  if (existsSync(out)) return out;
  // Loaded only on a cache miss: TypeScript takes over half a second to load, in every test file that starts one.
  const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  mkdirSync(CACHE, { recursive: true });
  const temp = `${out}.${String(process.pid)}.tmp`;
  writeFileSync(temp, outputText);
  renameSync(temp, out);
  return out;
};

// The argv that runs the fixture server with these arguments.
export const serverCommand = (...args: string[]): string[] => [
  process.execPath,
  fixtureScript('server'),
  ...args,
];

// The shell wrapper that backgrounds its arguments and exits 0.
export const WRAPPER = join(SOURCES, 'wrapper.sh');
