// A cgroup v2 per local launch, where the system lets vigil make one: every process of the launch stays in it,
// even one that left the session with setsid and cleared its environment, so a stop finds and kills them all.
// Hand-written: no npm package manages cgroup v2 directories; the interface is a handful of files.
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';

// A cgroup made for a launch, or why there is none.
export type LaunchCgroup = { ok: true; path: string } | { ok: false; reason: string };

/** The variable that turns the cgroup off: vigil then stops a launch through its session, group and marker. */
export const NO_CGROUP_VAR = 'VIGIL_NO_CGROUP';

/** Empty launch cgroups older than this are removed when a new one is made (servers that ended on their own). */
const STALE_MS = 60_000;

// Decodes the octal escapes (\040 for a space) that /proc/self/mountinfo uses in paths.
const unescapeMountPath = (path: string): string =>
  path.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));

// The cgroup2 mounts of this machine: where each is mounted, and which cgroup is its root.
export const cgroup2Mounts = (mountinfo?: string): { root: string; dir: string }[] => {
  let text = mountinfo;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/mountinfo', 'utf8');
    } catch {
      return [];
    }
  }
  const mounts: { root: string; dir: string }[] = [];
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    if (left === undefined || right?.split(' ')[0] !== 'cgroup2') continue;
    const fields = left.split(' ');
    const root = fields[3];
    const dir = fields[4];
    if (root !== undefined && dir !== undefined) {
      mounts.push({ root: unescapeMountPath(root), dir: unescapeMountPath(dir) });
    }
  }
  return mounts;
};

// This process's cgroup v2 path (`0::/path` in /proc/self/cgroup), or null on a machine without one.
export const ownCgroupPath = (procCgroup?: string): string | null => {
  let text = procCgroup;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/cgroup', 'utf8');
    } catch {
      return null;
    }
  }
  const line = text.split('\n').find((l) => l.startsWith('0::'));
  return line === undefined ? null : line.slice(3).replace(/ \(deleted\)$/, '');
};

// The directory of a cgroup path under one of the mounts, or null when none shows it.
export const cgroupDir = (path: string, mounts: readonly { root: string; dir: string }[]): string | null => {
  for (const mount of mounts) {
    const root = mount.root === '/' ? '' : mount.root;
    if (path !== root && !path.startsWith(`${root}/`) && root !== '') continue;
    return join(mount.dir, path.slice(root.length));
  }
  return null;
};

// Makes `vigil-<id>` under vigil's own cgroup (a child cgroup without controllers may hold processes, so the
// kernel's no-internal-processes rule does not get in the way), after removing stale empty ones beside it.
export const createLaunchCgroup = (id: string): LaunchCgroup => {
  const own = ownCgroupPath();
  if (own === null) return { ok: false, reason: 'this machine has no cgroup v2 hierarchy' };
  const parent = cgroupDir(own, cgroup2Mounts());
  if (parent === null)
    return { ok: false, reason: `vigil's cgroup ${own} is not mounted where it can see it` };
  try {
    // Moving a process needs write access to the cgroup.procs of the common ancestor: vigil's own cgroup.
    accessSync(join(parent, 'cgroup.procs'), constants.W_OK);
  } catch {
    return { ok: false, reason: `vigil's cgroup ${parent} is not delegated to this user` };
  }
  removeStaleLaunchCgroups(parent);
  const path = join(parent, `vigil-${id}`);
  try {
    mkdirSync(path);
  } catch (error) {
    return {
      ok: false,
      reason: `cannot create ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    };
  }
  if (!existsSync(join(path, 'cgroup.procs'))) {
    removeCgroup(path);
    return { ok: false, reason: `${path} is not a cgroup v2 directory` };
  }
  return { ok: true, path };
};

// Moves a process into the cgroup; false when the kernel refused (the launch then goes on without it).
export const joinCgroup = (path: string, pid: number): boolean => {
  try {
    writeFileSync(join(path, 'cgroup.procs'), String(pid));
    return true;
  } catch {
    return false;
  }
};

// The cgroup a record names, when it is one vigil could have made for that launch: a `vigil-<id>` directory on
// a cgroup2 mount. Anything else (a record edited by hand) is ignored rather than written to.
export const launchCgroupOf = (path: string | null | undefined, id: string): string | null => {
  if (path === null || path === undefined || basename(path) !== `vigil-${id}`) return null;
  const mounts = cgroup2Mounts();
  return mounts.some((m) => path.startsWith(`${m.dir}/`)) ? path : null;
};

// Every process in the cgroup and the cgroups below it; none when it is gone.
export const cgroupMembers = (path: string): number[] => {
  const pids: number[] = [];
  const walk = (dir: string): void => {
    try {
      for (const line of readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n')) {
        if (line !== '') pids.push(Number(line));
      }
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(dir, entry.name));
      }
    } catch {
      // removed meanwhile
    }
  };
  walk(path);
  return pids;
};

// SIGKILLs every process in the cgroup and below at once (cgroup.kill, Linux 5.14+), or one by one on older
// kernels; a process forking meanwhile cannot slip out of cgroup.kill.
export const killCgroup = (path: string): void => {
  try {
    writeFileSync(join(path, 'cgroup.kill'), '1');
    return;
  } catch {
    // no cgroup.kill: signal each member
  }
  for (const pid of cgroupMembers(path)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
};

// Removes the cgroup and any cgroups below it, deepest first; false when one still holds a process.
export const removeCgroup = (path: string): boolean => {
  try {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory() && !removeCgroup(join(path, entry.name))) return false;
    }
    rmdirSync(path);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
};

// Removes `vigil-*` cgroups beside a new one that are empty and were made over a minute ago: launches whose
// server ended on its own, without a `vigil stop` to remove their cgroup. A fresh one may still be waiting for
// its process, so young ones stay.
const removeStaleLaunchCgroups = (parent: string): void => {
  let names: string[];
  try {
    names = readdirSync(parent).filter((name) => /^vigil-[a-z0-9-]+$/.test(name));
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    const path = join(parent, name);
    try {
      if (now - statSync(path).ctimeMs < STALE_MS) continue;
      if (!/^populated 0$/m.test(readFileSync(join(path, 'cgroup.events'), 'utf8'))) continue;
    } catch {
      continue;
    }
    removeCgroup(path);
  }
};
