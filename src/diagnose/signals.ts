// Signal numbers and names as they show up in logs and exit codes: −N, 128+N, "signal N", SIGNAME.
import { constants } from 'node:os';

const BY_NUMBER = new Map<number, string>();
for (const [name, number] of Object.entries(constants.signals))
  if (!BY_NUMBER.has(number)) BY_NUMBER.set(number, name);

// The name of a signal number, e.g. 9 → SIGKILL (Linux numbering); null when unknown.
export const signalName = (number: number): string | null => BY_NUMBER.get(number) ?? null;

// The number of a signal name such as "SIGKILL" or "KILL"; null when unknown.
export const signalNumber = (name: string): number | null => {
  const upper = name.toUpperCase();
  const key = (upper.startsWith('SIG') ? upper : `SIG${upper}`) as keyof typeof constants.signals;
  const number = (constants.signals as Partial<Record<string, number>>)[key];
  return number ?? null;
};

// Reads a signal out of an exit code: −N (Python's returncode) or 128+N (a shell's); null for ordinary codes.
export const signalFromExitCode = (code: number | null | undefined): number | null => {
  if (code === null || code === undefined || !Number.isInteger(code)) return null;
  if (code < 0 && code >= -64) return -code;
  if (code > 128 && code <= 128 + 64) return code - 128;
  return null;
};

// What a signal usually means for an inference server that was starting.
export const explainSignal = (number: number, phase: string | null): string => {
  switch (number) {
    case 9:
      return phase === 'weight-load' || phase === 'process-up' || phase === null
        ? 'SIGKILL: usually the host OOM killer (host RAM ran out, often while weights are loaded into memory)'
        : 'SIGKILL: killed from outside (the host OOM killer, a container limit, or a person)';
    case 4:
      return 'SIGILL: an illegal instruction: a binary or kernel built for CPU/GPU features this host lacks';
    case 7:
      return 'SIGBUS: usually shared memory (/dev/shm) too small, as in a container started without a larger --shm-size';
    case 11:
      return 'SIGSEGV: a crash in native code (driver, CUDA kernels or a compiled extension)';
    case 6:
      return 'SIGABRT: a native library aborted (often a failed CUDA or NCCL assertion)';
    case 15:
      return 'SIGTERM: asked to stop from outside';
    default:
      return signalName(number) ?? `signal ${number}`;
  }
};
