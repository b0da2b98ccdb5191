import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnvFile, resolveEnv } from '../../src/watch/env.ts';
import { makeTempDir, removeTempDirs } from '../helpers/temp.ts';

afterEach(removeTempDirs);

describe('parseEnvFile', () => {
  it('reads NAME=VALUE lines with comments, export, and quotes', () => {
    const text = [
      '# NCCL tuning',
      '',
      'NCCL_DEBUG=INFO',
      'export NCCL_IB_HCA=mlx5_0,mlx5_1',
      'QUOTED="a b # not a comment"',
      "SINGLE='$HOME stays'",
      'ESCAPED="line\\nnext"',
      'TRAILING=value # a comment',
      'EMPTY=',
    ].join('\n');
    expect(parseEnvFile(text, 'x.env')).toEqual({
      NCCL_DEBUG: 'INFO',
      NCCL_IB_HCA: 'mlx5_0,mlx5_1',
      QUOTED: 'a b # not a comment',
      SINGLE: '$HOME stays',
      ESCAPED: 'line\nnext',
      TRAILING: 'value',
      EMPTY: '',
    });
  });

  it('names the file and line of a malformed line', () => {
    expect(() => parseEnvFile('GOOD=1\nthis is not a pair\n', 'nccl.env')).toThrow(
      /nccl\.env:2: expected NAME=VALUE/,
    );
    expect(() => parseEnvFile('A="open\n', 'q.env')).toThrow(/q\.env:1: .*never closes/);
  });
});

describe('resolveEnv', () => {
  it('merges files, then pairs, copying NAME from vigil’s environment', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'a.env');
    await writeFile(file, 'A=from-file\nB=from-file\n');
    const env = resolveEnv({
      files: [file],
      pairs: ['B=from-pair', 'HF_TOKEN'],
      from: { HF_TOKEN: 'hf_abc' },
    });
    expect(env).toEqual({ A: 'from-file', B: 'from-pair', HF_TOKEN: 'hf_abc' });
  });

  it('says what to do when NAME is not set, a pair is malformed, or a file is unreadable', () => {
    expect(() => resolveEnv({ pairs: ['MISSING_VAR'], from: {} })).toThrow(/MISSING_VAR is not set/);
    expect(() => resolveEnv({ pairs: ['1BAD=x'], from: {} })).toThrow(/--env: expected NAME=VALUE or NAME/);
    expect(() => resolveEnv({ files: ['/nonexistent/vigil.env'], from: {} })).toThrow(
      /--env-file \/nonexistent\/vigil\.env: cannot read it/,
    );
  });
});
