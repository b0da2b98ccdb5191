// vLLM's EAGLE-3 drafter support for the registry: its loader (draft-layout.ts) and key layout. vLLM reads both
// layouts, so no rename preset targets it; an unknown release is checked as the newest bundled one.
import type { EngineDraftSupport } from '../types.ts';
import { vllmDraftFolder, vllmDraftLoader, vllmLayout } from './draft-layout.ts';
import { VLLM_FLAGS } from './flags.ts';

export const vllmDraft: EngineDraftSupport = {
  loader: vllmDraftLoader,
  unknownVersion: { version: VLLM_FLAGS.newest, note: null },
  draftFolder: vllmDraftFolder,
  layout: vllmLayout,
};
