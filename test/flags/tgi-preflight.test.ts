// TGI's launcher is checked against its clap options (data/flags/tgi-v3.3.7.flags.json), as a command or an image.
import { describe, expect, it } from 'vitest';
import { runPreflight } from '../../src/flags/preflight.ts';

describe('TGI preflight', () => {
  it('names an unknown launcher option and a value outside its choices', async () => {
    const outcome = await runPreflight({
      command: [
        'text-generation-launcher',
        '--model-id',
        'm',
        '--max-input-lenght',
        '4096',
        '--quantize',
        'int9',
      ],
      offline: true,
    });
    expect(outcome.blocked).toBe(true);
    expect(outcome.report.source?.engine).toBe('tgi');
    const codes = outcome.report.findings.map((f) => f.code);
    expect(codes).toContain('unknown-option');
    expect(codes).toContain('invalid-choice');
  });

  it("quotes what the clap launcher itself would print, not Python argparse's words", async () => {
    const check = async (...args: string[]) =>
      (
        await runPreflight({
          command: ['text-generation-launcher', '--model-id', 'm', ...args],
          offline: true,
        })
      ).report.findings
        .map((f) => f.message)
        .join('\n');
    const unknown = await check('--max-input-lenght', '4096');
    expect(unknown).toContain("unexpected argument '--max-input-lenght' found");
    expect(unknown).not.toContain('unrecognized arguments');
    expect(await check('stray')).toContain("unexpected argument 'stray' found");
    expect(await check('--port')).toContain("a value is required for '--port <PORT>' but none was supplied");
    expect(await check('--quantize', 'int9')).toContain("invalid value 'int9' for '--quantize <QUANTIZE>'");
    expect(await check('--port', 'x')).not.toContain('argument --port');
  });

  it('reads the arguments after the official image name, and accepts no abbreviations', async () => {
    const ok = await runPreflight({
      command: [
        'docker',
        'run',
        'ghcr.io/huggingface/text-generation-inference:3.3.7',
        '--model-id',
        'm',
        '--num-shard',
        '2',
      ],
      offline: true,
    });
    expect(ok.blocked).toBe(false);
    const abbreviated = await runPreflight({
      command: ['text-generation-launcher', '--model-id', 'm', '--num-sh', '2'],
      offline: true,
    });
    expect(abbreviated.blocked).toBe(true);
  });
});
