// The package's public API: what a script uses, and none of the CLI's internals.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as api from '../src/index.ts';

describe('public API', () => {
  it('exports launch, watch, check, diagnose, the simulator, events, exit codes and errors', () => {
    expect(Object.keys(api)).toEqual(
      expect.arrayContaining([
        'DIAGNOSIS_CLASSES',
        'EVENT_SCHEMA_VERSION',
        'EXIT',
        'FAILURE_PHASES',
        'PHASE_IDS',
        'SIM_FAILURE_CLASSES',
        'UsageError',
        'VigilError',
        'createRenderer',
        'diagnoseLogFile',
        'findLaunchRecord',
        'inspectLaunch',
        'launch',
        'listLaunchRecords',
        'runPreflight',
        'runSim',
        'stopLaunch',
        'watch',
      ]),
    );
    // Nothing of the CLI's internals.
    for (const internal of [
      'main',
      'parseArgv',
      'optionLookup',
      'normalizeLine',
      'SIM_DEFAULTS',
      'readSimSettings',
      'createDiagnoser',
      'parseHelpText',
    ])
      expect(Object.keys(api)).not.toContain(internal);
    expect(api.EXIT).toMatchObject({ ready: 0, usage: 1, preflight: 2, exited: 3 });
    expect(new api.UsageError('x')).toBeInstanceOf(api.VigilError);
  });
});

describe('docs/api.md', () => {
  const doc = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');

  it('names every value the package exports', () => {
    expect(Object.keys(api).filter((name) => !doc.includes(name))).toEqual([]);
  });

  it('documents only functions the package exports', () => {
    const called = [...doc.matchAll(/`(\w+)\(/g)].map((m) => m[1] ?? '');
    // Methods of returned objects, not exports.
    const methods = new Set(['render', 'close']);
    expect(called.filter((name) => !methods.has(name) && !(name in api))).toEqual([]);
  });
});
