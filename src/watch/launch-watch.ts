// What a launch's watch needs besides the process, alike for a local and a remote launch: the engine's diagnoser and
// phase tracker, and the loop's settings with an ETA from earlier starts of the same profile.
import type { PhaseId } from '../events.ts';
import { getEngine } from '../engines/index.ts';
import type { EngineSpec } from '../engines/types.ts';
import { createDiagnoser, type LogDiagnoser } from '../diagnose/diagnoser.ts';
import { createStartTracker, type LogStartTracker } from '../diagnose/tracker.ts';
import type { Redactor } from '../redact/redactor.ts';
import { estimateRemaining, loadStarts, profileOf, type StartProfile } from '../state/history.ts';
import type { LaunchConfig } from './launch-config.ts';
import type { LoopInput } from './loop.ts';
import { loopSettings, type LoopSettings } from './start-run.ts';

export interface LaunchWatch {
  spec: EngineSpec;
  /** The start's profile (engine, command, host), under which its history is kept. */
  profile: StartProfile;
  diagnoser: LogDiagnoser;
  tracker: LogStartTracker;
  /** The loop's timing and readiness settings, its abort signal, and the ETA where earlier starts give one. */
  settings: LoopSettings & Pick<LoopInput, 'eta'>;
}

// Builds them for a launch on `host` ('local' or the remote host's name), cancelled by `signal`.
export const prepareLaunchWatch = async (
  config: LaunchConfig,
  redact: Redactor,
  host: string,
  signal: AbortSignal | undefined,
): Promise<LaunchWatch> => {
  const spec = getEngine(config.server.engine);
  const diagnoser = createDiagnoser({
    engine: config.server.engine,
    redact,
    ...(config.engineVersion === null ? {} : { engineVersion: config.engineVersion }),
  });
  // Earlier starts of the same profile give the ETA; without any, events carry none (never an invented one).
  const profile = profileOf({ engine: config.server.engine, argv: config.command, host });
  const history = await loadStarts(profile, { dir: config.stateDir }).catch(() => []);
  return {
    spec,
    profile,
    diagnoser,
    tracker: createStartTracker(spec),
    settings: {
      ...loopSettings(config, signal),
      ...(history.length === 0
        ? {}
        : {
            eta: (phase: PhaseId | null, inPhaseMs: number) => estimateRemaining(history, phase, inPhaseMs),
          }),
    },
  };
};
