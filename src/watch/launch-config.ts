// launch()'s options validated and resolved: the command read, the environment built, the probe target
// known. Pure: whether the command and the paths can be used is checked at launch, before spawning.
import { resolve as resolvePath } from 'node:path';
import { UsageError, VigilError, invalidOption } from '../errors.ts';
import { getEngine } from '../engines/index.ts';
import { checkEngineVersion } from '../engines/known-releases.ts';
import { readServerCommand, resolveSpawnArgv, type ServerCommand } from '../engines/command.ts';
import { stateDir as defaultStateDir } from '../state/dir.ts';
import { vigilCommand } from '../self.ts';
import { isLocalHost } from '../hosts/remote/destination.ts';
import { NO_CGROUP_VAR } from '../hosts/cgroup.ts';
import { resolveCommon, resolveOption, type LaunchOptions, type ResolvedCommon } from './options.ts';
import { resolveTarget, type ProbeTarget } from './target.ts';

// launch()'s options after validation, with what vigil read from the command.
export interface LaunchConfig extends ResolvedCommon {
  command: string[];
  spawnArgv: string[];
  server: ServerCommand;
  target: ProbeTarget;
  env: NodeJS.ProcessEnv;
  log: string | null;
  cwd: string | undefined;
  graceMs: number;
  keepOnFailure: boolean;
  detachOnInterrupt: boolean;
  replace: boolean;
  /** Whether to try a cgroup of its own for the server. */
  cgroup: boolean;
  preflight: boolean;
  /** The engine release whose rules apply (`--engine-version`), checked against the releases vigil knows. */
  engineVersion: string | null;
  options: LaunchOptions;
  stateDir: string;
}

// Validates every option and reads the command, before any side effect; throws UsageError.
export const resolveLaunch = (options: LaunchOptions): LaunchConfig => {
  const common = resolveCommon(options);
  const command = [...options.command];
  if (command.length === 0 || !command.every((arg) => typeof arg === 'string')) {
    throw new UsageError('no server command given', {
      hint: 'usage: vigil up [options] -- <server command...>',
    });
  }
  const server = readServerCommand(command, common.engine, options.cwd);
  if (server.badPort !== null) {
    throw new VigilError(
      'E_PREFLIGHT',
      `the server command's --port ${server.badPort} is not a port from 1 to 65535`,
      {
        option: '--port',
        hint: 'give the server a port from 1 to 65535 (vigil must know which port to probe)',
      },
    );
  }
  const spawnArgv = resolveSpawnArgv(command, vigilCommand);
  const env: NodeJS.ProcessEnv = { ...(options.inheritEnv === false ? {} : process.env) };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (name === '' || name.includes('=')) throw invalidOption('env', 'NAME=VALUE with a name', name);
    env[name] = value;
  }
  // A remote command is looked up by the launch script, on the host; a local one at launch, before spawning.
  const remote = options.host !== undefined && !isLocalHost(options.host);
  const target = resolveTarget({
    spec: getEngine(server.engine),
    command: server,
    url: common.url,
    port: common.port,
    followsLog: true,
    apiKey: server.apiKey,
  });
  if (options.log?.trim() === '') throw invalidOption('log', 'a file path', options.log);
  const engineVersion =
    options.engineVersion === undefined ? null : checkEngineVersion(server.engine, options.engineVersion);
  return {
    ...common,
    command,
    spawnArgv,
    server,
    target,
    env,
    log:
      options.log === undefined
        ? null
        : remote
          ? options.log
          : resolvePath(options.cwd ?? process.cwd(), options.log),
    cwd: options.cwd,
    graceMs: resolveOption('graceMs', options.graceMs),
    keepOnFailure: options.keepOnFailure === true,
    detachOnInterrupt: options.detachOnInterrupt === true,
    replace: options.replace === true,
    cgroup: options.cgroup ?? process.env[NO_CGROUP_VAR] !== '1',
    preflight: options.preflight !== false,
    engineVersion,
    options,
    stateDir: options.stateDir ?? defaultStateDir(),
  };
};
