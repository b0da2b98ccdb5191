// Acceptance: a vLLM option renamed on vLLM's main branch is suggested by the release's own table.
import { describe, expect, it } from 'vitest';
import { runPreflight } from '../../src/flags/preflight.ts';

const command = ['vllm', 'serve', 'm', '--num-speculative-tokens', '4'];

describe('vLLM speculative options by release', () => {
  it('suggests --spec-tokens against vLLM main', async () => {
    const outcome = await runPreflight({ command, engineVersion: 'main', offline: true });
    const finding = outcome.report.findings.find((f) => f.arg === '--num-speculative-tokens');
    expect(outcome.report.source?.version).toBe('main');
    expect(finding?.suggestions[0]).toBe('--spec-tokens');
  });

  it('suggests --speculative-config against vLLM 0.19.1', async () => {
    const outcome = await runPreflight({ command, engineVersion: '0.19.1', offline: true });
    const finding = outcome.report.findings.find((f) => f.arg === '--num-speculative-tokens');
    expect(outcome.report.source?.version).toBe('0.19.1');
    expect(finding?.suggestions[0]).toBe('--speculative-config');
    expect(finding?.suggestions).not.toContain('--spec-tokens');
  });

  it('rejects an --engine-version that is not a release', async () => {
    await expect(runPreflight({ command, engineVersion: 'latest; rm -rf', offline: true })).rejects.toThrow(
      /--engine-version/,
    );
  });
});
