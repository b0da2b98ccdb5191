// A failed start whose log's filesystem is full: the disk explains it (class disk-full), not the log's last lines.
import { diskSpaceFor, formatBytes } from '../state/disk-space.ts';
import type { FailedFields } from './result.ts';

// Replaces the diagnosis when the log's filesystem is full now; otherwise returns the fields unchanged.
export const explainFullDisk = async (
  fields: FailedFields,
  logPath: string | null,
): Promise<FailedFields> => {
  if (logPath === null) return fields;
  const space = await diskSpaceFor(logPath);
  if (space === null || !space.full) return fields;
  return {
    ...fields,
    diagnosis: {
      class: 'disk-full',
      summary: `the filesystem of the log ${logPath} is full (${formatBytes(space.free)} free in ${space.path}): the server could not write its output`,
      evidence: fields.diagnosis.evidence,
      advice: [
        `free space on the filesystem of ${space.path} (df -h ${space.path}), or pass --log on another filesystem`,
      ],
    },
  };
};
