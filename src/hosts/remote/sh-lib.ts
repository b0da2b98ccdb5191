// Shell fragments the remote scripts share. They need only sh and coreutils: /proc is read with the shell's own
// `read`, so watching a process costs no fork.

/** The remote state folder (launch exit files, port locks, default logs). */
export const STATE_DIR = 'S="${XDG_STATE_HOME:-$HOME/.local/state}/vigil"';

/**
 * `pstat PID`: sets ST (state), PG (group), SI (session) and T0 (start time) from /proc/PID/stat; fails when the
 * process is gone. The command name may hold spaces and parentheses, so the fields are read after the last `)`.
 * `scan`: sets M to the live (non-zombie) pids of group $PGID or session $SID.
 * `recheck`: keeps the pids of M that still live in the group or session.
 */
export const PROC_FUNCTIONS = `
pstat() {
  read -r PL < "/proc/$1/stat" 2>/dev/null || return 1
  PR=\${PL##*) }
  set -f; set -- $PR; set +f
  ST=$1 PG=$3 SI=$4 T0=\${20}
}
member() {
  pstat "$1" || return 1
  case $ST in Z|X) return 1 ;; esac
  [ "$PG" = "$PGID" ] || [ "$SI" = "$SID" ]
}
scan() {
  M=""
  for f in /proc/[0-9]*/stat; do
    p=\${f#/proc/}; p=\${p%/stat}
    member "$p" && M="$M $p"
  done
}
recheck() {
  L=""
  for p in $M; do member "$p" && L="$L $p"; done
  M=$L
}
`;

/** `sleep` with a fraction where the host's sleep takes one (GNU, busybox), whole seconds otherwise. */
export const NAP = `
if sleep 0.01 2>/dev/null; then nap() { sleep "$1"; }; else nap() { sleep 1; }; fi
`;
