// Failure signatures shared by every engine: out of GPU memory: weights, KV cache, activations, also through NCCL.
import type { Signature } from '../facts.ts';

export const MEMORY_SIGNATURES: readonly Signature[] = [
  // --- cuda-oom: weights, KV cache, activations; also through NCCL.
  {
    // Ascend's runtime failing an allocation, with CANN's memory error code (`EL0004: [PID: 3132] … Failed to
    // allocate memory.`), below torch_npu's error that names no cause.
    id: 'npu-alloc-failed',
    class: 'cuda-oom',
    weight: 88,
    // AWS Neuron's runtime says the same of a tensor it could not place: `nrt_tensor_allocate status=4
    // message="Allocation Failure"`. Intel's Level Zero and Unified Runtime name it by code: `…_OUT_OF_DEVICE_MEMORY`,
    // and `UR_RESULT_ERROR_OUT_OF_RESOURCES` (40), which the XPU backend returns for allocations the GPU cannot hold.
    needles: ['EL0004', 'Allocation Failure', '_ERROR_OUT_OF_'],
    pattern:
      /\bEL0004: (?:\[PID: \d+\] \S+ )?Failed to allocate memory|\bnrt_tensor_allocate status=\d+ message="Allocation Failure"|\b(?:UR|ZE)_RESULT_ERROR_OUT_OF_(?:DEVICE_MEMORY|RESOURCES)\b/,
    samples: [
      'EL0004: [PID: 3132] 2025-10-15-16:32:16.417.528 Failed to allocate memory.',
      'RuntimeError: nrt_tensor_allocate status=4 message="Allocation Failure"',
      'RuntimeError: level_zero backend failed with error: 40 (UR_RESULT_ERROR_OUT_OF_RESOURCES)',
    ],
    facts: () => ({ kind: 'torch' }),
    summary: () => "the accelerator's runtime could not allocate device memory: it is full",
  },
  {
    id: 'torch-oom',
    class: 'cuda-oom',
    weight: 90,
    needles: ['out of memory', 'OutOfMemoryError', 'B but only ', 'PyTorch but unallocated'],
    samples: [
      '  what():  NPU out of memory. Tried to allocate 4.00 GiB (NPU 4; 61.27 GiB total capacity)',
      'ess has 0 bytes memory in use. Of the allocated memory 21.48 GiB is allocated by PyTorch, and 10.95 MiB is reserved by PyTorch but unallocated.',
      'RuntimeError: int8 mamba checkpoint pool needs ~9GB but only 3GB HBM is free. Lower --int8-mamba-ckpt-size (currently 4) or --mem-fraction-static.',
    ],
    // Other accelerators' torch backends word it the same way (`NPU out of memory`, `XPU out of memory`).
    // A pool the engine sizes itself that finds less memory free than it needs (`int8 mamba checkpoint pool needs ~9GB
    // but only 3GB HBM is free`). The second half of torch's message alone, where a paste or a page cut its start
    // (`… Of the allocated memory 21.48 GiB is allocated by PyTorch, and 10.95 MiB is reserved by PyTorch but
    // unallocated.`): torch words nothing else so.
    pattern:
      /(?:CUDA|NPU|XPU|HPU|MPS) out of memory|\bis reserved by PyTorch but unallocated\b|OutOfMemoryError|CUDA (?:driver )?error: out of memory|\bneeds ~?[\d.]+ ?[KMG]i?B but only [\d.]+ ?[KMG]i?B (?:of )?(?:\w+ )?(?:memory )?is (?:free|available)/,
    facts: (m) => {
      const tried = /Tried to allocate ([\d.]+ [KMG]i?B)/.exec(m.input);
      const gpu = /GPU (\d+) has a total capacity of ([\d.]+ [KMG]i?B)/.exec(m.input);
      return {
        kind: 'torch',
        value: [tried?.[1], gpu === null ? undefined : `GPU ${gpu[1]}`].filter(Boolean).join(' on '),
      };
    },
    summary: (f, c) =>
      `the GPU ran out of memory${c.phase === null ? '' : ` during ${c.phase}`}${f.value === '' || f.value === undefined ? '' : ` (tried to allocate ${f.value})`}`,
  },
  {
    // XLA's status for memory it could not get (TPU HBM, also JAX on GPU): `RESOURCE_EXHAUSTED: Error loading
    // program: Attempting to reserve 1.04G at the bottom of memory.`, `RESOURCE_EXHAUSTED: Out of memory while trying
    // to allocate …`.
    id: 'xla-resource-exhausted',
    class: 'cuda-oom',
    weight: 89,
    needles: ['RESOURCE_EXHAUSTED'],
    pattern: /RESOURCE_EXHAUSTED: (.+)$/,
    samples: [
      'RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: Error loading program: Attempting to reserve 1.04G at the bottom of memory. That was not possible.',
    ],
    facts: () => ({ kind: 'torch', value: '' }),
    summary: (_f, c) =>
      `the accelerator (XLA: TPU or GPU) ran out of memory${c.phase === null ? '' : ` during ${c.phase}`}`,
  },
  {
    id: 'cublas-alloc',
    class: 'cuda-oom',
    weight: 89,
    // The driver API's own code for it too: `CUresult error: 2 (out of memory)`, `CUDA_ERROR_OUT_OF_MEMORY`.
    needles: [
      'CUBLAS_STATUS_ALLOC_FAILED',
      'cudaErrorMemoryAllocation',
      'CUresult error',
      'CUDA_ERROR_OUT_OF_MEMORY',
    ],
    pattern:
      /CUBLAS_STATUS_ALLOC_FAILED|cudaErrorMemoryAllocation|CUresult error: 2 \(out of memory\)|CUDA_ERROR_OUT_OF_MEMORY/,
    samples: [
      '[torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/utils.h func=cu_mem_create line=194',
    ],
    facts: () => ({ kind: 'torch' }),
    summary: () => 'a CUDA library could not allocate GPU memory',
  },
  {
    id: 'nccl-calloc',
    class: 'cuda-oom',
    weight: 91,
    needles: ['calloc', 'NCCL WARN', 'Cuda failure'],
    // Also an NCCL error's `Last error:` below it: `Cuda failure 'out of memory'` on a line of its own.
    pattern:
      /Failed to CUDA calloc(?: (\d+) bytes)?|NCCL WARN .*(?:out of memory|Failed to CUDA calloc)|^Cuda failure 'out of memory'/,
    samples: ["Cuda failure 'out of memory'"],
    facts: () => ({ kind: 'nccl-calloc' }),
    summary: () =>
      'NCCL could not allocate its GPU buffers: the GPU memory was already taken (an NCCL error caused by memory)',
  },
  {
    id: 'kv-len',
    class: 'cuda-oom',
    weight: 90,
    needles: ['KV cache is needed', 'stored in KV cache'],
    pattern:
      /KV cache is needed, which is larger than the available KV cache memory|is larger than the maximum number of tokens that can be stored in KV cache/,
    facts: () => ({ kind: 'kv-len' }),
    summary: () =>
      'the KV cache that fits in GPU memory cannot hold one request of the maximum context length',
  },
  {
    // A check of free GPU memory against what the start needs, in any wording that names both (`observed free HBM is
    // below the runtime reserve: 13330546688 bytes available, 15000000000 required`).
    id: 'free-memory-below-need',
    class: 'cuda-oom',
    weight: 90,
    needles: ['free HBM', 'free VRAM', 'free memory', 'free GPU memory', 'free device memory'],
    pattern:
      /\bfree (?:HBM|VRAM|(?:GPU |device )?memory)\b[^:]{0,40}\b(?:is below|is less than|below|less than)\b.*\b(?:required|reserve|requested|needed)\b/,
    samples: [
      'RuntimeError: Tiered MoE observed free HBM is below the runtime reserve: 13330546688 bytes available, 15000000000 required.',
    ],
    summary: () => 'the GPU has less free memory than the start needs',
  },
];
