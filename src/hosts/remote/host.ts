// A remote host as a HostRunner (preflight's live --help and path checks run there), plus launching, the port
// test, live state and stopping: everything over one ssh master connection.
import { VigilError } from '../../errors.ts';
import type { ExecOptions, ExecResult } from '../exec.ts';
import type { HostRunner } from '../types.ts';
import {
  launchScript,
  parseLaunchReport,
  type LaunchReport,
  type LaunchScriptInput,
} from './launch-script.ts';
import {
  identifyScript,
  logsScript,
  portScript,
  statusScript,
  stopScript,
  type RemoteProcessIds,
} from './manage-scripts.ts';
import { shellJoin, shellQuote } from './quote.ts';
import { createSshTransport, type SshSettings, type SshTransport } from './ssh.ts';

export interface RemoteHostSettings extends SshSettings {
  /** `--activate CMD`: run before the server and before preflight's --help, in the same shell. */
  activate?: string;
}

export interface RemotePortCheck {
  free: boolean;
  holder: { pid: number; command: string } | null;
}

export interface RemoteStopResult {
  /** Why nothing was signalled although the record says the launch ran: the ids are someone else's now. */
  gone: 'rebooted' | 'reused' | null;
  signalled: number;
  killed: boolean;
  survivors: { pid: number; command: string }[];
}

export type RemoteState = 'alive' | 'exited' | 'rebooted' | 'reused';

export interface RemoteHost extends HostRunner {
  readonly transport: SshTransport;
  /** Opens the master connection: rejects with E_UNREACHABLE (auth, host key, timeout) before anything runs. */
  connect(options?: { signal?: AbortSignal }): Promise<void>;
  launch(input: LaunchScriptInput): Promise<LaunchReport>;
  checkPort(bindHost: string, port: number): Promise<RemotePortCheck>;
  states(launches: readonly RemoteProcessIds[]): Promise<Map<string, { state: RemoteState; pids: number[] }>>;
  stop(ids: RemoteProcessIds, graceMs: number): Promise<RemoteStopResult>;
  /** The boot id, a process's start time (null: unknown; 'gone': no such process) and a log's size. */
  identify(
    pid: number | null,
    log: string | null,
  ): Promise<{ bootId: string; starttime: number | null | 'gone'; logSize: number }>;
  /** Starts `tail` of a log; the caller reads stdout and ends stdin to stop a follow. */
  tail(path: string, lines: number, follow: boolean): ReturnType<SshTransport['start']>;
  close(): Promise<void>;
}

const lineOf = (stdout: string, prefix: string): string[] | null =>
  stdout
    .split('\n')
    .find((line) => line.startsWith(`${prefix} `) || line === prefix)
    ?.split(' ')
    .slice(1) ?? null;

export const createRemoteHost = (settings: RemoteHostSettings): RemoteHost => {
  const transport = createSshTransport(settings);
  const activation =
    settings.activate === undefined ? '' : `{\n${settings.activate}\n} >&2 </dev/null || exit 127\n`;
  const run = async (script: string, options: ExecOptions = {}): Promise<ExecResult> =>
    transport.run(script, {
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  return {
    name: transport.label,
    transport,
    exec: (argv, options = {}) =>
      run(
        `${options.cwd === undefined ? '' : `cd ${shellQuote(options.cwd)} || exit 126\n`}${activation}${shellJoin(argv)}`,
        options,
      ),
    pathExists: async (path) => {
      const home = path === '~' || path.startsWith('~/');
      const rest = home ? path.slice(1) : path;
      const result = await run(`test -e ${home ? `"$HOME"${shellQuote(rest)}` : shellQuote(rest)}`);
      return result.code === 0;
    },
    connect: async (options = {}) => {
      const result = await transport.run(
        'echo VIGIL-OK',
        options.signal === undefined ? {} : { signal: options.signal },
      );
      if (!result.stdout.includes('VIGIL-OK')) {
        throw new VigilError(
          'E_UNREACHABLE',
          `${transport.label}: the remote shell did not answer (${result.stderr.trim() || `exit ${String(result.code)}`})`,
          {
            hint: 'check that sh (or the --remote-shell) runs on the host',
          },
        );
      }
    },
    launch: async (input) => parseLaunchReport((await run(launchScript(input))).stdout),
    checkPort: async (bindHost, port) => {
      const { stdout } = await run(portScript(bindHost, port));
      const holder = lineOf(stdout, 'VIGIL-HOLDER');
      return {
        free: lineOf(stdout, 'VIGIL-PORT')?.[0] !== 'busy',
        holder:
          holder === null
            ? null
            : { pid: Number(holder[0]), command: holder.slice(1).join(' ').trim() || '?' },
      };
    },
    states: async (launches) => {
      const { stdout } = await run(statusScript(launches));
      const states = new Map<string, { state: RemoteState; pids: number[] }>();
      for (const line of stdout.split('\n')) {
        const [tag, id, state, ...pids] = line.trim().split(/\s+/);
        if (tag !== 'VIGIL-STATE' || id === undefined || state === undefined) continue;
        states.set(id, { state: state as RemoteState, pids: pids.map(Number).sort((a, b) => a - b) });
      }
      return states;
    },
    stop: async (ids, graceMs) => {
      const { stdout } = await run(stopScript(ids, graceMs));
      const gone = lineOf(stdout, 'VIGIL-GONE')?.[0];
      const stopped = lineOf(stdout, 'VIGIL-STOPPED');
      const survivors = stdout
        .split('\n')
        .filter((line) => line.startsWith('VIGIL-SURVIVOR '))
        .map((line) => {
          const [, pid, ...command] = line.split(' ');
          return { pid: Number(pid), command: command.join(' ').trim() || '?' };
        });
      if (gone === undefined && stopped === null) {
        throw new VigilError(
          'E_HOST',
          `${transport.label}: the stop script did not report (${stdout.trim().slice(0, 200)})`,
        );
      }
      return {
        gone: gone === 'rebooted' || gone === 'reused' ? gone : null,
        signalled: Number(stopped?.[0] ?? 0),
        killed: stopped?.[1] === '1',
        survivors,
      };
    },
    identify: async (pid, log) => {
      const { stdout } = await run(identifyScript(pid, log));
      const [bootId = '', start = '-', size = '0'] = lineOf(stdout, 'VIGIL-IDS') ?? [];
      return {
        bootId,
        starttime: start === 'gone' ? 'gone' : start === '-' ? null : Number(start),
        logSize: Number(size) || 0,
      };
    },
    tail: (path, lines, follow) => transport.start(logsScript(path, lines, follow)),
    close: () => transport.close(),
  };
};
