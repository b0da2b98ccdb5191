// Notices of a condition that a later failure with no class of its own comes from: torch's and the engines' word
// that no GPU is visible, and a compiled extension that did not load. Read only where the failure names nothing itself
// (an unnamed error, a traceback cut before its error line); a failure with a class of its own keeps it.
import type { NoticeContext } from '../../engines/types.ts';
import { NAMED_ENGINES } from '../../engines/index.ts';

// torch's C++-extension helper, imported by every engine, when CUDA is installed but torch finds no GPU through it
// (`torch.cuda.is_available()` is false): a CPU-only host, a container started without its GPUs, a driver that fails.
const TORCH_NO_CUDA_RUNTIME: NoticeContext = {
  class: 'dependency',
  label: 'torch found no CUDA GPU on this host (`No CUDA runtime is found`)',
  needle: 'No CUDA runtime is found',
  pattern: /\bNo CUDA runtime is found, using CUDA_HOME=/,
  samples: ["No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'"],
};

// A compiled extension the engine or a plugin goes on without, logged as a warning (`Failed to import vllm_ascend_C:
// …/vllm_ascend_C.cpython-311-aarch64-linux-gnu.so: undefined symbol: …`, `Failed to import from vllm._C with
// ImportError(…)`): built against another torch or toolkit. What needed it then fails with an error of no class of
// its own (`AssertionError: camem allocator is not available`).
const EXTENSION_NOT_LOADED: NoticeContext = {
  class: 'dependency',
  label: 'a compiled extension did not load (`undefined symbol`): it was built for other releases',
  needle: 'undefined symbol',
  pattern: /\.so(?:\.\d+)*: undefined symbol: \S/,
  samples: [
    'Failed to import npu_ops_C:/usr/local/lib/python3.11/site-packages/npu_ops/npu_ops_C.cpython-311-aarch64-linux-gnu.so: undefined symbol: _ZN2fe13PlatFormInfos',
  ],
};

export const NOTICE_CONTEXTS: readonly NoticeContext[] = [
  TORCH_NO_CUDA_RUNTIME,
  EXTENSION_NOT_LOADED,
  ...NAMED_ENGINES.flatMap((spec) => spec.noticeContexts ?? []),
];
