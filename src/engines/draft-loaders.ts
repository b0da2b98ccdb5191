// The EAGLE-3 draft loader of each engine, by release.
import type { DraftLoader } from '../ckpt/draft-loader.ts';
import { sglangDraftLoader } from './sglang/draft-layout.ts';
import { vllmDraftLoader } from './vllm/draft-layout.ts';

export const draftLoaderFor = (engine: 'sglang' | 'vllm', version: string): DraftLoader =>
  engine === 'sglang' ? sglangDraftLoader(version) : vllmDraftLoader(version);
