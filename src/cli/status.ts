// `vigil status [ID]`: each launch with its live state (alive or exited), pid, age, URL and log.
import type { CommandModule } from './context.ts';
import { invalidOption } from '../errors.ts';
import { formatDuration } from '../config/duration.ts';
import type { LaunchState } from '../state/launch-state.ts';
import {
  addHostOptions,
  parseHostOptions,
  parseRemoteOverrides,
  type RawHostOptions,
} from './host-options.ts';

// Adds `vigil status` to the program.
export const register: CommandModule['register'] = (program, ctx, done) => {
  const command = program
    .command('status')
    .argument('[id]', 'show one launch (an id or an unambiguous prefix)')
    .option('--output <kind>', 'plain or json (tty prints plain)');
  addHostOptions(command, { launch: false }).action(
    async (id: string | undefined, raw: { output?: string } & RawHostOptions) => {
      const output = raw.output ?? 'plain';
      if (!['plain', 'tty', 'json', 'jsonl'].includes(output)) {
        throw invalidOption('--output', 'plain or json', output);
      }
      const [{ stateDir }, { findLaunchRecord, listLaunchRecords }, { inspectLaunches }] = await Promise.all([
        import('../state/dir.ts'),
        import('../state/records.ts'),
        import('../state/launch-state.ts'),
      ]);
      const dir = stateDir(ctx.env);
      const where = parseHostOptions(raw);
      const all = id === undefined ? await listLaunchRecords(dir) : [await findLaunchRecord(dir, id)];
      // --host lists that host's launches only.
      const records = where.host === undefined ? all : all.filter((r) => r.host === where.host);
      const states = await Promise.all(
        (await inspectLaunches(records, dir, parseRemoteOverrides(raw))).map(liveState),
      );
      if (output === 'json' || output === 'jsonl') {
        const rows = states.map(toJson);
        ctx.stdout.write(
          output === 'json'
            ? `${JSON.stringify(rows, null, 2)}\n`
            : rows.map((r) => `${JSON.stringify(r)}\n`).join(''),
        );
      } else {
        ctx.stdout.write(formatTable(states));
      }
      done(0);
    },
  );
};

// What the record cannot say: whether the server answers its health check now, and whether its watcher still runs
// (a `vigil up` that was killed leaves the record at "starting" for good).
interface LiveState extends LaunchState {
  health: 'healthy' | 'not-ready' | 'not-answering' | null;
  healthStatus: number | null;
  watcher: 'running' | 'gone' | null;
}

const liveState = async (state: LaunchState): Promise<LiveState> => {
  const [{ isProcessAlive }, { probeOnce }] = await Promise.all([
    import('../hosts/proc.ts'),
    import('../probe/http.ts'),
  ]);
  const watcher = state.record.host === 'local' ? state.record.watcher : undefined;
  const watching =
    watcher === undefined || state.record.outcome !== 'starting'
      ? null
      : isProcessAlive(watcher.pid, watcher.proc_start ?? undefined)
        ? 'running'
        : 'gone';
  if (state.state !== 'alive' || state.record.health_url === null || state.record.host !== 'local') {
    return { ...state, health: null, healthStatus: null, watcher: watching };
  }
  const probe = await probeOnce(state.record.health_url, { timeoutMs: 1000 });
  const health = probe.status === 200 ? 'healthy' : probe.status === null ? 'not-answering' : 'not-ready';
  return { ...state, health, healthStatus: probe.status, watcher: watching };
};

const describeState = (s: LiveState): string => {
  if (s.state !== 'alive') return s.state;
  const health =
    s.health === 'healthy'
      ? 'healthy'
      : s.health === 'not-ready'
        ? `not ready (${String(s.healthStatus)})`
        : s.health === 'not-answering'
          ? 'not answering'
          : s.record.outcome;
  return `alive, ${health}${s.watcher === 'gone' ? ', watcher gone' : ''}`;
};

const toJson = (s: LiveState): Record<string, unknown> => ({
  id: s.record.id,
  state: s.state,
  health: s.health,
  watcher: s.watcher,
  outcome: s.record.outcome,
  engine: s.record.engine,
  host: s.record.host,
  ...(s.note === undefined ? {} : { note: s.note }),
  pid: s.record.pid,
  pgid: s.record.pgid,
  sid: s.record.sid,
  processes: s.pids,
  ...(s.record.cgroup === undefined || s.record.cgroup === null ? {} : { cgroup: s.record.cgroup }),
  started_at: s.record.started_at,
  age_ms: s.ageMs,
  url: s.record.url,
  health_url: s.record.health_url,
  log: s.record.log,
  command: s.record.command,
});

// A plain table; the records hold only redacted commands, so nothing here needs redacting again.
const formatTable = (states: readonly LiveState[]): string => {
  if (states.length === 0) return 'no launches (vigil up starts one)\n';
  // The HOST column only when some launch ran elsewhere: a table of local launches stays as it was.
  const remote = states.some((s) => s.record.host !== 'local');
  const rows = [
    ['ID', 'STATE', ...(remote ? ['HOST'] : []), 'PID', 'AGE', 'URL', 'LOG'],
    ...states.map((s) => [
      s.record.id,
      describeState(s),
      ...(remote ? [s.record.host] : []),
      String(s.record.pid),
      formatDuration(s.ageMs),
      s.record.url ?? '-',
      s.record.log,
    ]),
  ];
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join('  '),
    )
    .join('\n')
    .concat('\n');
};
