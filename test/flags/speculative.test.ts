// SGLang's speculative rules on a release with automatic defaults (v0.5.18), on v0.4.3, and unknown.
import { describe, expect, it } from 'vitest';
import { parseArgv } from '../../src/flags/argparse/parse.ts';
import { loadBundledSchema } from '../../src/flags/schema/bundled.ts';
import { speculativeFindings } from '../../src/engines/sglang/speculative.ts';
import { compareVersions } from '../../src/flags/schema/versions.ts';

const v0518 = loadBundledSchema('sglang', '0.5.18');
const v043 = loadBundledSchema('sglang', '0.4.3');
const v059 = loadBundledSchema('sglang', '0.5.9');

const run = (schema: typeof v0518, engineVersion: string | null, args: string[]) =>
  speculativeFindings(parseArgv(schema, ['--model-path', 'org/m', ...args], { offset: 3 }), {
    schema,
    engineVersion,
  });

const EAGLE3 = ['--speculative-algorithm', 'EAGLE3', '--speculative-draft-model-path', 'org/d'];

describe('speculative rules', () => {
  it('accepts all three set, or none', () => {
    expect(run(v0518, '0.5.18', EAGLE3)).toEqual([]);
    const all = [
      '--speculative-num-steps',
      '3',
      '--speculative-eagle-topk',
      '4',
      '--speculative-num-draft-tokens',
      '8',
    ];
    expect(run(v0518, '0.5.18', [...EAGLE3, ...all])).toEqual([]);
  });

  it('errors on one or two of the three where the defaults are automatic, saying how to set all three', () => {
    const findings = run(v0518, '0.5.18', [
      ...EAGLE3,
      '--speculative-num-steps',
      '5',
      '--speculative-num-draft-tokens',
      '16',
    ]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      severity: 'error',
      code: 'speculative-partial',
      index: 9,
      suggestions: ['--speculative-eagle-topk'],
    });
    expect(findings[0]?.message).toContain(
      'Set all three, e.g. --speculative-num-steps 5 --speculative-eagle-topk 1 --speculative-num-draft-tokens 6, or none',
    );
  });

  it('only warns when the installed release is unknown', () => {
    const findings = run(v0518, null, [...EAGLE3, '--speculative-eagle-topk', '1']);
    expect(findings.map((f) => [f.severity, f.code])).toEqual([['warning', 'speculative-partial']]);
  });

  it('says nothing on v0.4.3, whose defaults were numbers (5, 8, 64)', () => {
    expect(
      run(v043, '0.4.3', [
        '--speculative-algorithm',
        'EAGLE',
        '--speculative-draft-model-path',
        'd',
        '--speculative-num-steps',
        '3',
      ]),
    ).toEqual([]);
  });

  it('warns that topk 1 replaces the draft-token count by steps + 1', () => {
    const findings = run(v0518, '0.5.18', [
      ...EAGLE3,
      '--speculative-num-steps',
      '3',
      '--speculative-eagle-topk',
      '1',
      '--speculative-num-draft-tokens',
      '16',
    ]);
    expect(findings.map((f) => [f.severity, f.code, f.suggestions])).toEqual([
      [
        'warning',
        'speculative-draft-tokens-adjusted',
        ['--speculative-num-draft-tokens 4', '--speculative-num-steps 15'],
      ],
    ]);
    expect(findings[0]?.message).toContain('= 4');
  });

  it('needs a draft model for EAGLE3 (error) and EAGLE (warning: MTP targets need none)', () => {
    expect(
      run(v0518, '0.5.18', ['--speculative-algorithm', 'EAGLE3']).map((f) => [f.severity, f.code]),
    ).toEqual([['error', 'speculative-draft-missing']]);
    expect(
      run(v0518, '0.5.18', ['--speculative-algorithm', 'EAGLE']).map((f) => [f.severity, f.code]),
    ).toEqual([['warning', 'speculative-draft-missing']]);
  });

  it('checks the algorithm against the builtins where argparse has no choices', () => {
    const findings = run(v0518, '0.5.18', [
      '--speculative-algorithm',
      'eagle3',
      '--speculative-draft-model-path',
      'd',
    ]);
    expect(findings[0]).toMatchObject({ severity: 'warning', code: 'speculative-algorithm' });
    expect(findings[0]?.suggestions[0]).toBe('EAGLE3');
    const strict = parseArgv(v059, ['--model-path', 'm', '--speculative-algorithm', 'DFLASH']);
    expect(strict.argparseError).toBe(
      "argument --speculative-algorithm: invalid choice: 'DFLASH' (choose from 'EAGLE', 'EAGLE3', 'NEXTN', 'STANDALONE', 'NGRAM')",
    );
  });

  it('compares releases as numbers', () => {
    expect(compareVersions('0.4.10', '0.4.3')).toBeGreaterThan(0);
    expect(compareVersions('0.6.6.post1', '0.6.6')).toBeGreaterThan(0);
    expect(compareVersions('0.19.1', '0.8.5.post1')).toBeGreaterThan(0);
  });
});
