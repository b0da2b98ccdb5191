// Notices of a condition that a later failure with no class of its own comes from: torch's and the engines' word
// that no GPU is visible. Read only where the failure names nothing itself (an unnamed error, a traceback cut before
// its error line); a failure with a class of its own keeps it.
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

export const NOTICE_CONTEXTS: readonly NoticeContext[] = [
  TORCH_NO_CUDA_RUNTIME,
  ...NAMED_ENGINES.flatMap((spec) => spec.noticeContexts ?? []),
];
