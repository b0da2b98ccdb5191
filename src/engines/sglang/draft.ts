// SGLang's EAGLE-3 drafter support for the registry: its loader by release (draft-layout.ts), its key layout, and
// the rename presets into and out of it with their config.json rewrite (draft-config.ts).
import type { EngineDraftSupport } from '../types.ts';
import { rewriteConfig } from './draft-config.ts';
import {
  SGLANG_UNKNOWN_VERSION,
  sglangDraftFolder,
  sglangDraftLoader,
  sglangLayout,
} from './draft-layout.ts';

export const sglangDraft: EngineDraftSupport = {
  loader: sglangDraftLoader,
  unknownVersion: SGLANG_UNKNOWN_VERSION,
  draftFolder: sglangDraftFolder,
  layout: sglangLayout,
  presets: {
    names: ['eagle3-speculators-to-sglang', 'eagle3-sglang-to-speculators'],
    configKinds: ['speculators-to-sglang', 'sglang-to-speculators'],
    rewriteConfig,
  },
};
