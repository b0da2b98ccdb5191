// Where vigil keeps launch records, logs it creates, history and caches.
import { homedir } from 'node:os';
import { join } from 'node:path';

// $XDG_STATE_HOME/vigil, or ~/.local/state/vigil when that is unset (docs/cli.md).
export const stateDir = (env: NodeJS.ProcessEnv = process.env): string => {
  const xdg = env['XDG_STATE_HOME'];
  const base = xdg !== undefined && xdg !== '' ? xdg : join(env['HOME'] ?? homedir(), '.local', 'state');
  return join(base, 'vigil');
};
