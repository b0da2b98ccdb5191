import { beforeAll, describe, it } from 'vitest';
import { ensureBuilt } from '../sim-process.ts';
import { checkFailure, type FailureCase } from './failure-cases.ts';

const ENGINE_DIED =
  /\(EngineCore_DP0 pid=\d+\) ERROR [\d\- :]+ \[core\.py:\d+\] EngineCore failed to start\./;
const API_DIED =
  /\(APIServer pid=\d+\) RuntimeError: Engine core initialization failed\. See root cause above\. Failed core proc\(s\): \{\}/;
const HEARTBEAT =
  /\(APIServer pid=\d+\) DEBUG [\d\- :]+ \[utils\.py:\d+\] Waiting for 1 local, 0 remote core engine proc\(s\) to start\./;

const CASES: FailureCase[] = [
  {
    fail: 'cuda-oom@weight-load',
    lines: [
      /Starting to load model m\.\.\./,
      ENGINE_DIED,
      /\(EngineCore_DP0 pid=\d+\) ERROR .*torch\.OutOfMemoryError: CUDA out of memory\./,
      API_DIED,
    ],
    end: { code: 1 },
  },
  {
    fail: 'cuda-oom@kv-cache',
    lines: [
      /torch\.compile takes/,
      ENGINE_DIED,
      /ValueError: No available memory for the cache blocks\. Try increasing `gpu_memory_utilization` when initializing the engine\./,
      API_DIED,
    ],
    end: { code: 1 },
  },
  {
    fail: 'cuda-oom@graph-capture',
    lines: [
      /GPU KV cache size/,
      /Capturing CUDA graphs \(mixed prefill-decode, PIECEWISE\)/,
      ENGINE_DIED,
      /torch\.OutOfMemoryError: CUDA out of memory\. Tried to allocate 448\.00 MiB/,
      API_DIED,
    ],
    absent: [/Graph capturing finished/],
    end: { code: 1 },
  },
  {
    fail: 'nccl@dist-init',
    args: ['--tensor-parallel-size', '2'],
    lines: [
      /\(Worker_TP0 pid=\d+\) ERROR .*\[multiproc_executor\.py:\d+\] WorkerProc failed to start\./,
      /\(Worker_TP1 pid=\d+\) ERROR .*RuntimeError: NCCL error: unhandled cuda error \(run with NCCL_DEBUG=INFO for details\)/,
      /Exception: WorkerProc initialization failed due to an exception in a background process\. See stack trace for root cause\./,
      API_DIED,
    ],
    end: { code: 1 },
  },
  {
    fail: 'weight-mismatch@weight-load',
    args: [
      '--speculative-config',
      '{"method": "eagle3", "model": "/ckpt/draft", "num_speculative_tokens": 4}',
    ],
    lines: [
      /Loading safetensors checkpoint shards: 100% Completed/,
      /Loading drafter model\.\.\./,
      ENGINE_DIED,
      /param = params_dict\[name\]/,
      /KeyError: 'layers\.0\.self_attn\.qkv_proj\.weight'/,
      API_DIED,
    ],
    end: { code: 1 },
  },
  {
    fail: 'model-not-found-or-auth@process-up',
    lines: [
      /non-default args: /,
      /\(APIServer pid=\d+\) ValueError: Invalid repository ID or local directory specified: 'm'\./,
      /Please verify the following requirements:/,
    ],
    end: { code: 1 },
  },
  {
    fail: 'dependency@process-up',
    lines: [
      /\(APIServer pid=\d+\) ERROR .*\[registry\.py:\d+\] Error in inspecting model architecture 'LlamaForCausalLM'/,
      /subprocess\.CalledProcessError: Command .* returned non-zero exit status 1\./,
      /ImportError: .*\/vllm\/_C\.abi3\.so: undefined symbol: /,
      /ValueError: Model architectures \['LlamaForCausalLM'\] failed to be inspected\./,
    ],
    end: { code: 1 },
  },
  {
    fail: 'invalid-value@process-up',
    lines: [
      /non-default args: /,
      /ValueError: Total number of attention heads \(12\) must be divisible by tensor parallel size \(8\)\./,
    ],
    absent: [/EngineCore/],
    end: { code: 1 },
  },
  {
    fail: 'port-in-use@http-up',
    lines: [
      /Route: \/health/,
      /\(APIServer pid=\d+\) INFO: {5}Application startup complete\./,
      /\(APIServer pid=\d+\) ERROR: {4}\[Errno 98\] error while attempting to bind on address \('127\.0\.0\.1', \d+\): address already in use/,
      /Application shutdown complete\./,
    ],
    end: { code: 1 },
  },
  {
    fail: 'killed@compile',
    lines: [/Model loading took/, /Using cache directory: .* for vLLM's torch\.compile/],
    absent: [/Traceback/, /torch\.compile takes/],
    end: { signal: 'SIGKILL', orphans: true },
  },
  {
    fail: 'hang@weight-load',
    lines: [
      /Starting to load model/,
      /\rLoading safetensors checkpoint shards: +\d+% Completed \| 7\/14/,
      HEARTBEAT,
    ],
    absent: [/Model loading took/],
    end: { hang: HEARTBEAT },
  },
  {
    fail: 'hang@dist-init',
    args: ['--tensor-parallel-size', '2'],
    lines: [/vLLM is using nccl==/, HEARTBEAT],
    absent: [/Starting to load model/],
    end: { hang: HEARTBEAT },
  },
];

beforeAll(() => {
  ensureBuilt();
});

describe.concurrent('VIGIL_SIM_FAIL on the simulated vLLM', () => {
  it.for(CASES)('$fail', async (testCase, context) => {
    await checkFailure(
      'vllm',
      (port) => ['serve', 'm', '--host', '127.0.0.1', '--port', String(port)],
      testCase,
      context,
    );
  });
});
