import { describe, expect, it } from 'vitest';
import { isLocalHost, parseDestination } from '../../../src/hosts/remote/destination.ts';
import { stdinShell } from '../../../src/hosts/remote/quote.ts';
import { classifySshFailure } from '../../../src/hosts/remote/ssh-errors.ts';

describe('parseDestination', () => {
  it('reads user, host and port', () => {
    expect(parseDestination('root@gpu-1:2222')).toMatchObject({ user: 'root', host: 'gpu-1', port: 2222 });
    expect(parseDestination('gpu-1')).toMatchObject({ user: null, host: 'gpu-1', port: null });
    expect(parseDestination('admin@[fd00::1]:22')).toMatchObject({
      user: 'admin',
      host: 'fd00::1',
      port: 22,
    });
  });

  it('refuses what ssh could read as an option or a shell could expand', () => {
    for (const bad of [
      '-oProxyCommand=x',
      'root@-x',
      'a b',
      'h;rm',
      '$(x)',
      'h:99999',
      'h:',
      '',
      'fd00::1',
    ]) {
      expect(() => parseDestination(bad), bad).toThrow(/--host/);
    }
  });

  it('treats local names as this machine', () => {
    expect(isLocalHost(undefined)).toBe(true);
    expect(isLocalHost('localhost')).toBe(true);
    expect(isLocalHost('root@gpu-1')).toBe(false);
  });
});

describe('stdinShell', () => {
  it('turns a -c shell into the same shell reading stdin', () => {
    expect(stdinShell(undefined)).toEqual(['sh', '-s']);
    expect(stdinShell('bash -lc')).toEqual(['bash', '-l', '-s']);
    expect(stdinShell('bash -l -c')).toEqual(['bash', '-l', '-s']);
    expect(() => stdinShell('bash; rm -rf /')).toThrow(/--remote-shell/);
  });
});

describe('classifySshFailure', () => {
  it('names the cause from ssh stderr', () => {
    expect(classifySshFailure('ssh: connect to host 1.2.3.4 port 22: Connection timed out')).toBe('timeout');
    expect(classifySshFailure('root@h: Permission denied (publickey).')).toBe('auth');
    expect(
      classifySshFailure(
        'No ED25519 host key is known for h and you have requested strict checking.\nHost key verification failed.',
      ),
    ).toBe('host-key-unknown');
    expect(classifySshFailure('@@@ WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED! @@@')).toBe(
      'host-key-changed',
    );
    expect(classifySshFailure('ssh: connect to host h port 22: Connection refused')).toBe('refused');
  });
});
