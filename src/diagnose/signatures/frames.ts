// Traceback frames that place an error in one step of the start, shared by every engine: torch's CUDA graph capture.
import { NAMED_ENGINES } from '../../engines/index.ts';
import type { FrameContext } from '../../engines/types.ts';

// torch's own CUDA graph capture (`with torch.cuda.graph(…)` entering or leaving it): an error below this frame broke
// a capture, whichever engine ran it and whether or not its progress bar is in the log.
export const TORCH_CAPTURE_FRAME: FrameContext = {
  class: 'graph-capture-failed',
  label: 'CUDA graph capture failed',
  needle: 'graphs.py',
  pattern: /torch[\\/]cuda[\\/]graphs\.py", line \d+,? in (?:capture_begin|capture_end|__enter__|__exit__)\b/,
  samples: ['File "/venv/lib/python3.12/site-packages/torch/cuda/graphs.py", line 130, in capture_end'],
};

// torch's CUDA graph object in the native stack printed below an uncaught C++ exception (`frame #3:
// at::cuda::CUDAGraph::~CUDAGraph() + 0x4c (… libtorch_cuda.so)`): the crash happened in graph capture or teardown.
const TORCH_NATIVE_GRAPH_FRAME: FrameContext = {
  class: 'graph-capture-failed',
  label: 'CUDA graph capture failed',
  needle: 'CUDAGraph::',
  pattern: /^frame #\d+: at::cuda::CUDAGraph::/,
  samples: [
    'frame #3: at::cuda::CUDAGraph::~CUDAGraph() + 0x4c (0x7e6cc6ab2acc in /usr/local/lib/python3.12/dist-packages/torch/lib/libtorch_cuda.so)',
  ],
};

// Traceback frames that place the error below them in one step of the start: torch's capture, and the engines' own
// steps (SGLang's warm-up, the engines' capture loops).
export const FRAME_CONTEXTS: readonly FrameContext[] = [
  TORCH_CAPTURE_FRAME,
  TORCH_NATIVE_GRAPH_FRAME,
  ...NAMED_ENGINES.flatMap((spec) => spec.frameContexts ?? []),
];
