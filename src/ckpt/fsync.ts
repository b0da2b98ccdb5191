// fsync for folders: makes a rename or a new file's name durable.
import { open } from 'node:fs/promises';

export const syncDir = async (dir: string): Promise<void> => {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};
