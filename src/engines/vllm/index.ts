// vLLM: readiness, health paths and log rules. vLLM has no decisive ready line.
import type { EngineSpec } from '../types.ts';
import { vllmSpec } from './spec.ts';
import { VLLM_HEARTBEATS, VLLM_PHASES } from './log.ts';

export const vllm: EngineSpec = {
  id: 'vllm',
  defaultPort: 8000,
  healthPath: '/health',
  healthPathWithoutLog: '/health',
  readyLine: null,
  probeTriggers: [/Application startup complete\./],
  heartbeatLines: VLLM_HEARTBEATS,
  phaseRules: VLLM_PHASES,
  spec: vllmSpec,
};
