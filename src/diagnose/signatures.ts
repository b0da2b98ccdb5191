// Failure signatures shared by every engine: argparse, Python, torch, CUDA, NCCL/gloo, Hugging Face Hub, signals
// (docs/engines/log-patterns.md), one file per kind in signatures/. Engine-specific shapes live in
// src/engines/<engine>/failures.ts. The order is the diagnoser's: a line's candidates are tried in it.
import type { Signature } from './facts.ts';
import { SETTINGS_SIGNATURES } from './signatures/settings.ts';
import { MEMORY_SIGNATURES } from './signatures/memory.ts';
import { DISTRIBUTED_SIGNATURES } from './signatures/distributed.ts';
import { PORT_SIGNATURES } from './signatures/port.ts';
import { MODEL_ACCESS_SIGNATURES } from './signatures/model-access.ts';
import { WEIGHT_SIGNATURES } from './signatures/weights.ts';
import { PACKAGE_SIGNATURES } from './signatures/packages.ts';
import { BUILD_SIGNATURES } from './signatures/builds.ts';
import { CAPTURE_SIGNATURES } from './signatures/capture.ts';
import { PEER_SIGNATURES } from './signatures/peers.ts';
import { SHARED_SHAPE_SIGNATURES } from './signatures/shared-shapes.ts';
import { KILLED_SIGNATURES } from './signatures/killed.ts';
import { POINTER_SIGNATURES } from './signatures/pointers.ts';

export { FRAME_CONTEXTS, TORCH_CAPTURE_FRAME } from './signatures/frames.ts';
export { NOTICE_CONTEXTS } from './signatures/notices.ts';
export { TRACEBACK_HEADER, TRANSLATED_SIGNAL_NAMES, TRANSLATED_SIGNAL_REPORT } from './signatures/shared.ts';

export const GENERIC_SIGNATURES: readonly Signature[] = [
  ...SETTINGS_SIGNATURES,
  ...MEMORY_SIGNATURES,
  ...DISTRIBUTED_SIGNATURES,
  ...PORT_SIGNATURES,
  ...MODEL_ACCESS_SIGNATURES,
  ...WEIGHT_SIGNATURES,
  ...PACKAGE_SIGNATURES,
  ...BUILD_SIGNATURES,
  ...CAPTURE_SIGNATURES,
  ...PEER_SIGNATURES,
  ...SHARED_SHAPE_SIGNATURES,
  ...KILLED_SIGNATURES,
  ...POINTER_SIGNATURES,
];
