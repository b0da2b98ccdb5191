// SGLang: readiness, health paths and log rules.
import type { EngineSpec } from '../types.ts';
import { sglangSpec } from './spec.ts';
import { SGLANG_HEARTBEATS, SGLANG_PHASES, SGLANG_READY_LINE } from './log.ts';

export const sglang: EngineSpec = {
  id: 'sglang',
  defaultPort: 30000,
  healthPath: '/health',
  // Older SGLang answers 200 on /health during warmup; without a log only /health_generate is decisive.
  healthPathWithoutLog: '/health_generate',
  readyLine: SGLANG_READY_LINE,
  probeTriggers: [/Uvicorn running on /, /Application startup complete\./],
  heartbeatLines: SGLANG_HEARTBEATS,
  phaseRules: SGLANG_PHASES,
  generationHealthPath: '/health_generate',
  spec: sglangSpec,
};
