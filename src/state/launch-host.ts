// The remote host a launch record names, reached the way the launch reached it (its ssh settings), unless the
// command line says otherwise.
import { parseDestination } from '../hosts/remote/destination.ts';
import { createRemoteHost, type RemoteHost } from '../hosts/remote/host.ts';
import type { RemoteProcessIds } from '../hosts/remote/manage-scripts.ts';
import type { RemoteOptions } from '../watch/options.ts';
import type { LaunchRecord } from './records.ts';

export const isRemoteRecord = (record: LaunchRecord): boolean => record.host !== 'local';

// The host of a remote record; `override` (from --ssh-config, --ssh-opt, ...) wins over what the record holds.
export const hostOfRecord = (
  record: LaunchRecord,
  stateDir: string,
  override: RemoteOptions = {},
): RemoteHost => {
  const ssh = record.ssh ?? null;
  const config = override.sshConfig ?? ssh?.config ?? undefined;
  const options = override.sshOptions ?? ssh?.options;
  const timeout = override.connectTimeoutMs ?? ssh?.connect_timeout_ms ?? undefined;
  const shell = override.remoteShell ?? ssh?.remote_shell ?? undefined;
  return createRemoteHost({
    destination: parseDestination(record.host),
    stateDir,
    ...(config === undefined ? {} : { configFile: config }),
    ...(options === undefined ? {} : { options }),
    ...(timeout === undefined ? {} : { connectTimeoutMs: timeout }),
    ...(shell === undefined ? {} : { remoteShell: shell }),
  });
};

// The ids that tell the launch's processes apart from whatever reuses them later.
export const remoteIdsOf = (record: LaunchRecord): RemoteProcessIds => ({
  id: record.id,
  pid: record.pid,
  pgid: record.pgid,
  sid: record.sid,
  starttime: record.proc_start,
  bootId: record.boot_id ?? null,
});
