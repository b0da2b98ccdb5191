// The options' definitions: the library and the CLI take the same values, with the same defaults and messages.
import { describe, expect, it } from 'vitest';
import { MAX_DURATION_MS, OPTION_SPECS, resolveCommon, resolveOption } from '../../src/watch/options.ts';
import { ENGINES } from '../../src/engines/index.ts';

describe('option definitions', () => {
  it('fill in the documented defaults', () => {
    expect(resolveCommon({})).toMatchObject({
      engine: 'auto',
      port: null,
      timeoutMs: 3_600_000,
      stallTimeoutMs: 600_000,
      intervalMs: 1000,
      probeTimeoutMs: 5000,
      successThreshold: 1,
      heartbeatMs: 60_000,
    });
    expect([...resolveCommon({}).expectStatus]).toEqual([200]);
    expect(resolveOption('graceMs', undefined)).toBe(10_000);
  });

  it('give the CLI the same defaults as the library, parsed from the text the help shows', () => {
    for (const spec of Object.values(OPTION_SPECS)) {
      if (spec.defaultText === '') continue;
      expect(spec.parse(spec.defaultText, spec.flag)).toEqual(spec.default);
    }
  });

  it('take every engine of the registry, and auto', () => {
    for (const id of ['auto', ...Object.keys(ENGINES)])
      expect(OPTION_SPECS.engine.parse(id, '--engine')).toBe(id);
    expect(() => resolveCommon({ engine: 'sglan' as 'sglang' })).toThrow(
      /engine: expected one of auto, sglang, vllm, tgi, generic, got "sglan"/,
    );
  });

  it('refuse durations a timer cannot hold, from the library and from the CLI', () => {
    expect(resolveCommon({ probeTimeoutMs: MAX_DURATION_MS }).probeTimeoutMs).toBe(MAX_DURATION_MS);
    expect(() => resolveCommon({ probeTimeoutMs: MAX_DURATION_MS + 1 })).toThrow(
      /probeTimeoutMs: expected milliseconds from 1 to 2147483647 \(596h\), got 2147483648/,
    );
    expect(() => OPTION_SPECS.intervalMs.parse('600h', '--interval')).toThrow(
      /--interval: expected a duration from 1ms to 596h.*got "600h"/,
    );
    expect(OPTION_SPECS.intervalMs.parse('596h', '--interval')).toBe(596 * 3_600_000);
    expect(() => resolveCommon({ heartbeatMs: 0 })).toThrow(/heartbeatMs: expected milliseconds from 1/);
    expect(() => resolveCommon({ timeoutMs: Number.NaN })).toThrow(/timeoutMs/);
    expect(resolveOption('graceMs', 0)).toBe(0);
    expect(() => OPTION_SPECS.graceMs.parse('-1s', '--grace')).toThrow(/--grace: expected a duration/);
  });

  it('refuse ports outside 1-65535', () => {
    for (const port of [0, -1, 65536, 1.5])
      expect(() => resolveCommon({ port })).toThrow(/port: expected a port/);
    for (const text of ['0', '65536', 'http', ' ']) {
      expect(() => OPTION_SPECS.port.parse(text, '--port')).toThrow(
        /--port: expected a port number from 1 to 65535/,
      );
    }
    expect(OPTION_SPECS.port.parse('65535', '--port')).toBe(65535);
  });

  it('refuse counts below 1 and status lists with anything but HTTP statuses', () => {
    expect(() => resolveCommon({ successThreshold: 0 })).toThrow(
      /successThreshold: expected a whole number of 1/,
    );
    expect(() => OPTION_SPECS.successThreshold.parse('2.5', '--success-threshold')).toThrow(/got "2.5"/);
    expect(() => resolveCommon({ expectStatus: [] })).toThrow(/expectStatus: expected a comma list/);
    expect(() => OPTION_SPECS.expectStatus.parse('200,2xx', '--expect-status')).toThrow(/got "200,2xx"/);
    expect(OPTION_SPECS.expectStatus.parse('200, 204', '--expect-status')).toEqual([200, 204]);
  });
});
