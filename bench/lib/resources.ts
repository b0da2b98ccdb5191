// CPU time and peak memory of a running process, read from /proc (Linux).
import { readFileSync } from 'node:fs';

/** Clock ticks per second for /proc/<pid>/stat (CLK_TCK; 100 on Linux). */
const TICKS_PER_SECOND = 100;

export interface Usage {
  cpuSeconds: number;
  /** VmHWM: the peak resident set so far. */
  peakRssMb: number;
  /** VmRSS: the resident set now. */
  rssMb: number;
}

// utime+stime from /proc/<pid>/stat and VmHWM from /proc/<pid>/status; null when the process is gone.
export const readUsage = (pid: number): Usage | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which sits in parentheses and may itself hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number =>
      Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? 0);
    return {
      cpuSeconds: (utime + stime) / TICKS_PER_SECOND,
      peakRssMb: kb('VmHWM') / 1024,
      rssMb: kb('VmRSS') / 1024,
    };
  } catch {
    return null;
  }
};
