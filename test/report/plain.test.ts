import { describe, expect, it } from 'vitest';
import type { VigilEvent } from '../../src/events.ts';
import { createPlainRenderer } from '../../src/report/human-lines.ts';
import { createRedactor } from '../../src/redact/redactor.ts';
import { createMemoryStream } from './memory-stream.ts';
import { failed, launched, readyRun, SECRET_KEY, SECRET_TOKEN } from './scripts.ts';

const redact = createRedactor({ argv: ['--api-key', SECRET_KEY], env: { HF_TOKEN: SECRET_TOKEN } });

const renderPlain = (
  events: VigilEvent[],
  extra: { stallTimeoutMs?: number; serverCommand?: string[] } = {},
) => {
  const stream = createMemoryStream();
  const renderer = createPlainRenderer({ stream, redact, ...extra });
  for (const event of events) renderer.render(event);
  renderer.close();
  return stream.text();
};

describe('plain renderer: a crash', () => {
  it('says the server exited as soon as the exited event comes, before the verdict', () => {
    const stream = createMemoryStream();
    const renderer = createPlainRenderer({ stream, redact });
    renderer.render(launched());
    renderer.render({
      type: 'exited',
      t: 31_010,
      server_exit_code: 1,
      server_signal: null,
      elapsed_ms: 31_000,
    });
    expect(stream.text()).toContain('[31s] server exited (code 1) after 31s\n');
    renderer.render({
      type: 'exited',
      t: 5_010,
      server_exit_code: null,
      server_signal: 'SIGKILL',
      elapsed_ms: 5_000,
    });
    expect(stream.text()).toContain('server exited (signal SIGKILL) after 5s\n');
    renderer.render(failed());
    renderer.close();
    expect(stream.text()).toMatch(/server exited \(code 1\)[^]*crashed after 31s \(exit code 1\)/);
  });
});

describe('plain renderer', () => {
  const text = renderPlain(readyRun());
  const lines = text.split('\n');

  it('prints no control codes, even with FORCE_COLOR-style defaults', () => {
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u001b\r]/);
  });

  it('stamps event lines with the elapsed time', () => {
    expect(lines).toContain(
      '[1m00s] still starting — phase weight-load 2/4 — last: Loading safetensors checkpoint shards:  50% Completed | 2/4',
    );
    expect(lines).toContain('[2s] phase weight-load 0/4 (process-up took 2s)');
    expect(lines).toContain('[1m01s] phase graph-capture (weight-load took 59s)');
  });

  it('says how to stop what it launched', () => {
    expect(lines).toContain(
      '[40ms] launched pid 4242 (process group 4242) on localhost; log: /tmp/vigil/l-7f3a.log',
    );
    expect(lines).toContain('[40ms] stop with: vigil stop l-7f3a');
  });

  it('prints rung and status changes, not every probe', () => {
    const probeLines = lines.filter((line) => line.includes('http://127.0.0.1:30000/health →'));
    expect(probeLines).toEqual([
      '[100ms] health: http://127.0.0.1:30000/health → ECONNREFUSED',
      '[1m02s] HTTP up: http://127.0.0.1:30000/health → 503',
      '[1m05s] healthy: http://127.0.0.1:30000/health → 200',
    ]);
  });

  it('prints progress-only phase updates nowhere but in heartbeats', () => {
    expect(lines.filter((line) => line.includes('phase weight-load'))).toHaveLength(2);
  });

  it('ends with the ready line', () => {
    expect(lines.filter((line) => line !== '').slice(-2)).toEqual([
      'ready after 2m11s — http://127.0.0.1:30000',
      'stop with: vigil stop l-7f3a',
    ]);
  });

  it('never prints a secret', () => {
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain(SECRET_TOKEN);
    expect(text).toContain("api_key='***'");
  });

  it('follows a crash with the log tail and the diagnosis', () => {
    const out = renderPlain([launched(), failed()]).split('\n');
    const verdict = out.indexOf('crashed after 31s (exit code 1)');
    expect(verdict).toBeGreaterThan(0);
    expect(out.slice(verdict + 1, verdict + 4)).toEqual([
      'last 2 lines of /tmp/vigil/l-7f3a.log:',
      '  87 | Capture cuda graph begin.',
      '  88 | torch.OutOfMemoryError: CUDA out of memory.',
    ]);
    const rest = out.slice(verdict + 4).join('\n');
    expect(rest).toContain('cuda-oom');
    expect(rest).toContain('lower --mem-fraction-static');
  });

  it('lists survivors and says when the server was kept running', () => {
    const out = renderPlain([
      launched(),
      failed({ survivors: [{ pid: 4250, command: 'python -m sglang.launch_server' }], kept_running: true }),
    ]);
    expect(out).toContain('still running after stop: pid 4250 python -m sglang.launch_server');
    expect(out).toContain('the server was left running — stop with: vigil stop l-7f3a');
  });

  it('prints preflight findings with the best suggestion and no diagnosis repeat', () => {
    const command = [
      'python',
      '-m',
      'sglang.launch_server',
      '--num-speculative-tokens',
      '4',
      '--api-key',
      SECRET_KEY,
    ];
    const out = renderPlain(
      [
        {
          type: 'preflight',
          t: 12,
          status: 'errors',
          source: { kind: 'bundled', engine: 'sglang', version: '0.5.4', path: null },
          findings: [
            {
              severity: 'error',
              code: 'unknown-option',
              index: 3,
              arg: '--num-speculative-tokens',
              message: 'not an SGLang option',
              suggestions: ['--speculative-num-draft-tokens'],
            },
          ],
        },
        failed({
          reason: 'preflight',
          exit_code: 2,
          t: 14,
          elapsed_ms: 14,
          log_tail: [],
          diagnosis: {
            class: 'unknown-flag',
            summary: '1 unknown flag',
            evidence: [],
            advice: ['use --speculative-num-draft-tokens'],
          },
        }),
      ],
      { serverCommand: command },
    );
    expect(out).toContain('--num-speculative-tokens');
    expect(out).toContain('--speculative-num-draft-tokens');
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      'preflight failed: 1 error in the server command (above); nothing was launched',
    );
    expect(out).toContain('^^^^');
    expect(out).not.toContain(SECRET_KEY);
  });

  it('does not repeat the summary of a port-in-use failure, but gives its advice', () => {
    const summary = 'port 30000 is already in use by vigil launch l-1 (pid 77)';
    const out = renderPlain([
      failed({
        reason: 'preflight',
        exit_code: 2,
        log_tail: [],
        diagnosis: { class: 'port-in-use', summary, evidence: [], advice: ['stop it: vigil stop l-1'] },
      }),
    ]);
    expect(out).toBe(`preflight failed: ${summary}\nwhat to do:\n  - stop it: vigil stop l-1\n`);
  });

  it('says why preflight was skipped', () => {
    const out = renderPlain([
      {
        type: 'preflight',
        t: 1,
        status: 'skipped',
        source: null,
        findings: [],
        skipped_reason: 'no engine entrypoint in the command',
      },
    ]);
    expect(out).toContain('preflight skipped: no engine entrypoint in the command');
  });

  it('cuts a very long log line, says how much it left out, and still hides secrets', () => {
    const args = `server_args=ServerArgs(api_key='${SECRET_KEY}', ${'x'.repeat(600)})`;
    const out = renderPlain([{ type: 'log', t: 1000, line: 3, text: args, level: 'info' }]);
    expect(out).not.toContain(SECRET_KEY);
    expect(out).toMatch(/… \(\d+ more chars\)\n$/);
    expect(out.length).toBeLessThan(320);
  });
});
