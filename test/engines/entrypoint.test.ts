import { describe, expect, it } from 'vitest';
import { findEntrypoint } from '../../src/engines/entrypoint.ts';

describe('findEntrypoint', () => {
  it('finds python -m sglang.launch_server behind wrappers', () => {
    const argv = [
      'nohup',
      'env',
      'A=1',
      '/opt/venv/bin/python3',
      '-u',
      '-m',
      'sglang.launch_server',
      '--port',
      '1',
    ];
    expect(findEntrypoint(argv)).toMatchObject({
      engine: 'sglang',
      argsStart: 7,
      interpreter: '/opt/venv/bin/python3',
    });
  });

  it('finds vllm serve and the api_server module', () => {
    expect(findEntrypoint(['uv', 'run', 'vllm', 'serve', 'm'])).toMatchObject({
      engine: 'vllm',
      argsStart: 4,
    });
    expect(findEntrypoint(['python', '-m', 'vllm.entrypoints.openai.api_server'])).toMatchObject({
      engine: 'vllm',
    });
  });

  it('finds vigil sim', () => {
    expect(findEntrypoint(['vigil', 'sim', 'vllm', '--', 'serve', 'm'])).toMatchObject({
      engine: 'vllm',
      argsStart: 5,
    });
    expect(findEntrypoint(['vigil', 'sim', 'sglang', '--', '--model-path', 'm'])).toMatchObject({
      argsStart: 4,
    });
  });

  it('returns null for anything else', () => {
    expect(findEntrypoint(['python', 'server.py'])).toBeNull();
    expect(findEntrypoint(['python', '-m', 'http.server'])).toBeNull();
  });
});
