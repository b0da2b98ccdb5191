// `vigil --version` and `vigil --help` load no command; `vigil <command> --help` loads that command's module and
// not the code its action runs. Measured on the built CLI, with a module hook that lists every module loaded.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, VIGIL_BIN } from '../helpers/build.ts';
import { freePort } from '../helpers/ports.ts';
import { makeTempDir, removeTempDirs } from '../helpers/temp.ts';

let dir: string;
let hookUrl: string;

beforeAll(async () => {
  ensureBuilt();
  dir = await makeTempDir('vigil-lazy-');
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.VIGIL_TEST_MODULES, url + '\\n');
  return next(url, context);
}
`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  hookUrl = pathToFileURL(register).href;
});

// The dist/ modules `vigil ...args` loads, as paths under dist/.
const loaded = (args: string[], name: string): string[] => {
  const list = join(dir, `${name}.txt`);
  writeFileSync(list, '');
  execFileSync(process.execPath, ['--import', hookUrl, VIGIL_BIN, ...args], {
    env: { ...process.env, VIGIL_TEST_MODULES: list },
    stdio: 'pipe',
  });
  return readFileSync(list, 'utf8')
    .split('\n')
    .filter((url) => url.includes('/dist/'))
    .map((url) => url.slice(url.lastIndexOf('/dist/') + '/dist/'.length));
};

afterAll(removeTempDirs);

describe('what the CLI loads', () => {
  it('--version and --help load no command module', () => {
    for (const args of [['--version'], ['--help']]) {
      const modules = loaded(args, args[0]!.slice(2));
      expect(modules).toContain('cli/main.js');
      expect(
        modules.filter((m) => m.startsWith('cli/') && !/^cli\/(main|context|format-error)\.js$/.test(m)),
      ).toEqual([]);
      expect(modules.some((m) => !m.startsWith('cli/') && !/^(errors|exit-codes)\.js$/.test(m))).toBe(false);
    }
  });

  it('up --help loads up and its options, not the watcher', () => {
    const modules = loaded(['up', '--help'], 'up-help');
    expect(modules).toContain('cli/up.js');
    expect(modules.filter((m) => m.startsWith('cli/wait'))).toEqual([]);
    // Its options' definitions (watch/options and the engine registry they list) load; what the action runs does not.
    expect(
      modules.filter((m) => /^(probe|diagnose|flags|logs|state|watch)\//.test(m) && m !== 'watch/options.js'),
    ).toEqual([]);
    // The --host options are defined and checked without the ssh code, which loads only for a remote host.
    expect(modules.filter((m) => /^hosts\/remote\/(ssh|host|launch-script|manage-scripts)/.test(m))).toEqual(
      [],
    );
  });

  it("a watch reads only its own port's launch record, and so loads no zod", async () => {
    // Another launch's record, on another port: a watch need not check it, so the schema's library stays unloaded.
    const state = join(dir, 'state');
    mkdirSync(join(state, 'vigil', 'launches'), { recursive: true });
    writeFileSync(
      join(state, 'vigil', 'launches', 'generic-1-abcd.json'),
      JSON.stringify({ version: 1, id: 'generic-1-abcd', host: 'local', port: 1, outcome: 'ready' }),
    );
    const list = join(dir, 'up.txt');
    writeFileSync(list, '');
    const port = await freePort();
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        hookUrl,
        VIGIL_BIN,
        'up',
        '--no-preflight',
        '--port',
        String(port),
        '--output',
        'jsonl',
        '--',
        process.execPath,
        '-e',
        'process.exit(3)',
      ],
      { env: { ...process.env, VIGIL_TEST_MODULES: list, XDG_STATE_HOME: state }, encoding: 'utf8' },
    );
    // The server exits at once: the watch reports it (the port check came first).
    expect(run.stdout, run.stderr).toContain('"reason":"exited"');
    const modules = readFileSync(list, 'utf8').split('\n');
    expect(modules.some((url) => url.endsWith('/dist/state/records.js'))).toBe(true);
    expect(modules.filter((url) => url.includes('/node_modules/zod/'))).toEqual([]);
  });

  it('check --help loads check, not the flag checks', () => {
    const modules = loaded(['check', '--help'], 'check-help');
    expect(modules).toContain('cli/check.js');
    expect(modules.filter((m) => m.startsWith('flags/') || m.startsWith('cli/up'))).toEqual([]);
  });
});
