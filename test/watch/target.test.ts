import { describe, expect, it } from 'vitest';
import { probeHost, resolveTarget } from '../../src/watch/target.ts';
import { getEngine } from '../../src/engines/index.ts';
import { readServerCommand } from '../../src/engines/command.ts';

const sglangCommand = (...args: string[]) =>
  readServerCommand(['python3', '-m', 'sglang.launch_server', '--model-path', 'm', ...args]);

describe('probeHost', () => {
  it('probes loopback for a server bound to every address', () => {
    expect(probeHost('0.0.0.0')).toBe('127.0.0.1');
    expect(probeHost('::')).toBe('[::1]');
    expect(probeHost('[::]')).toBe('[::1]');
    expect(probeHost(null)).toBe('127.0.0.1');
  });

  it('keeps a specific address, bracketing IPv6', () => {
    expect(probeHost('10.1.2.3')).toBe('10.1.2.3');
    expect(probeHost('fe80::1')).toBe('[fe80::1]');
    expect(probeHost('localhost')).toBe('localhost');
  });
});

describe('resolveTarget', () => {
  it('builds the health URL from the command, with the ready-line rule when a log is followed', () => {
    const target = resolveTarget({
      spec: getEngine('sglang'),
      command: sglangCommand('--host', '0.0.0.0', '--port', '31000', '--api-key', 'sk-123456'),
      url: null,
      port: null,
      followsLog: true,
      apiKey: 'sk-123456',
    });
    expect(target).toEqual({
      healthUrl: 'http://127.0.0.1:31000/health',
      origin: 'http://127.0.0.1:31000',
      headers: { authorization: 'Bearer sk-123456' },
      needReadyLine: true,
      noApi: false,
      bind: { host: '0.0.0.0', port: 31000 },
      fastProbe: true,
    });
  });

  it('appends the engine health path to a URL without one, and keeps a URL path as given', () => {
    const base = { spec: getEngine('vllm'), command: null, port: null, followsLog: false, apiKey: null };
    expect(resolveTarget({ ...base, url: new URL('http://127.0.0.1:8000') }).healthUrl).toBe(
      'http://127.0.0.1:8000/health',
    );
    expect(resolveTarget({ ...base, url: new URL('http://127.0.0.1:8000/v1/ping?x=1') }).healthUrl).toBe(
      'http://127.0.0.1:8000/v1/ping?x=1',
    );
  });

  it('probes SGLang at /health_generate when no log is followed, never at the fast rate', () => {
    const target = resolveTarget({
      spec: getEngine('sglang'),
      command: null,
      url: new URL('http://localhost:30000/'),
      port: null,
      followsLog: false,
      apiKey: null,
    });
    expect(target.healthUrl).toBe('http://localhost:30000/health_generate');
    expect(target.needReadyLine).toBe(false);
    expect(target.fastProbe).toBe(false);
    const given = resolveTarget({
      spec: getEngine('sglang'),
      command: null,
      url: new URL('http://localhost:30000/health_generate/'),
      port: null,
      followsLog: true,
      apiKey: null,
    });
    expect(given.fastProbe).toBe(false);
  });

  it('watches only process and log for an SGLang node rank of 1 or more', () => {
    const target = resolveTarget({
      spec: getEngine('sglang'),
      command: sglangCommand('--node-rank', '1'),
      url: null,
      port: null,
      followsLog: true,
      apiKey: null,
    });
    expect(target).toMatchObject({ healthUrl: null, noApi: true });
  });

  it('needs --url or --port for a command it cannot read', () => {
    const generic = {
      spec: getEngine('generic'),
      command: readServerCommand(['./serve']),
      url: null,
      followsLog: true,
      apiKey: null,
    };
    expect(() => resolveTarget({ ...generic, port: null })).toThrow(/cannot tell which port/);
    expect(resolveTarget({ ...generic, port: 9000 })).toMatchObject({
      healthUrl: 'http://127.0.0.1:9000/health',
      needReadyLine: false,
      bind: { host: '0.0.0.0', port: 9000 },
    });
  });

  it('test-binds the port of a loopback URL, and nothing for a remote one', () => {
    const base = { spec: getEngine('generic'), command: null, port: null, followsLog: true, apiKey: null };
    expect(resolveTarget({ ...base, url: new URL('http://127.0.0.1:9100/ok') }).bind).toEqual({
      host: '0.0.0.0',
      port: 9100,
    });
    expect(resolveTarget({ ...base, url: new URL('http://[::1]:9100/ok') }).bind).toEqual({
      host: '::',
      port: 9100,
    });
    expect(resolveTarget({ ...base, url: new URL('http://gpu-7.example:9100/ok') }).bind).toBeNull();
  });
});
