// SGLang: everything vigil knows about it, for the registry (src/engines/index.ts).
import type { EngineSpec } from '../types.ts';
import { sglangDraft } from './draft.ts';
import { adviseSglang } from './advice.ts';
import { SGLANG_FRAME_CONTEXTS, SGLANG_PHASE_STEPS, SGLANG_SIGNATURES } from './failures.ts';
import { SGLANG_FLAGS } from './flags.ts';
import {
  SGLANG_CAPTURE_ENDS,
  SGLANG_HEARTBEATS,
  SGLANG_PHASE_NEEDLES,
  SGLANG_PHASES,
  SGLANG_READY_LINE,
  SGLANG_QUIET_START,
  SGLANG_SERVING_LINE,
  SGLANG_SERVING_WITHOUT_START,
  sglangVersionFromLog,
  SGLANG_QUOTED_LINES,
  SGLANG_STOP_LINES,
} from './log.ts';
import { sglangSpec } from './spec.ts';

export const sglang: EngineSpec = {
  id: 'sglang',
  label: 'SGLang',
  defaultPort: 30000,
  healthPath: '/health',
  // Older SGLang answers 200 on /health during warmup; without a log only /health_generate is decisive.
  healthPathWithoutLog: '/health_generate',
  generatingHealthPaths: ['/health_generate'],
  readyLine: SGLANG_READY_LINE,
  upLine: SGLANG_SERVING_LINE,
  quietStart: SGLANG_QUIET_START,
  captureEnds: SGLANG_CAPTURE_ENDS,
  servingLine: SGLANG_SERVING_LINE,
  servingWithoutStart: SGLANG_SERVING_WITHOUT_START,
  probeTriggers: [/Uvicorn running on /, /Application startup complete\./],
  heartbeatLines: SGLANG_HEARTBEATS,
  stopLines: SGLANG_STOP_LINES,
  quotedLines: SGLANG_QUOTED_LINES,
  phaseRules: SGLANG_PHASES,
  phaseNeedles: SGLANG_PHASE_NEEDLES,
  // Its decode and prefill metrics lines name no engine but are SGLang's alone (early releases': `new fill batch.`).
  hints:
    /sglang|SGLang|launch_server\.py|ServerArgs\(|\bDecode batch[.,] #running-req: |\bPrefill batch[.,] #new-seq: |^new fill batch\. #seq: /,
  hintNeedles: [
    'sglang',
    'SGLang',
    'launch_server',
    'ServerArgs',
    'Decode batch',
    'Prefill batch',
    'new fill batch',
  ],
  servingHintNeedles: ['Decode batch', 'Prefill batch', 'new fill batch'],
  framePackages: ['sglang/'],
  frameContexts: SGLANG_FRAME_CONTEXTS,
  phaseSteps: SGLANG_PHASE_STEPS,
  versionFromLog: sglangVersionFromLog,
  signatures: SGLANG_SIGNATURES,
  advise: adviseSglang,
  // Nodes other than rank 0 of a multi-node start serve no HTTP API.
  servesNoApi: (command) => command.nodeRank >= 1,
  flags: SGLANG_FLAGS,
  generationHealthPath: '/health_generate',
  spec: sglangSpec,
  draft: sglangDraft,
};
