// Failure signatures shared by every engine: CUDA graph capture failing for another reason than memory.
import type { Signature } from '../facts.ts';

export const CAPTURE_SIGNATURES: readonly Signature[] = [
  // --- graph-capture-failed: CUDA graph capture failing for another reason than memory, with or without an
  // engine's wrapper (an out-of-memory error during capture stays cuda-oom: torch-oom outranks these).
  {
    id: 'stream-capture',
    class: 'graph-capture-failed',
    weight: 86,
    needles: [
      'capturing',
      'uncaptured',
      'StreamCapture',
      'stream capture',
      'graph capture',
      'CaptureStatus',
      'CAPTURE_STATUS',
      'captured-stream',
    ],
    // A capture-status assertion (torch's `cudaStreamCaptureStatus…`, torch_npu's `aclmdlRICaptureStatus::…`).
    pattern:
      /operation not permitted when stream is capturing|\w*(?:CaptureStatus|CAPTURE_STATUS)\w*.{0,80}(?:INTERNAL ASSERT FAILED|[Ee]rror)|dependency created on uncaptured work in another stream|cudaErrorStreamCapture\w+|stream capture (?:sequence )?(?:is )?invalidated|[Cc]annot (?:call|be called|\w+) [^.]{0,80}during CUDA graph capture|Not allow to synchronize captured-stream/,
    samples: [
      'RuntimeError: CUDA error: operation not permitted when stream is capturing',
      'RuntimeError: Cannot call CUDAGeneratorImpl::current_seed during CUDA graph capture.',
      'EE9999: [PID: 36130] 2025-08-21-08:26:21.385.272 Not allow to synchronize captured-stream, stream_id=9.',
      'RuntimeError: status == aclmdlRICaptureStatus::ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE INTERNAL ASSERT FAILED at "build/CMakeFiles/torch_npu.dir/compiler_depend.ts":93',
    ],
    summary: () =>
      'CUDA graph capture failed: an operation that is not allowed while a CUDA graph is being captured ran (often a custom kernel, torch.compile or NCCL on another stream)',
  },
  {
    id: 'triton-out-of-resources',
    class: 'graph-capture-failed',
    weight: 70,
    needles: ['OutOfResources'],
    pattern: /OutOfResources: out of resource: (shared memory|[\w ]+)/,
    samples: [
      'triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 131072, Hardware limit: 65536.',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `a Triton kernel compiled while capturing needs more ${f.value ?? 'resources'} than this GPU has (the kernel's block sizes do not fit this GPU)`,
  },
];
