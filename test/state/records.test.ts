import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  findLaunchRecord,
  launchesDir,
  listLaunchRecords,
  newLaunchId,
  readLaunchRecord,
  rewriteLaunchRecord,
  updateLaunchRecord,
  writeLaunchRecord,
  type LaunchRecord,
} from '../../src/state/records.ts';
import { isVigilError } from '../../src/errors.ts';
import { makeTempDir, removeTempDirs } from '../helpers/temp.ts';

afterEach(removeTempDirs);

const record = (id: string, startedAt = '2026-01-01T00:00:00.000Z'): LaunchRecord => ({
  version: 1,
  id,
  engine: 'sglang',
  host: 'local',
  pid: 1234,
  pgid: 1234,
  sid: 1234,
  proc_start: 99,
  started_at: startedAt,
  log: '/tmp/x.log',
  log_offset: 0,
  command: ['python3', '-m', 'sglang.launch_server', '--api-key', '***'],
  url: 'http://127.0.0.1:30000',
  health_url: 'http://127.0.0.1:30000/health',
  port: 30000,
  outcome: 'starting',
  ended_at: null,
});

describe('launch records', () => {
  it('writes a record with mode 0600 and reads it back', async () => {
    const dir = await makeTempDir();
    await writeLaunchRecord(dir, record('sglang-30000-ab12'));
    expect((await stat(join(launchesDir(dir), 'sglang-30000-ab12.json'))).mode & 0o777).toBe(0o600);
    expect(await readLaunchRecord(dir, 'sglang-30000-ab12')).toEqual(record('sglang-30000-ab12'));
    expect((await readdir(launchesDir(dir))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('updates the outcome in place', async () => {
    const dir = await makeTempDir();
    await writeLaunchRecord(dir, record('a-1'));
    await updateLaunchRecord(dir, 'a-1', { outcome: 'ready' });
    expect((await readLaunchRecord(dir, 'a-1')).outcome).toBe('ready');
    await updateLaunchRecord(dir, 'missing-1', { outcome: 'ready' });
    await expect(readLaunchRecord(dir, 'missing-1')).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
  });

  it('rewrites its own record with changed fields, and leaves a removed record removed', async () => {
    const dir = await makeTempDir();
    const mine = record('c-3');
    await writeLaunchRecord(dir, mine);
    await rewriteLaunchRecord(dir, mine, { outcome: 'failed', ended_at: '2026-01-01T00:01:00.000Z' });
    expect(await readLaunchRecord(dir, 'c-3')).toEqual({
      ...mine,
      outcome: 'failed',
      ended_at: '2026-01-01T00:01:00.000Z',
    });
    expect((await stat(join(launchesDir(dir), 'c-3.json'))).mode & 0o777).toBe(0o600);
    await rm(join(launchesDir(dir), 'c-3.json'));
    await rewriteLaunchRecord(dir, mine, { outcome: 'ready' });
    await expect(readLaunchRecord(dir, 'c-3')).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
    expect((await readdir(launchesDir(dir))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('lists records oldest first and skips files it cannot read', async () => {
    const dir = await makeTempDir();
    await writeLaunchRecord(dir, record('b-2', '2026-01-02T00:00:00.000Z'));
    await writeLaunchRecord(dir, record('a-1', '2026-01-01T00:00:00.000Z'));
    await mkdir(launchesDir(dir), { recursive: true });
    await writeFile(join(launchesDir(dir), 'broken.json'), '{ not json');
    expect((await listLaunchRecords(dir)).map((r) => r.id)).toEqual(['a-1', 'b-2']);
    expect(await listLaunchRecords(join(dir, 'nothing-here'))).toEqual([]);
  });

  it('finds a launch by an unambiguous prefix, and names the known ids when it cannot', async () => {
    const dir = await makeTempDir();
    await writeLaunchRecord(dir, record('sglang-30000-ab12'));
    await writeLaunchRecord(dir, record('sglang-30000-cd34'));
    await writeLaunchRecord(dir, record('vllm-8000-ef56'));
    expect((await findLaunchRecord(dir, 'vllm')).id).toBe('vllm-8000-ef56');
    expect((await findLaunchRecord(dir, 'sglang-30000-cd34')).id).toBe('sglang-30000-cd34');
    const ambiguous: unknown = await findLaunchRecord(dir, 'sglang').catch((e: unknown) => e);
    expect(isVigilError(ambiguous) && ambiguous.code).toBe('E_NOT_FOUND');
    expect((ambiguous as Error).message).toMatch(/ambiguous/);
    const unknown: unknown = await findLaunchRecord(dir, 'tgi').catch((e: unknown) => e);
    expect(isVigilError(unknown) && unknown.hint).toBe(
      'known launches: sglang-30000-ab12, sglang-30000-cd34, vllm-8000-ef56',
    );
  });

  it('refuses ids that could name a path outside the records folder', async () => {
    const dir = await makeTempDir();
    await expect(readLaunchRecord(dir, '../../etc/passwd')).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
  });

  it('makes short readable ids', () => {
    expect(newLaunchId('sglang', 30000)).toMatch(/^sglang-30000-[0-9a-f]{4}$/);
    expect(newLaunchId('generic', null)).toMatch(/^generic-[0-9a-f]{4}$/);
  });
});
