// What the remote tests share: the CLI arguments that reach the test host, and ways to look inside it.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VigilEvent } from '../../src/events.ts';
import { VIGIL_BIN } from '../helpers/build.ts';
import type { TestHost } from './testhost.ts';

// A tiny server for the remote tests, written into the test host's folder: it writes its argv as JSON (ARGV_OUT),
// prints numbered warning lines (SEQ_COUNT of them, every SEQ_MS), then serves /health on PORT and prints
// "serving".
const NUMBERED_SERVER_SOURCE = `import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';

const env = process.env;
if (env.ARGV_OUT) writeFileSync(env.ARGV_OUT, JSON.stringify(process.argv.slice(2)));
const count = Number(env.SEQ_COUNT ?? 0);
const every = Number(env.SEQ_MS ?? 20);
let i = 0;
const tick = () => {
  if (i < count) {
    i++;
    console.log(\`WARNING: seq \${String(i).padStart(5, '0')}\`);
    if (env.CRASH_AFTER && i >= Number(env.CRASH_AFTER)) process.exit(7);
    setTimeout(tick, every);
    return;
  }
  if (env.CRASH_AFTER) process.exit(7);
  createServer((req, res) => {
    res.writeHead(req.url === '/health' ? 200 : 404).end('ok');
  }).listen(Number(env.PORT), '127.0.0.1', () => console.log('serving'));
};
tick();
process.on('SIGTERM', () => process.exit(0));
`;

// The server's path on the test host (the host shares this filesystem).
export const numberedServer = (host: TestHost): string => {
  const path = join(host.dir, 'numbered-server.mjs');
  if (!existsSync(path)) writeFileSync(path, NUMBERED_SERVER_SOURCE);
  return path;
};

// --host and --ssh-config for the test host.
export const hostArgs = (host: TestHost): string[] => ['--host', host.dest, '--ssh-config', host.sshConfig];

// The simulator, as the test host runs it (the same node and vigil as here: the host shares this filesystem).
export const simCommand = (port: number, ...extra: string[]): string[] => [
  process.execPath,
  VIGIL_BIN,
  'sim',
  'sglang',
  '--',
  '--model-path',
  'meta-llama/Llama-3.1-8B-Instruct',
  '--port',
  String(port),
  ...extra,
];

export const lastEvent = (events: readonly VigilEvent[]): VigilEvent | undefined => events.at(-1);

// A free-looking port on the test host (each test host is fresh, so any port in this range is free there).
let nextPort = 31000;
export const remotePort = (): number => nextPort++;

// Every process on the host with its argv, except the ones the inspection itself starts.
export const remoteProcesses = async (host: TestHost): Promise<{ pid: number; argv: string }[]> => {
  const { stdout } = await host.exec(
    'for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = "$$" ] && continue; a=$(tr "\\0" " " < $d/cmdline 2>/dev/null); [ -n "$a" ] && printf "%s %s\\n" "$p" "$a"; done',
  );
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => ({
      pid: Number(line.slice(0, line.indexOf(' '))),
      argv: line.slice(line.indexOf(' ') + 1),
    }))
    .filter((p) => !p.argv.startsWith('tr ') && !p.argv.includes('for d in /proc'));
};
