// What the remote tests share: the CLI arguments that reach the test host, and ways to look inside it.
import { join } from 'node:path';
import type { VigilEvent } from '../../src/events.ts';
import { ROOT, VIGIL_BIN } from '../helpers/build.ts';
import type { TestHost } from './testhost.ts';

export const NUMBERED_SERVER = join(ROOT, 'test', 'remote', 'fixtures', 'numbered-server.mjs');

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
