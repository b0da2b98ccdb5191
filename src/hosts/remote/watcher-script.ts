// The watcher: one long-lived script per launch on the host, over the master connection. It streams framed
// records on stdout, one writer at a time (a mkdir lock): new log bytes with their offsets, the process group's
// end (zombie-aware), probe results and the boot id. A line on stdin asks for a probe at once; stdin's end (vigil
// gone, or the link) stops it. A newer watcher of the same launch takes over: the old one sees it and leaves.
import { shellQuote } from './quote.ts';
import { NAP, PROC_FUNCTIONS, STATE_DIR } from './sh-lib.ts';

export interface WatcherInput {
  id: string;
  /** Distinguishes this watcher from the ones before it (after a reconnect). */
  token: string;
  /** The leader; null: watch no process (only the log and probes). */
  pid: number | null;
  /** The group and session whose processes make up the server; null: the leader alone. */
  pgid: number | null;
  sid: number | null;
  starttime: number | null;
  /** Where the launch wrapper writes the exit status; null when vigil did not launch it. */
  exitFile: string | null;
  log: string | null;
  /** Where to read the log from: the last byte vigil received. */
  offset: number;
  /** Report the number of lines before `offset` first (a watch that starts mid-file). */
  countLines: boolean;
  /** The health URL as the host sees it; null: no probes. */
  url: string | null;
  headers: Readonly<Record<string, string>>;
  intervalMs: number;
  probeTimeoutMs: number;
  /** The main loop's period. */
  tickMs?: number;
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

// Records: `B <boot id>`, `N <lines before offset>`, `L <offset> <length>` + bytes, `T` (log truncated),
// `H <status|-> <ms> <error|-> <log size|->`, `X <code|->` (leader gone, group lives on), `E <code|->` (all gone).
export const watcherScript = (input: WatcherInput): string => {
  const headerLines = Object.entries(input.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .filter((line) => !/[\n\r]/.test(line));
  const curlConfig = headerLines
    .map((line) => `header = "${line.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`)
    .join('\n');
  const pyHeaders = JSON.stringify(
    Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)])),
  );
  const timeout = seconds(input.probeTimeoutMs);
  return `${STATE_DIR}
umask 077
${PROC_FUNCTIONS}
${NAP}
ID=${shellQuote(input.id)}
TOK=${shellQuote(input.token)}
PID=${input.pid ?? ''} PGID=${input.pgid ?? '-'} SID=${input.sid ?? '-'} START=${input.starttime === null ? '-' : String(input.starttime)}
EXITF=${shellQuote(input.exitFile ?? '')}
LOG=${shellQuote(input.log ?? '')}
[ "$LOG" = /dev/null ] && LOG=""
OFF=${input.offset}
URL=${shellQuote(input.url ?? '')}
D=$(mktemp -d 2>/dev/null || { mkdir -p "/tmp/vigil-w.$$" && echo "/tmp/vigil-w.$$"; })
OWN="$S/launches/$ID.watcher"
mkdir -p "$S/launches"
printf '%s\\n' "$TOK" > "$OWN"
cat > "$D/h" <<'VIGIL_HEADERS_END'
${curlConfig}
VIGIL_HEADERS_END
cat > "$D/p.py" <<'VIGIL_PY_END'
import json, sys, time, urllib.request, urllib.error
t = time.monotonic()
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
try:
    r = opener.open(urllib.request.Request(sys.argv[1], headers=json.loads(sys.argv[3])), timeout=float(sys.argv[2]))
    print(r.status, int((time.monotonic() - t) * 1000), "-")
except urllib.error.HTTPError as e:
    print(e.code, int((time.monotonic() - t) * 1000), "-")
except Exception as e:
    name = getattr(getattr(e, "reason", e), "errno", None)
    code = {111: "ECONNREFUSED", 104: "ECONNRESET"}.get(name, "timeout" if "timed out" in str(e) else "error")
    print("-", int((time.monotonic() - t) * 1000), code)
VIGIL_PY_END
lock() { until mkdir "$D/l" 2>/dev/null; do nap 0.002; done; }
unlock() { rmdir "$D/l"; }
emit() { lock; printf '%s\\n' "$*"; unlock; }
logsize() { if [ -n "$LOG" ] && Z=$(wc -c < "$LOG" 2>/dev/null); then echo $((Z + 0)); else echo -; fi; }
hrec() { Z=$(logsize); emit "H $* $Z"; }
now_ms() { read -r U _ < /proc/uptime; U=\${U%.*}\${U#*.}; echo "\${U}0"; }
if command -v curl >/dev/null 2>&1; then
  probe() {
    R=$(curl --noproxy '*' -s -o /dev/null -w '%{http_code} %{time_total}' --max-time ${timeout} -K "$D/h" -- "$URL" 2>/dev/null)
    C=$?
    set -- $R
    T=\${2:-0}; I=\${T%.*}; F=\${T#*.}; [ "$F" = "$T" ] && F=0; F=\${F}000; F=\${F%"\${F#???}"}
    MS=$((I * 1000 + 1$F - 1000))
    case $C in
      0) hrec "$1 $MS -" ;;
      7) hrec "- $MS ECONNREFUSED" ;;
      28) hrec "- $MS timeout" ;;
      52) hrec "- $MS empty-reply" ;;
      56) hrec "- $MS ECONNRESET" ;;
      *) hrec "- $MS curl-$C" ;;
    esac
  }
elif command -v python3 >/dev/null 2>&1; then
  probe() { hrec "$(python3 "$D/p.py" "$URL" ${timeout} ${shellQuote(pyHeaders)} 2>/dev/null || echo '- 0 error')"; }
else
  probe() {
    A=\${URL#http://}; HP=\${A%%/*}; PA=/\${A#*/}; [ "$PA" = "/$A" ] && PA=/
    H=\${HP%:*}; P=\${HP##*:}; [ "$P" = "$HP" ] && P=80
    S0=$(now_ms)
    R=$(timeout ${timeout} bash -c 'exec 3<>"/dev/tcp/$1/$2" || exit 7; printf "GET %s HTTP/1.0\\r\\nHost: %s\\r\\n\\r\\n" "$3" "$1" >&3; read -r V C _ <&3; echo "$C"' sh "$H" "$P" "$PA" 2>/dev/null)
    C=$?; MS=$(( $(now_ms) - S0 ))
    if [ -n "$R" ]; then hrec "$R $MS -"; elif [ $C = 124 ]; then hrec "- $MS timeout"; else hrec "- $MS ECONNREFUSED"; fi
  }
fi
read -r B < /proc/sys/kernel/random/boot_id
emit "B $B"
${input.countLines ? 'if [ -n "$LOG" ] && [ -r "$LOG" ]; then emit "N $(head -c "$OFF" "$LOG" | wc -l)"; else emit "N 0"; fi' : ''}
MAIN=$$
PROBER=""
if [ -n "$URL" ]; then
  ( while :; do probe; nap ${seconds(input.intervalMs)}; done ) &
  PROBER=$!
fi
exec 3<&0
( while read -r c <&3; do [ -n "$URL" ] && probe; done; kill $MAIN $PROBER 2>/dev/null; rm -rf "$D" ) &
exec 3<&-
readlog() {
  [ -n "$LOG" ] || return 0
  SZ=$(wc -c < "$LOG" 2>/dev/null) || return 0
  SZ=$((SZ + 0))
  if [ "$SZ" -lt "$OFF" ]; then emit T; OFF=0; fi
  while [ "$SZ" -gt "$OFF" ]; do
    N=$((SZ - OFF)); [ $N -gt 262144 ] && N=262144
    tail -c +$((OFF + 1)) -- "$LOG" 2>/dev/null | head -c $N > "$D/c"
    N=$(wc -c < "$D/c"); N=$((N + 0))
    [ $N -gt 0 ] || return 0
    lock; printf 'L %s %s\\n' "$OFF" "$N"; cat "$D/c"; unlock
    OFF=$((OFF + N))
  done
}
finish() {
  readlog
  CODE=-; [ -r "$EXITF" ] && read -r CODE < "$EXITF"
  emit "E \${CODE:--}"
  kill $PROBER 2>/dev/null
  exit 0
}
alive() {
  pstat "$1" || return 1
  case $ST in Z|X) return 1 ;; esac
  [ "$START" = - ] || [ "$T0" = "$START" ]
}
LEADER=1
M=""
[ -n "$PID" ] && scan
TICK=0
while :; do
  read -r O < "$OWN" 2>/dev/null
  [ "$O" = "$TOK" ] || { kill $PROBER 2>/dev/null; exit 0; }
  readlog
  if [ -n "$PID" ]; then
    if [ $LEADER = 1 ] && ! alive "$PID"; then
      LEADER=0
      CODE=-; [ -r "$EXITF" ] && read -r CODE < "$EXITF"
      case $CODE in 0|-) ;; *) finish ;; esac
      recheck; [ -z "$M" ] && scan
      [ -z "$M" ] && finish
      emit "X \${CODE:--}"
    fi
    recheck
    TICK=$((TICK + 1))
    if [ -z "$M" ] || [ $((TICK % 20)) = 0 ]; then scan; fi
    [ -z "$M" ] && [ $LEADER = 0 ] && finish
  fi
  nap ${seconds(input.tickMs ?? 50)}
done
`;
};
