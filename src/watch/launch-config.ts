// launch()'s options validated and resolved: the command read, the environment built, the executable found,
// the probe target known. Pure apart from reading PATH entries.
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve as resolvePath } from 'node:path';
import { UsageError, invalidOption } from '../errors.ts';
import { getEngine } from '../engines/index.ts';
import { readServerCommand, resolveSpawnArgv, type ServerCommand } from '../engines/command.ts';
import { stateDir as defaultStateDir } from '../state/dir.ts';
import { vigilCommand } from '../self.ts';
import { isLocalHost } from '../hosts/remote/destination.ts';
import { DEFAULTS, positive, resolveCommon, type LaunchOptions, type ResolvedCommon } from './options.ts';
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
  preflight: boolean;
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
  const spawnArgv = resolveSpawnArgv(command, vigilCommand);
  const env: NodeJS.ProcessEnv = { ...(options.inheritEnv === false ? {} : process.env) };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (name === '' || name.includes('=')) throw invalidOption('env', 'NAME=VALUE with a name', name);
    env[name] = value;
  }
  // A remote command is looked up by the launch script, on the host.
  const remote = options.host !== undefined && !isLocalHost(options.host);
  if (!remote) ensureExecutable(spawnArgv[0] ?? '', options.cwd, env['PATH'] ?? '');
  const target = resolveTarget({
    spec: getEngine(server.engine),
    command: server,
    url: common.url,
    port: common.port,
    followsLog: true,
    apiKey: server.apiKey,
  });
  if (options.log?.trim() === '') throw invalidOption('log', 'a file path', options.log);
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
    graceMs: positive(options.graceMs, DEFAULTS.graceMs, 'graceMs', true),
    keepOnFailure: options.keepOnFailure === true,
    detachOnInterrupt: options.detachOnInterrupt === true,
    replace: options.replace === true,
    preflight: options.preflight !== false,
    options,
    stateDir: options.stateDir ?? defaultStateDir(),
  };
};

// A command that is not on PATH fails here, before anything runs.
const ensureExecutable = (file: string, cwd: string | undefined, path: string): void => {
  const candidates = file.includes('/')
    ? [isAbsolute(file) ? file : resolvePath(cwd ?? process.cwd(), file)]
    : path.split(delimiter).map((dir) => join(dir || '.', file));
  const found = candidates.some((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!found) {
    throw new UsageError(`cannot run ${file}: no such executable${file.includes('/') ? '' : ' on PATH'}`, {
      hint: 'check the command after --, or give the full path to the executable',
    });
  }
};
