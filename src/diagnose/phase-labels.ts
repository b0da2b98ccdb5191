// Phase ids in words, for summaries and renderers.
import type { PhaseId } from '../events.ts';

export const PHASE_LABELS: Readonly<Record<PhaseId, string>> = {
  'process-up': 'process start',
  'dist-init': 'distributed init',
  'weight-load': 'weight loading',
  'kv-cache': 'KV cache allocation',
  'graph-capture': 'CUDA graph capture',
  'draft-graph-capture': 'draft CUDA graph capture',
  compile: 'torch.compile',
  'http-up': 'HTTP server start',
  warmup: 'warm-up',
  ready: 'ready',
};

// "weight loading (weight-load)": the words and the id users can grep for.
export const describePhase = (phase: PhaseId): string => `${PHASE_LABELS[phase]} (${phase})`;
