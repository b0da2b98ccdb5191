// The plain preflight text: marked command, message, suggestion, and the schema that decided.
import { describe, expect, it } from 'vitest';
import { describeSource, formatPreflightPlain, shellQuote } from '../../src/flags/format.ts';
import type { PreflightReport } from '../../src/flags/preflight.ts';

const source = {
  kind: 'bundled' as const,
  engine: 'sglang',
  version: '0.5.18',
  path: 'data/flags/sglang-v0.5.18.flags.json',
};
const command = [
  'python',
  '-m',
  'sglang.launch_server',
  '--model-path',
  'm',
  '--num-speculative-tokens',
  '16',
];
const report: PreflightReport = {
  status: 'errors',
  source,
  findings: [
    {
      severity: 'error',
      code: 'unknown-option',
      index: 5,
      arg: '--num-speculative-tokens',
      message: '--num-speculative-tokens is not an SGLang v0.5.18 option',
      suggestions: ['--speculative-num-draft-tokens', '--speculative-num-steps'],
    },
  ],
};

describe('formatPreflightPlain', () => {
  it('marks the argument under the command, then the suggestion and the source', () => {
    expect(formatPreflightPlain(report, command, { color: false })).toBe(
      [
        'error[unknown-option]: --num-speculative-tokens is not an SGLang v0.5.18 option',
        '  python -m sglang.launch_server --model-path m --num-speculative-tokens 16',
        `  ${' '.repeat(46)}${'^'.repeat(24)}`,
        '  did you mean --speculative-num-draft-tokens (or: --speculative-num-steps)',
        '',
        'preflight: 1 error, 0 warnings, checked against bundled SGLang v0.5.18 (data/flags/sglang-v0.5.18.flags.json)',
        '',
      ].join('\n'),
    );
  });

  it('colours severities only when asked', () => {
    expect(formatPreflightPlain(report, command, { color: true })).toContain(
      '\u001b[1;31merror[unknown-option]\u001b[0m',
    );
    expect(formatPreflightPlain(report, command, { color: false })).not.toContain('\u001b[');
  });

  it('shows a window around the argument of a long command', () => {
    const long = [
      ...command.slice(0, 5),
      ...Array.from({ length: 40 }, (_, i) => `--opt-${String(i)}`),
      '--bad',
    ];
    const text = formatPreflightPlain(
      { ...report, findings: [{ ...report.findings[0]!, index: long.length - 1, arg: '--bad' }] },
      long,
      { color: false },
    );
    const [, line, carets] = text.split('\n');
    expect(line).toMatch(/^ {2}… --opt-36 --opt-37 --opt-38 --opt-39 --bad$/);
    expect(carets?.trimEnd().endsWith('^^^^^')).toBe(true);
    expect(carets?.indexOf('^')).toBe(line?.indexOf('--bad'));
  });

  it('masks API keys in the command it shows', () => {
    const withKey = [...command.slice(0, 5), '--api-key', 'hunter2-secret', '--bogus'];
    const text = formatPreflightPlain(
      { ...report, findings: [{ ...report.findings[0]!, index: 7 }] },
      withKey,
      { color: false },
    );
    expect(text).not.toContain('hunter2-secret');
    expect(text).toContain('--api-key *** --bogus');
  });

  it('says why preflight was skipped, and when nothing was found', () => {
    expect(
      formatPreflightPlain(
        { status: 'skipped', source: null, findings: [], skipped_reason: 'no entrypoint' },
        [],
        { color: false },
      ),
    ).toBe('preflight skipped: no entrypoint\n');
    expect(formatPreflightPlain({ status: 'ok', source, findings: [] }, command, { color: false })).toContain(
      'preflight: no problems found',
    );
  });

  it('quotes arguments a shell would split, and names every kind of source', () => {
    expect(shellQuote('{"a": 1}')).toBe(`'{"a": 1}'`);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(
      describeSource({ kind: 'live', engine: 'vllm', version: '0.19.1', path: 'vllm serve --help=all' }),
    ).toBe('live --help of vLLM v0.19.1 (vllm serve --help=all)');
    expect(describeSource({ kind: 'help-file', engine: 'sglang', version: null, path: 'h.txt' })).toBe(
      'SGLang help text (h.txt)',
    );
  });
});
