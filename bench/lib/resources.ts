// CPU time and peak memory of a running process, read from /proc (Linux).
import { readFileSync } from 'node:fs';

/** Clock ticks per second for /proc/<pid>/stat (CLK_TCK; 100 on Linux). */
const TICKS_PER_SECOND = 100;

export interface Usage {
  cpuSeconds: number;
  peakRssMb: number;
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
    const hwm = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return { cpuSeconds: (utime + stime) / TICKS_PER_SECOND, peakRssMb: Number(hwm?.[1] ?? 0) / 1024 };
  } catch {
    return null;
  }
};
