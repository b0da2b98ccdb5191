// Any other server: no ready line, no phases; health from --url or --port.
import type { EngineSpec } from '../types.ts';

export const generic: EngineSpec = {
  id: 'generic',
  defaultPort: null,
  healthPath: '/health',
  healthPathWithoutLog: '/health',
  readyLine: null,
  probeTriggers: [],
  heartbeatLines: [],
  phaseRules: [],
};
