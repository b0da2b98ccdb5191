// The package's public API: what a script uses, and none of the CLI's internals.
import { describe, expect, it } from 'vitest';
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
