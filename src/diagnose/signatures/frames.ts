// Traceback frames that place an error in one step of the start, shared by every engine: torch's CUDA graph capture.
import { NAMED_ENGINES } from '../../engines/index.ts';
import type { FrameContext } from '../../engines/types.ts';

// torch's own CUDA graph capture (`with torch.cuda.graph(…)` entering or leaving it), and its Ascend port's
// (`torch_npu/npu/graphs.py`): an error below this frame broke a capture, whichever engine ran it and whether or not
// its progress bar is in the log.
export const TORCH_CAPTURE_FRAME: FrameContext = {
  class: 'graph-capture-failed',
  label: 'CUDA graph capture failed',
  needle: 'graphs.py',
  pattern:
    /torch(?:_npu[\\/]npu|[\\/]cuda)[\\/]graphs\.py", line \d+,? in (?:capture_begin|capture_end|__enter__|__exit__)\b/,
  samples: [
    'File "/venv/lib/python3.12/site-packages/torch/cuda/graphs.py", line 130, in capture_end',
    'File "/venv/lib/python3.10/site-packages/torch_npu/npu/graphs.py", line 210, in capture_begin',
  ],
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

// torch.distributed's own calls that set up or first exercise the process group (`barrier`, `all_reduce`, …): an
// error with no class of its own below one (`CUDA error: operation not supported` in the first barrier) broke the
// distributed setup.
const TORCH_DISTRIBUTED_FRAME: FrameContext = {
  class: 'nccl',
  label: 'the distributed setup failed',
  needle: 'distributed_c10d.py',
  pattern:
    /torch[\\/]distributed[\\/]distributed_c10d\.py", line \d+,? in (?:barrier|all_reduce|broadcast|all_gather|init_process_group|new_group)\b/,
  samples: [
    'File "/opt/conda/lib/python3.9/site-packages/torch/distributed/distributed_c10d.py", line 3315, in barrier',
  ],
};

// SentencePiece loading a tokenizer model file (`tokenizer.model`): `TypeError: not a string` (no path: the checkpoint
// has no such file) or `OSError: Not found: …` below it mean the tokenizer file is missing from the model folder.
const SENTENCEPIECE_LOAD_FRAME: FrameContext = {
  class: 'model-not-found-or-auth',
  label: "the tokenizer's SentencePiece model file is missing",
  errors: /\b(?:TypeError|OSError)\b/,
  needle: 'sentencepiece',
  pattern: /sentencepiece[\\/]__init__\.py", line \d+,? in (?:LoadFromFile|Load)\b/,
  samples: [
    'File "/opt/venv/lib/python3.12/site-packages/sentencepiece/__init__.py", line 316, in LoadFromFile',
  ],
};

// transformers' own attribute lookup on its objects (`tokenization_utils_base.py … in __getattr__`, transformers 5's
// tokenizers): an AttributeError raised there is an attribute the server uses that the installed transformers no
// longer (or does not yet) have (`TokenizersBackend has no attribute all_special_tokens_extended`).
const TRANSFORMERS_ATTRIBUTE_FRAME: FrameContext = {
  class: 'dependency',
  label: 'the installed transformers lacks what the server uses (a release it does not support)',
  errors: /\bAttributeError\b/,
  needle: 'transformers',
  pattern: /transformers[\\/][\w\\/]+\.py", line \d+,? in __getattr__$/,
  samples: [
    'File "/venv/lib/python3.12/site-packages/transformers/tokenization_utils_base.py", line 1291, in __getattr__',
  ],
};

// Traceback frames that place the error below them in one step of the start: torch's capture and distributed setup,
// SentencePiece's tokenizer load, and the engines' own steps (SGLang's warm-up, the engines' capture loops).
export const FRAME_CONTEXTS: readonly FrameContext[] = [
  TORCH_CAPTURE_FRAME,
  TORCH_NATIVE_GRAPH_FRAME,
  TORCH_DISTRIBUTED_FRAME,
  SENTENCEPIECE_LOAD_FRAME,
  TRANSFORMERS_ATTRIBUTE_FRAME,
  ...NAMED_ENGINES.flatMap((spec) => spec.frameContexts ?? []),
];
