// Scripts for managing remote launches: their live state (many launches, one connection), stopping one, the
// port test, and printing a log. Each sends its inputs quoted and prints lines prefixed VIGIL-.
import { shellQuote } from './quote.ts';
import { NAP, PROC_FUNCTIONS } from './sh-lib.ts';

// The ids that identify one launch's processes on its host.
export interface RemoteProcessIds {
  id: string;
  pid: number;
  pgid: number;
  sid: number;
  starttime: number | null;
  bootId: string | null;
}

// Sets GONE to why the launch's processes cannot be ours any more (rebooted, pid reused), or empty.
const identity = (ids: RemoteProcessIds): string => `
PID=${ids.pid} PGID=${ids.pgid} SID=${ids.sid} START=${ids.starttime ?? '-'} BOOT=${shellQuote(ids.bootId ?? '')}
GONE=""
read -r B < /proc/sys/kernel/random/boot_id
if [ -n "$BOOT" ] && [ "$B" != "$BOOT" ]; then GONE=rebooted
elif [ "$START" != - ] && pstat "$PID" && [ "$T0" != "$START" ]; then GONE=reused
fi
`;

// One `VIGIL-STATE id alive|exited|rebooted|reused pids...` line per launch.
export const statusScript = (launches: readonly RemoteProcessIds[]): string =>
  `${PROC_FUNCTIONS}
${launches
  .map(
    (ids) => `${identity(ids)}
if [ -n "$GONE" ]; then echo "VIGIL-STATE ${ids.id} $GONE"; else scan; member "$PID" && case " $M " in *" $PID "*) ;; *) M="$M $PID" ;; esac
  if [ -n "$M" ]; then echo "VIGIL-STATE ${ids.id} alive$M"; else echo "VIGIL-STATE ${ids.id} exited"; fi; fi`,
  )
  .join('\n')}
`;

// TERM to the group and every member, the grace period, KILL, then up to 10 s of verification. Never signals
// when the boot id or the leader's start time says the ids now belong to someone else.
export const stopScript = (ids: RemoteProcessIds, graceMs: number): string => `${PROC_FUNCTIONS}
${NAP}
${identity(ids)}
[ -n "$GONE" ] && { echo "VIGIL-GONE $GONE"; exit 0; }
scan
[ -z "$M" ] && { echo "VIGIL-STOPPED 0 0"; exit 0; }
set -f; set -- $M; set +f; N=$#
kill -TERM -"$PGID" 2>/dev/null; kill -TERM $M 2>/dev/null
echo "VIGIL-STOPPING $N"
waitgone() {
  i=0
  while [ $i -lt $1 ]; do recheck; [ -z "$M" ] && scan; [ -z "$M" ] && return 0; nap 0.05; i=$((i + 1)); done
  return 1
}
if waitgone ${Math.max(1, Math.ceil(graceMs / 50))}; then echo "VIGIL-STOPPED $N 0"; exit 0; fi
scan
kill -KILL -"$PGID" 2>/dev/null; kill -KILL $M 2>/dev/null
if waitgone 200; then echo "VIGIL-STOPPED $N 1"; exit 0; fi
for p in $M; do printf 'VIGIL-SURVIVOR %s %s\\n' "$p" "$(tr '\\0' ' ' < /proc/$p/cmdline 2>/dev/null)"; done
echo "VIGIL-STOPPED $N 1"
`;

// Test-binds the port where python3 can, else reads /proc/net/tcp{,6}; names the holder via ss or lsof.
export const portScript = (host: string, port: number): string => `
P=${port}
H=${shellQuote(host)}
V=""
if command -v python3 >/dev/null 2>&1; then
  V=$(python3 -c 'import socket, sys
h, p = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_INET6 if ":" in h else socket.AF_INET)
try:
    s.bind((h, p)); print("free")
except OSError as e:
    print("busy" if e.errno == 98 else "unknown")' "$H" "$P" 2>/dev/null)
fi
if [ -z "$V" ] || [ "$V" = unknown ]; then
  X=$(printf '%04X' "$P")
  V=free
  for t in /proc/net/tcp /proc/net/tcp6; do
    [ -r "$t" ] || continue
    while read -r _ L _ ST _; do case $L in *:"$X") [ "$ST" = 0A ] && V=busy ;; esac; done < "$t"
  done
fi
echo "VIGIL-PORT $V"
if [ "$V" = busy ]; then
  HP=""
  if command -v ss >/dev/null 2>&1; then
    HP=$(ss -Hltnp "sport = :$P" 2>/dev/null | sed -n 's/.*pid=\\([0-9][0-9]*\\).*/\\1/p' | head -n 1)
  fi
  if [ -z "$HP" ] && command -v lsof >/dev/null 2>&1; then
    HP=$(lsof -nP -t -iTCP:"$P" -sTCP:LISTEN 2>/dev/null | head -n 1)
  fi
  [ -n "$HP" ] && printf 'VIGIL-HOLDER %s %s\\n' "$HP" "$(tr '\\0' ' ' < /proc/$HP/cmdline 2>/dev/null)"
fi
`;

// Prints the last `lines` lines of a log; with follow, keeps printing until vigil closes stdin.
export const logsScript = (path: string, lines: number, follow: boolean): string =>
  follow
    ? `exec 3<&0
tail -n ${lines} -F -- ${shellQuote(path)} 2>/dev/null <&- &
T=$!
while read -r _ <&3; do :; done
kill $T 2>/dev/null
`
    : `tail -n ${lines} -- ${shellQuote(path)} || exit 3
`;

// For watching a server vigil did not launch: the host's boot id, the process's start time (or -) and the log's size.
export const identifyScript = (pid: number | null, log: string | null): string => `${PROC_FUNCTIONS}
read -r B < /proc/sys/kernel/random/boot_id
T0=-
${pid === null ? '' : `pstat ${pid} || T0=gone`}
SZ=0
${log === null ? '' : `SZ=$(wc -c < ${shellQuote(log)} 2>/dev/null) || SZ=0`}
echo "VIGIL-IDS $B $T0 $((SZ + 0))"
`;
