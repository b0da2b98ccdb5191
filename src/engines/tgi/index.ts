// Text Generation Inference: log rules for diagnosis (launch support comes later).
import type { EngineSpec } from '../types.ts';
import { TGI_HEARTBEATS, TGI_PHASES } from './log.ts';

export const tgi: EngineSpec = {
  id: 'tgi',
  defaultPort: 80,
  healthPath: '/health',
  healthPathWithoutLog: '/health',
  readyLine: null,
  probeTriggers: [/Connected\b/],
  heartbeatLines: TGI_HEARTBEATS,
  phaseRules: TGI_PHASES,
};
