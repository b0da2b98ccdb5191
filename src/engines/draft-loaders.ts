// The EAGLE-3 draft support of each engine: its loader by release, the layout it names, where a server command
// names the draft folder, and what to assume when the release is unknown.
import type { DraftLoader } from '../ckpt/draft-loader.ts';
import type { LayoutSignature } from '../ckpt/layout.ts';
import type { ArgparseResult } from '../flags/argparse/parse.ts';
import { NEWEST_BUNDLED } from '../flags/schema/bundled.ts';
import { rewriteConfig } from './sglang/draft-config.ts';
import {
  sglangDraftFolder,
  sglangDraftLoader,
  sglangLayout,
  SGLANG_UNKNOWN_VERSION,
} from './sglang/draft-layout.ts';
import { vllmDraftFolder, vllmDraftLoader, vllmLayout } from './vllm/draft-layout.ts';

export type DraftEngine = 'sglang' | 'vllm';

export interface EngineDraftSupport {
  loader(version: string): DraftLoader;
  /** The release to check against when the installed one is unknown, and how to say so. */
  unknownVersion: { version: string; note: string | null };
  /** The local draft folder a server command names, if any. */
  draftFolder(parsed: ArgparseResult): { path: string; index: number; arg: string } | null;
}

export const DRAFT_SUPPORT: Record<DraftEngine, EngineDraftSupport> = {
  sglang: {
    loader: sglangDraftLoader,
    unknownVersion: SGLANG_UNKNOWN_VERSION,
    draftFolder: sglangDraftFolder,
  },
  vllm: {
    loader: vllmDraftLoader,
    unknownVersion: { version: NEWEST_BUNDLED.vllm, note: null },
    draftFolder: vllmDraftFolder,
  },
};

/** Checkpoint layouts the engines define, in the order they are tried. */
export const ENGINE_DRAFT_LAYOUTS: readonly LayoutSignature[] = [sglangLayout, vllmLayout];

export const draftLoaderFor = (engine: DraftEngine, version: string): DraftLoader =>
  DRAFT_SUPPORT[engine].loader(version);

/** The config.json rewrites of the rename presets. */
export { rewriteConfig as rewriteDraftConfig };
