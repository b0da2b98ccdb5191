// Launch records: one JSON file (mode 0600, written atomically) per launch, read by status, stop, logs and attach.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ZodType } from 'zod';
import { VigilError } from '../errors.ts';
import { writeFileAtomic } from './atomic-write.ts';

const RECORD_VERSION = 1;

// One launch as stored on disk.
export interface LaunchRecord {
  version: typeof RECORD_VERSION;
  id: string;
  engine: string;
  /** `local`, or `[user@]host[:port]`. */
  host: string;
  pid: number;
  pgid: number;
  sid: number;
  /** /proc start time of the leader (clock ticks after boot), to tell a reused pid apart. */
  proc_start: number | null;
  started_at: string;
  log: string;
  log_offset: number;
  /** The server command, redacted. */
  command: string[];
  /** The server's origin, e.g. http://127.0.0.1:30000, when known. */
  url: string | null;
  health_url: string | null;
  port: number | null;
  /** How the watch ended: still starting (or vigil was killed), ready, failed, or stopped by `vigil stop`. */
  outcome: 'starting' | 'ready' | 'failed' | 'stopped';
  ended_at: string | null;
  /** Set by `vigil stop` before it signals, so the watcher of the launch reports a stop, not a crash. */
  stop_requested_at?: string | null | undefined;
  /** The `vigil up` process watching the launch (pid and /proc start time), so status can tell it is gone. */
  watcher?: { pid: number; proc_start: number | null } | undefined;
  /** Local launches: the launch's own cgroup v2 directory, when the system allowed one (docs/faults.md). */
  cgroup?: string | null | undefined;
  /** Remote launches: the host's boot id at launch (a different one means the server is gone). */
  boot_id?: string | null | undefined;
  /** Remote launches: where the launch wrapper writes the server's exit status. */
  exit_file?: string | null | undefined;
  /** Remote launches: how vigil reached the host, so status, logs, stop and attach reach it the same way. */
  ssh?: RecordSsh | null | undefined;
}

// The ssh settings of a remote launch.
export interface RecordSsh {
  config: string | null;
  options: string[];
  connect_timeout_ms: number | null;
  remote_shell: string | null;
}

let schema: Promise<ZodType<LaunchRecord>> | null = null;

// The record schema, built on first use: only reading records needs zod, and `vigil up` reads only a record on its
// own port, so a watch does not pay zod's ~100 ms of loading.
const recordSchema = (): Promise<ZodType<LaunchRecord>> =>
  (schema ??= import('zod').then(({ z }) =>
    z.object({
      version: z.literal(RECORD_VERSION),
      id: z.string().regex(/^[a-z0-9-]+$/),
      engine: z.string(),
      host: z.string(),
      pid: z.number().int(),
      pgid: z.number().int(),
      sid: z.number().int(),
      proc_start: z.number().int().nullable(),
      started_at: z.string(),
      log: z.string(),
      log_offset: z.number().int(),
      command: z.array(z.string()),
      url: z.string().nullable(),
      health_url: z.string().nullable(),
      port: z.number().int().nullable(),
      outcome: z.enum(['starting', 'ready', 'failed', 'stopped']),
      ended_at: z.string().nullable(),
      stop_requested_at: z.string().nullable().optional(),
      watcher: z.object({ pid: z.number().int(), proc_start: z.number().int().nullable() }).optional(),
      cgroup: z.string().nullable().optional(),
      boot_id: z.string().nullable().optional(),
      exit_file: z.string().nullable().optional(),
      ssh: z
        .object({
          config: z.string().nullable(),
          options: z.array(z.string()),
          connect_timeout_ms: z.number().nullable(),
          remote_shell: z.string().nullable(),
        })
        .nullable()
        .optional(),
    }),
  ));

// The folder of launch records under the state directory.
export const launchesDir = (stateDir: string): string => join(stateDir, 'launches');

const recordPath = (stateDir: string, id: string): string => join(launchesDir(stateDir), `${id}.json`);

// A short readable id: engine, port and a random suffix, e.g. `sglang-30000-3f9a`.
export const newLaunchId = (engine: string, port: number | null): string =>
  [engine, ...(port === null ? [] : [String(port)]), randomBytes(2).toString('hex')].join('-');

// Writes (or rewrites) a record atomically with mode 0600.
export const writeLaunchRecord = async (stateDir: string, record: LaunchRecord): Promise<void> => {
  await writeFileAtomic(recordPath(stateDir, record.id), `${JSON.stringify(record, null, 2)}\n`, {
    mode: 0o600,
  });
};

// Rewrites the record a launch wrote itself with some fields changed, without reading it back (nothing but
// these fields ever changes in a record); like updateLaunchRecord, a record removed meanwhile stays removed.
export const rewriteLaunchRecord = async (
  stateDir: string,
  record: LaunchRecord,
  change: Partial<Pick<LaunchRecord, 'outcome' | 'ended_at'>>,
): Promise<void> => {
  if (!existsSync(recordPath(stateDir, record.id))) return;
  await writeLaunchRecord(stateDir, { ...record, ...change });
};

// Updates some fields of a record; a record that disappeared meanwhile is left alone.
export const updateLaunchRecord = async (
  stateDir: string,
  id: string,
  change: Partial<Pick<LaunchRecord, 'outcome' | 'ended_at' | 'stop_requested_at'>>,
): Promise<void> => {
  const record = await readLaunchRecord(stateDir, id).catch(() => null);
  if (record === null) return;
  await writeLaunchRecord(stateDir, { ...record, ...change });
};

// Whether `vigil stop` asked the launch to stop (it stamps the record): read from the raw JSON, since the watcher
// asks it the moment its server exits and checking the whole record would load zod first.
export const stopWasRequested = async (stateDir: string, id: string): Promise<boolean> => {
  try {
    const raw: unknown = JSON.parse(await readFile(recordPath(stateDir, id), 'utf8'));
    return typeof (raw as Partial<Record<keyof LaunchRecord, unknown>>).stop_requested_at === 'string';
  } catch {
    return false;
  }
};

// Reads one record; throws E_NOT_FOUND when there is none, E_STATE when it is unreadable.
export const readLaunchRecord = async (stateDir: string, id: string): Promise<LaunchRecord> => {
  if (!/^[a-z0-9-]+$/.test(id)) throw notFound(id);
  let text: string;
  try {
    text = await readFile(recordPath(stateDir, id), 'utf8');
  } catch {
    throw notFound(id);
  }
  return await parseRecord({ text }, recordPath(stateDir, id));
};

// Every readable record, oldest first; unreadable files are skipped.
export const listLaunchRecords = async (
  stateDir: string,
  // A look at each record's raw JSON before it is checked: a watch looking for the launch on its port checks only
  // that one, and, where none is, never loads zod (about 100 ms of CPU in every `vigil up`).
  wanted: (raw: Partial<Record<keyof LaunchRecord, unknown>>) => boolean = () => true,
): Promise<LaunchRecord[]> => {
  let names: string[];
  try {
    names = await readdir(launchesDir(stateDir));
  } catch {
    return [];
  }
  const records: LaunchRecord[] = [];
  for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.'))) {
    try {
      const raw: unknown = JSON.parse(await readFile(join(launchesDir(stateDir), name), 'utf8'));
      if (typeof raw === 'object' && raw !== null && !wanted(raw)) continue;
      records.push(await parseRecord({ raw }, name));
    } catch {
      // a record from another version, or half-deleted by hand: not ours to judge here
    }
  }
  return records.sort((a, b) => a.started_at.localeCompare(b.started_at));
};

// Resolves an id or an unambiguous prefix of one to its record.
export const findLaunchRecord = async (stateDir: string, idOrPrefix: string): Promise<LaunchRecord> => {
  const records = await listLaunchRecords(stateDir);
  const exact = records.find((r) => r.id === idOrPrefix);
  if (exact !== undefined) return exact;
  const matches = records.filter((r) => r.id.startsWith(idOrPrefix));
  const [only] = matches;
  if (matches.length === 1 && only !== undefined) return only;
  if (matches.length > 1) {
    throw new VigilError('E_NOT_FOUND', `launch id ${idOrPrefix} is ambiguous`, {
      hint: `it matches ${matches.map((r) => r.id).join(', ')}; give more of the id`,
    });
  }
  const known = records.map((r) => r.id);
  throw new VigilError('E_NOT_FOUND', `no launch with id ${idOrPrefix}`, {
    hint:
      known.length === 0
        ? 'there are no launches; `vigil status` lists them'
        : `known launches: ${known.join(', ')}`,
  });
};

const parseRecord = async (
  source: { text: string } | { raw: unknown },
  where: string,
): Promise<LaunchRecord> => {
  const parser = await recordSchema();
  try {
    return parser.parse('text' in source ? JSON.parse(source.text) : source.raw);
  } catch (error) {
    throw new VigilError('E_STATE', `the launch record ${where} is not readable`, {
      cause: error,
      hint: 'delete the file if it is left over from another vigil version',
    });
  }
};

const notFound = (id: string): VigilError =>
  new VigilError('E_NOT_FOUND', `no launch with id ${id}`, { hint: '`vigil status` lists the launches' });
