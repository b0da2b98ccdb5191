import { describe, expect, it } from 'vitest';
import { isVigilError } from '../../src/errors.ts';
import { readSimSettings, SIM_DEFAULTS } from '../../src/sim/settings.ts';

describe('readSimSettings', () => {
  it('uses the documented defaults when nothing is set', () => {
    expect(readSimSettings({})).toEqual({
      timeScale: 1,
      fail: null,
      flap: [200, 503, 503],
      tokensPerSecond: SIM_DEFAULTS.tokensPerSecond,
      ttftMs: SIM_DEFAULTS.ttftMs,
      acceptLength: 3.2,
      generationFail: null,
      tracePath: null,
      engineVersion: null,
    });
  });

  it('reads every variable', () => {
    const settings = readSimSettings({
      VIGIL_SIM_TIME_SCALE: '0.01',
      VIGIL_SIM_FAIL: ' hang@dist-init ',
      VIGIL_SIM_FLAP: '200, 500',
      VIGIL_SIM_TOKENS_PER_S: '120.5',
      VIGIL_SIM_TTFT_MS: '0',
      VIGIL_SIM_ACCEPT_LEN: '2.5',
      VIGIL_SIM_TRACE: '/tmp/t.jsonl',
    });
    expect(settings).toEqual({
      timeScale: 0.01,
      fail: 'hang@dist-init',
      flap: [200, 500],
      tokensPerSecond: 120.5,
      ttftMs: 0,
      acceptLength: 2.5,
      generationFail: null,
      tracePath: '/tmp/t.jsonl',
      engineVersion: null,
    });
  });

  it.each([
    ['VIGIL_SIM_TIME_SCALE', '-1', /VIGIL_SIM_TIME_SCALE: expected a number >= 0 .*got "-1"/],
    [
      'VIGIL_SIM_TOKENS_PER_S',
      '0',
      /VIGIL_SIM_TOKENS_PER_S: expected a number of tokens per second > 0, got "0"/,
    ],
    [
      'VIGIL_SIM_ACCEPT_LEN',
      '0.5',
      /VIGIL_SIM_ACCEPT_LEN: expected a mean acceptance length >= 1, got "0.5"/,
    ],
    ['VIGIL_SIM_TTFT_MS', 'soon', /VIGIL_SIM_TTFT_MS: expected milliseconds >= 0, got "soon"/],
    [
      'VIGIL_SIM_FLAP',
      '200,ok',
      /VIGIL_SIM_FLAP: expected a comma list of HTTP statuses such as 200,503,503/,
    ],
  ])('rejects %s=%s with a message naming it', (name, value, message) => {
    let error: unknown;
    try {
      readSimSettings({ [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(isVigilError(error) && error.code).toBe('E_USAGE');
    expect((error as Error).message).toMatch(message);
  });
});
