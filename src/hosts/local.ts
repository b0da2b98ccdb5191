// This machine as a HostRunner.
import { access } from 'node:fs/promises';
import { homedir } from 'node:os';
import { execLocal } from './exec.ts';
import type { HostRunner } from './types.ts';

const expandHome = (path: string): string =>
  path === '~' ? homedir() : path.startsWith('~/') ? `${homedir()}${path.slice(1)}` : path;

export const localHost: HostRunner = {
  name: 'local',
  exec: execLocal,
  pathExists: async (path) => {
    try {
      await access(expandHome(path));
      return true;
    } catch {
      return false;
    }
  },
};
