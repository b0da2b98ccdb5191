// The launch script, sent on stdin (never argv, so env values never show in `ps`): cd, activation, env, the
// per-port lock, then the server under `setsid nohup`, appending to its log; it prints the ids vigil records.
import { shellJoin, shellQuote } from './quote.ts';
import { PROC_FUNCTIONS, STATE_DIR } from './sh-lib.ts';

export interface LaunchScriptInput {
  id: string;
  /** The server command as it will run. */
  argv: readonly string[];
  /** Only the variables the user asked for (--env, --env-file): the host's own environment is the base. */
  env: Readonly<Record<string, string>>;
  cwd?: string;
  /** `--activate CMD`, run in the launching shell before the server (a shell command, on purpose not quoted). */
  activate?: string;
  /** The log path on the host; null for the default under the remote state folder. */
  log: string | null;
  /** The port the server binds, for the one-server-per-port lock. */
  port: number | null;
}

// What the launch script reported.
export type LaunchReport =
  | {
      ok: true;
      pid: number;
      pgid: number;
      sid: number;
      starttime: number | null;
      bootId: string;
      log: string;
      logOffset: number;
      exitFile: string;
    }
  | { ok: false; code: string; message: string };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const launchScript = (input: LaunchScriptInput): string => {
  const exports = Object.entries(input.env)
    .filter(([name]) => NAME.test(name))
    .map(([name, value]) => `export ${name}=${shellQuote(value)}`)
    .join('\n');
  const [file = ''] = input.argv;
  return `${STATE_DIR}
umask 077
fail() { printf 'VIGIL-ERROR %s %s\\n' "$1" "$2"; exit 0; }
${PROC_FUNCTIONS}
ID=${shellQuote(input.id)}
mkdir -p "$S/launches" "$S/logs" "$S/ports" 2>/dev/null || fail state "cannot create $S"
${input.cwd === undefined ? 'cd || fail cwd "cannot enter the home folder"' : `cd ${shellQuote(input.cwd)} 2>/dev/null || fail cwd ${shellQuote(`--cwd ${input.cwd}: no such folder on the host`)}`}
${input.activate === undefined ? '' : `{\n${input.activate}\n} >&2 </dev/null || fail activate "--activate failed with status $?"`}
${exports}
export VIGIL_LAUNCH_ID="$ID"
command -v ${shellQuote(file)} >/dev/null 2>&1 || fail not-found ${shellQuote(`cannot run ${file}: no such executable on the host's PATH`)}
LOG=${shellQuote(input.log ?? '')}
[ -n "$LOG" ] || LOG="$S/logs/$ID.log"
case $LOG in /*) ;; *) LOG="$PWD/$LOG" ;; esac
if [ "$LOG" != /dev/null ]; then
  mkdir -p "$(dirname -- "$LOG")" 2>/dev/null
  : >> "$LOG" 2>/dev/null || fail log "cannot write the log file $LOG"
  OFF=$(wc -c < "$LOG")
else
  OFF=0
fi
PORT=${input.port === null ? '' : String(input.port)}
if [ -n "$PORT" ]; then
  LK="$S/ports/$PORT.lock"
  if ! mkdir "$LK" 2>/dev/null; then
    read -r HP HT HI < "$LK/owner" 2>/dev/null
    if [ -n "$HP" ] && pstat "$HP" && [ "$T0" = "$HT" ]; then fail port-locked "port $PORT is held by vigil launch $HI (pid $HP) on this host"; fi
    rm -rf "$LK"; mkdir "$LK" 2>/dev/null || fail port-locked "another launch is taking port $PORT"
  fi
fi
EXITF="$S/launches/$ID.exit"
rm -f "$EXITF"
setsid nohup sh -c '"$@"; echo $? > "$0"' "$EXITF" ${shellJoin(input.argv)} </dev/null >>"$LOG" 2>&1 &
P=$!
i=0
while pstat "$P" && [ "$SI" != "$P" ] && [ $i -lt 500 ]; do i=$((i+1)); sleep 0.01 2>/dev/null || sleep 1; done
pstat "$P" || { PG=$P; SI=$P; T0=-; }
[ -n "$PORT" ] && echo "$P $T0 $ID" > "$LK/owner"
read -r B < /proc/sys/kernel/random/boot_id
printf 'VIGIL-LAUNCHED %s %s %s %s %s %s\\n' "$P" "$PG" "$SI" "$T0" "$B" "$OFF"
printf 'VIGIL-LOG %s\\n' "$LOG"
printf 'VIGIL-EXITFILE %s\\n' "$EXITF"
`;
};

// Reads the launch script's output.
export const parseLaunchReport = (stdout: string): LaunchReport => {
  const lines = stdout.split('\n');
  const error = lines.find((l) => l.startsWith('VIGIL-ERROR '));
  if (error !== undefined) {
    const [, code = 'unknown', ...rest] = error.split(' ');
    return { ok: false, code, message: rest.join(' ') };
  }
  const launched = lines.find((l) => l.startsWith('VIGIL-LAUNCHED '))?.split(' ');
  const log = lines.find((l) => l.startsWith('VIGIL-LOG '))?.slice(10);
  const exitFile = lines.find((l) => l.startsWith('VIGIL-EXITFILE '))?.slice(15);
  if (launched === undefined || log === undefined || exitFile === undefined) {
    return {
      ok: false,
      code: 'protocol',
      message: 'the launch script did not report the server (is sh on the host?)',
    };
  }
  const [, pid, pgid, sid, start, bootId = '', offset] = launched;
  return {
    ok: true,
    pid: Number(pid),
    pgid: Number(pgid),
    sid: Number(sid),
    starttime: start === '-' || start === undefined ? null : Number(start),
    bootId,
    log,
    logOffset: Number(offset),
    exitFile,
  };
};
