// Any other server: no ready line, no phases; health from --url or --port.
import type { EngineSpec } from '../types.ts';

export const generic: EngineSpec = {
  id: 'generic',
  label: 'the server',
  defaultPort: null,
  healthPath: '/health',
  healthPathWithoutLog: '/health',
  readyLine: null,
  upLine: null,
  probeTriggers: [],
  heartbeatLines: [],
  phaseRules: [],
  phaseNeedles: [],
  hints: null,
  hintNeedles: [],
  framePackages: [],
  signatures: [],
  advise: null,
};
