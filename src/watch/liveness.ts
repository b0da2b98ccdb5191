// Liveness, the first of the three signals: the launched leader, then its session; or a pid given to `vigil wait`.
import type { DetachedProcess } from '../hosts/spawn.ts';
import { findTreeMembers, isProcessAlive, readProcStat } from '../hosts/proc.ts';

// How the watched process ended, as far as vigil can know.
export interface ProcessEnd {
  code: number | null;
  signal: string | null;
  /** How vigil knows, for the failure message. */
  detail: string;
  /** The remote host rebooted: the process is gone with everything else on it. */
  hostRebooted?: boolean;
}

// What a liveness source reports to the watch loop.
export interface LivenessHandlers {
  onEnd: (end: ProcessEnd) => void;
  onNotice: (code: string, message: string) => void;
}

// One liveness source: the launched leader and its session, or a pid.
export interface Liveness {
  start(handlers: LivenessHandlers): void;
  stop(): void;
}

/** /proc polling period for processes vigil did not spawn (its own child reports its exit at once). */
const PID_POLL_MS = 50;
/** How often the whole session is rescanned for processes it started since. */
const SESSION_SCAN_MS = 1000;

// Watches a spawned leader: a non-zero exit or a signal ends the start at once; an exit 0 while the session
// lives on (a wrapper that backgrounded the server) is a notice, and the session's processes are watched instead.
export const watchLaunched = (child: DetachedProcess): Liveness => {
  let stopped = false;
  let session: Liveness | null = null;
  return {
    start(handlers) {
      void child.exited.then((exit) => {
        if (stopped) return;
        if (exit.code !== 0 || exit.signal !== null) {
          handlers.onEnd({ ...exit, detail: describeExit(exit.code, exit.signal) });
          return;
        }
        if (findTreeMembers({ sid: child.sid }).length === 0) {
          handlers.onEnd({ code: 0, signal: null, detail: 'exited with code 0 before the server was ready' });
          return;
        }
        handlers.onNotice(
          'leader-exited',
          `the launched command (pid ${child.pid}) exited 0 but its session lives on; watching those processes`,
        );
        session = watchSession(child.sid);
        session.start({
          onEnd: () => {
            handlers.onEnd({
              code: null,
              signal: null,
              detail: `the server's processes ended (the launched command had exited 0)`,
            });
          },
          onNotice: (code, message) => {
            handlers.onNotice(code, message);
          },
        });
      });
    },
    stop() {
      stopped = true;
      session?.stop();
    },
  };
};

// Watches every process of a session until none is left (zombies count as dead).
export const watchSession = (sid: number): Liveness => {
  let timer: NodeJS.Timeout | null = null;
  return {
    start(handlers) {
      let known = findTreeMembers({ sid }).map((p) => p.pid);
      let lastScan = Date.now();
      timer = setInterval(() => {
        known = known.filter((pid) => isProcessAlive(pid));
        if (known.length === 0 || Date.now() - lastScan >= SESSION_SCAN_MS) {
          known = findTreeMembers({ sid }).map((p) => p.pid);
          lastScan = Date.now();
        }
        if (known.length === 0) {
          if (timer !== null) clearInterval(timer);
          handlers.onEnd({ code: null, signal: null, detail: `no process of session ${sid} is left` });
        }
      }, PID_POLL_MS);
    },
    stop() {
      if (timer !== null) clearInterval(timer);
    },
  };
};

// Watches a pid vigil did not start: polls /proc/PID/stat; a zombie is dead, a changed start time is a reused pid.
export const watchPid = (pid: number): Liveness => {
  let timer: NodeJS.Timeout | null = null;
  return {
    start(handlers) {
      const first = readProcStat(pid);
      const check = (): boolean => {
        const now = readProcStat(pid);
        let detail: string | null = null;
        if (now === null) detail = `process ${pid} is gone`;
        else if (now.state === 'Z' || now.state === 'X') detail = `process ${pid} exited (zombie)`;
        else if (first !== null && now.starttime !== first.starttime)
          detail = `process ${pid} exited (pid reused)`;
        if (detail === null) return false;
        if (timer !== null) clearInterval(timer);
        handlers.onEnd({ code: null, signal: null, detail });
        return true;
      };
      if (first === null) {
        handlers.onEnd({ code: null, signal: null, detail: `process ${pid} is not running` });
        return;
      }
      if (!check()) timer = setInterval(check, PID_POLL_MS);
    },
    stop() {
      if (timer !== null) clearInterval(timer);
    },
  };
};

// "exit code 1" or "killed by SIGKILL".
export const describeExit = (code: number | null, signal: string | null): string =>
  signal !== null ? `killed by ${signal}` : `exit code ${code ?? '?'}`;
