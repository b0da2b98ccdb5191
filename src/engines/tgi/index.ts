// Text Generation Inference: everything vigil knows about it, for the registry (src/engines/index.ts).
import type { EngineSpec } from '../types.ts';
import { adviseTgi } from './advice.ts';
import { TGI_FRAME_CONTEXTS, TGI_SIGNATURES } from './failures.ts';
import { TGI_FLAGS } from './flags.ts';
import {
  TGI_HEARTBEATS,
  TGI_PHASE_NEEDLES,
  TGI_PHASES,
  TGI_READY_LINE,
  TGI_UP_LINE,
  TGI_SERVING_LINE,
  TGI_STOP_LINES,
  tgiVersionFromLog,
} from './log.ts';

export const tgi: EngineSpec = {
  id: 'tgi',
  label: 'TGI',
  // The launcher's default is 3000; the official image sets PORT=80.
  defaultPort: 80,
  healthPath: '/health',
  healthPathWithoutLog: '/health',
  readyLine: TGI_READY_LINE,
  upLine: TGI_UP_LINE,
  servingLine: TGI_SERVING_LINE,
  probeTriggers: [/^Connected$/, /Starting Webserver/],
  heartbeatLines: TGI_HEARTBEATS,
  stopLines: TGI_STOP_LINES,
  phaseRules: TGI_PHASES,
  phaseNeedles: TGI_PHASE_NEEDLES,
  // The router's `Setting max batch total tokens to N` names no engine but is TGI's alone.
  hints: /text_generation|text-generation|\bSetting max batch total tokens to \d+/,
  hintNeedles: ['text_generation', 'text-generation', 'max batch total tokens'],
  framePackages: ['text_generation_server/'],
  frameContexts: TGI_FRAME_CONTEXTS,
  versionFromLog: tgiVersionFromLog,
  signatures: TGI_SIGNATURES,
  advise: adviseTgi,
  flags: TGI_FLAGS,
};
