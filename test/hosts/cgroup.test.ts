// Finding the cgroup v2 hierarchy and vigil's own cgroup in it, from /proc/self/mountinfo and /proc/self/cgroup.
import { describe, expect, it } from 'vitest';
import { cgroup2Mounts, cgroupDir, launchCgroupOf, ownCgroupPath } from '../../src/hosts/cgroup.ts';

const HYBRID = [
  '31 25 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755',
  '32 31 0:27 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw',
  '33 31 0:28 / /sys/fs/cgroup/memory rw,relatime shared:11 - cgroup cgroup rw,memory',
].join('\n');

describe('the cgroup v2 hierarchy', () => {
  it('finds cgroup2 mounts only, with escaped paths decoded', () => {
    expect(cgroup2Mounts(HYBRID)).toEqual([{ root: '/', dir: '/sys/fs/cgroup/unified' }]);
    expect(cgroup2Mounts('40 1 0:30 /sub /mnt/my\\040cg rw - cgroup2 cgroup2 rw')).toEqual([
      { root: '/sub', dir: '/mnt/my cg' },
    ]);
  });

  it("reads vigil's own cgroup from the 0:: line, and none on a v1-only machine", () => {
    expect(ownCgroupPath('4:memory:/x\n0::/user.slice/session-3.scope\n')).toBe(
      '/user.slice/session-3.scope',
    );
    expect(ownCgroupPath('4:memory:/x\n1:cpu:/\n')).toBe(null);
  });

  it('maps a cgroup path to its directory under a mount whose root contains it', () => {
    const mounts = [{ root: '/', dir: '/sys/fs/cgroup' }];
    expect(cgroupDir('/a/b', mounts)).toBe('/sys/fs/cgroup/a/b');
    const bound = [{ root: '/sub', dir: '/mnt/cg' }];
    expect(cgroupDir('/sub/a', bound)).toBe('/mnt/cg/a');
    expect(cgroupDir('/other', bound)).toBe(null);
  });

  it("uses a record's cgroup only when it is that launch's folder on a cgroup2 mount", () => {
    const [mount] = cgroup2Mounts();
    if (mount !== undefined) {
      expect(launchCgroupOf(`${mount.dir}/vigil-sglang-1-ab12`, 'sglang-1-ab12')).toBe(
        `${mount.dir}/vigil-sglang-1-ab12`,
      );
      expect(launchCgroupOf(`${mount.dir}/system.slice`, 'sglang-1-ab12')).toBe(null);
    }
    expect(launchCgroupOf('/tmp/vigil-sglang-1-ab12', 'sglang-1-ab12')).toBe(null);
    expect(launchCgroupOf(null, 'sglang-1-ab12')).toBe(null);
  });
});
