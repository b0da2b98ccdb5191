import { beforeAll, describe, it } from 'vitest';
import { ensureBuilt } from '../sim-process.ts';
import { checkFailure, type FailureCase } from './failure-cases.ts';

const DRAFT = ['--speculative-algorithm', 'EAGLE3', '--speculative-draft-model-path', '/ckpt/draft'];
const DIED = /\] Received sigquit from a child process\. It usually means the child failed\./;
const SCHEDULER = /TP0\] Scheduler hit an exception: Traceback \(most recent call last\):/;
const READY = /ready to roll/;

const CASES: FailureCase[] = [
  {
    fail: 'cuda-oom@weight-load',
    lines: [
      /Load weight begin/,
      /\rLoading safetensors checkpoint shards: +\d+% Completed \| 7\/18/,
      SCHEDULER,
      /torch\.OutOfMemoryError: CUDA out of memory\. Tried to allocate/,
      DIED,
    ],
    end: { signal: 'SIGKILL', orphans: false },
  },
  {
    fail: 'cuda-oom@kv-cache',
    lines: [
      /Load weight end/,
      SCHEDULER,
      /RuntimeError: Not enough memory\. Please try to increase --mem-fraction-static\./,
      DIED,
    ],
    end: { signal: 'SIGKILL', orphans: false },
  },
  {
    fail: 'cuda-oom@graph-capture',
    lines: [
      /Capture target decode CUDA graph begin/,
      /Exception: Capture cuda graph failed: CUDA out of memory\. Tried to allocate 448\.00 MiB/,
      /Possible solutions:\n1\. set --mem-fraction-static/,
      DIED,
    ],
    absent: [/Uvicorn running/],
    end: { signal: 'SIGKILL', orphans: false },
  },
  {
    fail: 'cuda-oom@draft-graph-capture',
    args: DRAFT,
    lines: [
      /Capture target decode CUDA graph end/,
      /Capture draft decode CUDA graph begin/,
      /Capture cuda graph failed: CUDA out of memory/,
      DIED,
    ],
    end: { signal: 'SIGKILL', orphans: false },
  },
  {
    fail: 'graph-capture-failed@graph-capture',
    lines: [
      /Capture target decode CUDA graph begin/,
      /Exception: Capture cuda graph failed: CUDA error: operation not permitted when stream is capturing/,
      /3\. disable torch compile/,
      DIED,
    ],
    end: { signal: 'SIGKILL', orphans: false },
  },
  {
    fail: 'nccl@dist-init',
    args: ['--tp-size', '2'],
    lines: [
      /TP0\] Init torch distributed begin\./,
      /pynccl_wrapper\.py", line \d+, in NCCL_CHECK/,
      /RuntimeError: NCCL error: unhandled system error \(run with NCCL_DEBUG=INFO for details\)/,
      DIED,
    ],
    absent: [/Init torch distributed ends/],
    end: { signal: 'SIGKILL', orphans: false },
  },
  {
    fail: 'weight-mismatch@weight-load',
    args: DRAFT,
    lines: [
      /Capture target decode CUDA graph end/,
      /TP0\] Load weight begin/,
      SCHEDULER,
      /param = params_dict\[name\]/,
      /KeyError: 'midlayer\.self_attn\.qkv_proj\.weight'/,
      DIED,
    ],
    end: { signal: 'SIGKILL', orphans: false },
  },
  {
    fail: 'peer-rank-failed@weight-load',
    args: ['--tp-size', '3'],
    lines: [
      /Load weight begin/,
      /TP1\] Scheduler hit an exception: Traceback/,
      /ValueError: TP rank 1 could finish the model loading, but there are other ranks that didn't finish loading\./,
      DIED,
    ],
    end: { signal: 'SIGKILL', orphans: false },
  },
  {
    fail: 'warmup-failed@warmup',
    lines: [
      /Uvicorn running on/,
      /"GET \/model_info HTTP\/1\.1" 200 OK/,
      /\] Initialization failed\. warmup error: Traceback/,
      /AssertionError: res=<Response \[502\]>, res\.text=''/,
    ],
    absent: [READY],
    end: { signal: 'SIGKILL', orphans: false },
  },
  {
    fail: 'killed@weight-load',
    lines: [/Load weight begin/, /\rLoading safetensors checkpoint shards: +\d+% Completed \| 9\/18/],
    absent: [/Traceback/, /Load weight end/],
    end: { signal: 'SIGKILL', orphans: true },
  },
  {
    fail: 'port-in-use@http-up',
    lines: [
      /INFO: {5}Application startup complete\./,
      /ERROR: {4}\[Errno 98\] error while attempting to bind on address \('127\.0\.0\.1', \d+\): address already in use/,
      /Application shutdown complete\./,
    ],
    absent: [/Uvicorn running/],
    end: { code: 1 },
  },
  {
    fail: 'model-not-found-or-auth@process-up',
    lines: [
      /server_args=ServerArgs\(/,
      /OSError: You are trying to access a gated repo\./,
      /Cannot access gated repo for url https:\/\/huggingface\.co\/m\/resolve\/main\/config\.json\./,
    ],
    end: { code: 1 },
  },
  {
    fail: 'dependency@process-up',
    lines: [
      /server_args=ServerArgs\(/,
      /Exception: flashinfer_python is installed with version 0\.6\.3, which is less than the minimum required version 0\.6\.4\./,
    ],
    absent: [/Init torch distributed/],
    end: { code: 1 },
  },
  {
    fail: 'invalid-value@process-up',
    lines: [
      /^usage: launch_server\.py \[-h\] --model-path MODEL_PATH/,
      /\nlaunch_server\.py: error: argument --mm-attention-backend: invalid choice: 'triton' \(choose from 'sdpa', 'fa3', /,
    ],
    absent: [/server_args/],
    end: { code: 2 },
  },
  {
    fail: 'hang@dist-init',
    args: ['--tp-size', '2'],
    lines: [/TP0\] Init torch distributed begin\./, /TP0\] sglang is using nccl==[\d.]+/],
    absent: [/Init torch distributed ends/],
    end: { hang: null },
  },
  {
    fail: 'hang@graph-capture',
    lines: [
      /Capture target decode CUDA graph begin/,
      /\rCapturing batches \(bs=160 avail_mem=[\d.]+ GB\): +0%\| +\| 0\/23 \[00:00<\?, \?it\/s\]/,
    ],
    absent: [/Capture cuda graph end/],
    end: { hang: null },
  },
  {
    fail: 'hang@warmup',
    lines: [
      /Uvicorn running on/,
      /Prefill batch/,
      /TP0\] Scheduler watchdog timeout \(self\.watchdog_timeout=300, self\.soft=True\)/,
    ],
    absent: [READY],
    end: { hang: /Scheduler watchdog timeout/ },
  },
];

beforeAll(() => {
  ensureBuilt();
});

describe.concurrent('VIGIL_SIM_FAIL on the simulated SGLang', () => {
  it.for(CASES)('$fail', async (testCase, context) => {
    await checkFailure('sglang', (port) => ['--model-path', 'm', '--port', String(port)], testCase, context);
  });
});
