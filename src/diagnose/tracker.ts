// Follows one start's log line by line: phases, progress bars, the ready line. (Minimal version; phases pending.)
import { stripVTControlCharacters } from 'node:util';
import type { EngineSpec } from '../engines/types.ts';
import type { StartTracker, TrackLineResult, TrackerUpdate } from './types.ts';

// Creates a tracker for one engine's log.
export const createStartTracker = (engine: EngineSpec): StartTracker => {
  const tracker: StartTracker = {
    phase: null,
    progress: null,
    push(line): TrackLineResult {
      const text = stripVTControlCharacters(line.text);
      const normalized = text.slice(text.lastIndexOf('\r') + 1).trimEnd();
      const updates: TrackerUpdate[] = [];
      if (engine.readyLine?.test(normalized) === true) updates.push({ kind: 'ready-line' });
      if (engine.probeTriggers.some((p) => p.test(normalized))) updates.push({ kind: 'probe-trigger' });
      const heartbeat = normalized === '' || engine.heartbeatLines.some((p) => p.test(normalized));
      return { updates, progress: !heartbeat, normalized };
    },
    phaseDurations: () => [],
  };
  return tracker;
};
