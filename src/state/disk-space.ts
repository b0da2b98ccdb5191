// Whether the filesystem under a path is full (fs.statfs): a server whose log cannot grow cannot print its ready
// line, and its crash is explained by the disk, not by its last lines.
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Below this much space for unprivileged writers the filesystem counts as full (a log line needs a block). */
const FULL_BELOW = 64 * 1024;

export interface DiskSpace {
  /** The folder that was measured. */
  path: string;
  /** Bytes available to unprivileged writers. */
  free: number;
  full: boolean;
}

// Measures the filesystem holding a file (its folder); null when it cannot be measured.
export const diskSpaceFor = async (file: string): Promise<DiskSpace | null> => {
  const folder = dirname(file);
  try {
    const info = await statfs(folder);
    const free = info.bavail * info.bsize;
    return { path: folder, free, full: free < FULL_BELOW };
  } catch {
    return null;
  }
};

// "12 KB", "0 bytes": free space for messages.
export const formatBytes = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.floor(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
};
