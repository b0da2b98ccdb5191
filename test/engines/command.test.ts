import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readServerCommand, resolveSpawnArgv } from '../../src/engines/command.ts';

const sglang = (...args: string[]): string[] => [
  'python3',
  '-m',
  'sglang.launch_server',
  '--model-path',
  'm',
  ...args,
];

describe('readServerCommand', () => {
  it('reads the port as --port N, --port=N and an unambiguous prefix', () => {
    expect(readServerCommand(sglang('--port', '31000')).port).toBe(31000);
    expect(readServerCommand(sglang('--port=31001')).port).toBe(31001);
    expect(readServerCommand(sglang('--po', '31002'))).toMatchObject({ port: 31002, portSource: 'command' });
  });

  it("falls back to the engine's default port and bind address", () => {
    expect(readServerCommand(sglang())).toMatchObject({
      engine: 'sglang',
      port: 30000,
      portSource: 'default',
      bindHost: '127.0.0.1',
    });
    expect(readServerCommand(['vllm', 'serve', 'Qwen/Qwen3-0.6B'])).toMatchObject({
      engine: 'vllm',
      port: 8000,
      bindHost: '0.0.0.0',
      model: 'Qwen/Qwen3-0.6B',
    });
  });

  it('reads the bind host, API key, node rank and speculative settings', () => {
    const read = readServerCommand(
      sglang(
        '--host',
        '0.0.0.0',
        '--api-key=sk-live-123',
        '--node-rank',
        '1',
        '--speculative-algorithm',
        'EAGLE3',
        '--speculative-draft-model-path',
        'draft',
      ),
    );
    expect(read).toMatchObject({
      bindHost: '0.0.0.0',
      apiKey: 'sk-live-123',
      nodeRank: 1,
      model: 'm',
      speculative: { algorithm: 'EAGLE3', draftModel: 'draft', config: null },
    });
  });

  it('reads vLLM options spelled with underscores and its positional model', () => {
    const read = readServerCommand(['vllm', 'serve', 'org/model', '--api_key', 'k-1234', '--port', '8100']);
    expect(read).toMatchObject({ apiKey: 'k-1234', port: 8100, model: 'org/model' });
  });

  it('reads the simulator like the engine it simulates', () => {
    const read = readServerCommand(['vigil', 'sim', 'vllm', '--', 'serve', 'm', '--port', '8200']);
    expect(read).toMatchObject({ engine: 'vllm', port: 8200, model: 'm' });
  });

  it('treats an unrecognised command as generic, knowing nothing about its port', () => {
    expect(readServerCommand(['./serve.sh', '--port', '9000'])).toMatchObject({
      engine: 'generic',
      entrypoint: null,
      port: null,
      bindHost: null,
    });
  });

  it('--engine on a command vigil cannot read selects the rules only', () => {
    expect(readServerCommand(['./serve.sh', '--port', '9000'], 'sglang')).toMatchObject({
      engine: 'sglang',
      port: null,
    });
  });

  it('--engine generic ignores a recognised entrypoint', () => {
    expect(readServerCommand(sglang('--port', '31000'), 'generic')).toMatchObject({
      engine: 'generic',
      port: null,
    });
  });

  it('reads the port, API key and model from a --config file, typed flags winning, relative to cwd', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-command-'));
    try {
      writeFileSync(
        join(dir, 'serve.yaml'),
        'model-path: org/from-file\nport: 31001\napi-key: sk-file-key\n',
      );
      const base = ['python3', '-m', 'sglang.launch_server', '--config', 'serve.yaml'];
      const fromFile = readServerCommand(base, 'auto', dir);
      expect(fromFile).toMatchObject({ port: 31001, portSource: 'command', apiKey: 'sk-file-key' });
      expect(fromFile.model).toBe('org/from-file');
      expect(readServerCommand([...base, '--port', '31002'], 'auto', dir).port).toBe(31002);
      // Not found from another folder: the engine's default, and preflight reports the file.
      expect(readServerCommand(base, 'auto', tmpdir()).port).toBe(30000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a port value that is not a port, rather than reading it as one', () => {
    expect(readServerCommand(sglang('--port', '99999'))).toMatchObject({ port: 30000, badPort: '99999' });
    expect(readServerCommand(sglang('--port', '0')).badPort).toBe('0');
    expect(readServerCommand(sglang('--port', '65535'))).toMatchObject({ port: 65535, badPort: null });
  });
});

describe('resolveSpawnArgv', () => {
  const self = (): string[] => ['/usr/bin/node', '/opt/vigil/bin/vigil.js'];

  it('runs a leading `vigil sim` as this node binary and vigil entry point', () => {
    expect(resolveSpawnArgv(['vigil', 'sim', 'sglang', '--', '--model-path', 'm'], self)).toEqual([
      '/usr/bin/node',
      '/opt/vigil/bin/vigil.js',
      'sim',
      'sglang',
      '--',
      '--model-path',
      'm',
    ]);
  });

  it('leaves every other command alone', () => {
    expect(resolveSpawnArgv(['python3', '-m', 'sglang.launch_server'], self)).toEqual([
      'python3',
      '-m',
      'sglang.launch_server',
    ]);
    expect(resolveSpawnArgv(['vigil', 'status'], self)).toEqual(['vigil', 'status']);
  });
});
