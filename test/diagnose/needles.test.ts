import { describe, expect, it } from 'vitest';
import { SIGNATURES } from '../../src/diagnose/signature-index.ts';
import { FRAME_CONTEXTS, TRANSLATED_SIGNAL_REPORT } from '../../src/diagnose/signatures.ts';
import {
  ALWAYS_NEEDLES,
  ERROR_NEEDLES,
  PHASE_NEEDLES,
  minimizeNeedles,
  needleRegExp,
} from '../../src/diagnose/needles.ts';
import { createLiteralMatcher } from '../../src/diagnose/literal-automaton.ts';
import { requiredLiterals } from '../../src/diagnose/literals.ts';
import { normalizeLine } from '../../src/logs/normalize.ts';
import { NAMED_ENGINES } from '../../src/engines/index.ts';
import { loadManifest, readLines } from './fixture-logs.ts';

const COVER = [...ERROR_NEEDLES, ...ALWAYS_NEEDLES];
// A shell's report in another language is read without a needle (src/diagnose/signatures.ts says why).
const covered = (text: string): boolean =>
  COVER.some((needle) => text.includes(needle)) || TRANSLATED_SIGNAL_REPORT.test(text);

// One real-shaped line per signature (fixture lines cover most of them too).
const SAMPLES: Record<string, string> = {
  'argparse-unrecognized': 'launch_server.py: error: unrecognized arguments: --reasoning_parser kimi_k2',
  'argparse-ambiguous':
    'api_server.py: error: ambiguous option: --max could match --max-model-len, --max-num-seqs',
  'argparse-invalid-choice':
    "vllm: error: argument --dtype: invalid choice: 'fp9' (choose from 'auto', 'half')",
  'argparse-invalid-value': "launch_server.py: error: argument --tp-size: invalid int value: 'eight'",
  'argparse-required': 'launch_server.py: error: the following arguments are required: --model-path',
  'tp-heads':
    'ValueError: Total number of attention heads (12) must be divisible by tensor parallel size (8).',
  divisible:
    'AssertionError: n_physical_experts=256 must be divisible by ep_size=3. Adjust num_redundant_experts.',
  'config-validation':
    '  Value error, Total number of attention heads (64) must be divisible by tensor parallel size (3). [type=value_error]',
  'torch-oom':
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 19.63 GiB. GPU 3 has a total capacity of 79.15 GiB',
  'cublas-alloc': 'RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`',
  'nccl-calloc': 'Failed to CUDA calloc 67108864 bytes',
  'kv-len':
    "ValueError: To serve at least one request with the models's max seq len (131072), (16.0 GiB KV cache is needed, which is larger than the available KV cache memory (9.2 GiB).",
  'nccl-error': 'RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)',
  'nccl-warn': "host:1234:5678 [3] NCCL WARN Cuda failure 'out of memory'",
  gloo: '[rank3]:[E421 04:13:43.426633564 ProcessGroupGloo.cpp:143] Rank 3 successfully reached monitoredBarrier, but received errors while waiting for send/recv from rank 0.',
  'collective-timeout':
    '[rank0]:[E1201 10:00:00.000 ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1)',
  'addr-in-use':
    "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use",
  'invalid-repo': "ValueError: Invalid repository ID or local directory specified: '/models'.",
  'repo-id-path':
    "huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': '/root/m'.",
  'hub-auth': 'OSError: You are trying to access a gated repo.',
  'hub-not-found':
    "OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files.",
  'param-keyerror': "KeyError: 'midlayer.self_attn.qkv_proj.weight'",
  'state-dict-load': 'RuntimeError: Error(s) in loading state_dict for EagleModel:',
  'arch-unsupported': "ValueError: Model architectures ['Glm4ForCausalLM'] are not supported for now.",
  'min-version':
    'Exception: flashinfer_python is installed with version 0.6.3, which is less than the minimum required version 0.6.4.',
  'import-error': "ModuleNotFoundError: No module named 'flashinfer'",
  'undefined-symbol': 'ImportError: /x/vllm/_C.abi3.so: undefined symbol: _Z20cutlass_moe_mm_sm100',
  driver: 'RuntimeError: The NVIDIA driver on your system is too old (found version 11040).',
  'bf16-capability':
    'ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5.',
  'transformers-arch':
    'ValueError: The checkpoint you are trying to load has model type `qwen3` but Transformers does not recognize this architecture.',
  'no-kernel-image': 'RuntimeError: CUDA error: no kernel image is available for execution on the device',
  'model-file-missing': "FileNotFoundError: [Errno 2] No such file or directory: '/models/llama/config.json'",
  'shell-killed': 'Killed',
  'exit-code-signal': '[12-16 14:27:10] Exit code: -9',
  'signal-number': 'Shard process was signaled to shutdown with signal 7 rank=0',
  'native-crash': 'Segmentation fault (core dumped)',
  'python-exception': "AttributeError: 'MultiprocExecutor' object has no attribute 'workers'",
  'sglang-capture-oom':
    'Exception: Capture cuda graph failed: CUDA out of memory. Tried to allocate 448.00 MiB.',
  'sglang-capture-dist':
    'Exception: Capture cuda graph failed: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer',
  'sglang-capture': 'Exception: Capture cuda graph failed: ',
  'sglang-profiled-negative':
    'max_total_tokens=131072 is larger than the profiled value -561981. Use the profiled value instead.',
  'sglang-not-enough-memory':
    'RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.',
  'sglang-port-check': 'ValueError: metrics_port at 40290 is not available in 30 seconds.',
  'sglang-peer-rank':
    "ValueError: TP rank 1 could finish the model loading, but there are other ranks that didn't finish loading.",
  'sglang-scheduler-dead': 'Rank 0 scheduler is dead. Please check if there are relevant logs.',
  'sglang-warmup': 'Initialization failed. warmup error: Traceback (most recent call last):',
  'sglang-warmup-response': "AssertionError: res=<Response [502]>, res.text=''",
  'sglang-hard-watchdog': 'Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)',
  'sglang-scheduler-exception': 'Scheduler hit an exception: Traceback (most recent call last):',
  'vllm-no-cache-blocks':
    'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization`.',
  'vllm-zero-blocks': '# GPU blocks: 0, # CPU blocks: 256',
  'vllm-inspect': "Error in inspecting model architecture 'Qwen2_5_VLForConditionalGeneration'",
  'vllm-died': 'Worker proc VllmWorker-3 died unexpectedly, shutting down executor.',
  'vllm-engine-core-failed':
    'RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
  'vllm-workerproc': 'WorkerProc failed to start.',
  'tgi-shard-failed': 'Shard 0 failed to start',
};

// The file scanner skips lines without a needle, so every line a signature can match must contain one.
describe('prefilter needles', () => {
  // A signature's hits are kept by its id: two signatures with one id would share (and lose) them.
  it('gives every signature its own id', () => {
    const ids = SIGNATURES.map((signature) => signature.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it.each(SIGNATURES.map((signature) => [signature.id, signature] as const))(
    '%s: a sample line matches and is covered',
    (id, signature) => {
      const sample = SAMPLES[id] ?? signature.samples?.[0];
      expect(sample, `add a sample line for ${id}`).toBeDefined();
      for (const own of signature.samples ?? []) {
        expect(signature.pattern.test(normalizeLine(own).text.trim()), own).toBe(true);
        expect(covered(own), own).toBe(true);
      }
      const text = normalizeLine(sample ?? '').text.trim();
      expect(signature.pattern.test(text)).toBe(true);
      expect(covered(sample ?? '')).toBe(true);
      expect(signature.needles.some((needle) => (sample ?? '').includes(needle))).toBe(true);
    },
  );

  it("of the steps (frame contexts) fit the diagnoser's bit mask of them", () => {
    expect(FRAME_CONTEXTS.length).toBeGreaterThan(0);
    expect(FRAME_CONTEXTS.length).toBeLessThanOrEqual(31);
  });

  it('cover every fixture line a failure signature matches', () => {
    // A logged request's text is never read for failures (src/diagnose/diagnoser.ts).
    const echoes = NAMED_ENGINES.flatMap((engine) => (engine.quotedLines ?? []).map((rule) => rule.pattern));
    let matched = 0;
    // Ranks and retries repeat lines: each distinct one is checked once, and each distinct message (lines that differ
    // only in their prefixes share one) is matched once.
    const seen = new Set<string>();
    const matching = new Map<string, typeof SIGNATURES>();
    // A piece holding none of the literals the patterns cannot match without (read from the patterns, not the
    // needles under test) matches none of them; a pattern without such literals is tried on every piece.
    const literals = SIGNATURES.map((signature) => requiredLiterals(signature.pattern));
    const unread = SIGNATURES.filter((_, i) => literals[i] === null);
    // Case-blind, for the patterns that are: each literal, lower-cased, with the signatures that need it.
    const needing = new Map<string, typeof SIGNATURES>();
    SIGNATURES.forEach((signature, i) => {
      for (const literal of literals[i] ?? [])
        needing.set(literal.toLowerCase(), [...(needing.get(literal.toLowerCase()) ?? []), signature]);
    });
    const keys = [...needing.keys()];
    const anyLiteral = createLiteralMatcher(keys);
    const signaturesMatching = (text: string): typeof SIGNATURES => {
      let found = matching.get(text);
      if (found === undefined) {
        const candidates = new Set(unread);
        if (!echoes.some((echo) => echo.test(text)))
          anyLiteral.forEach(text.toLowerCase(), (index) => {
            for (const signature of needing.get(keys[index] ?? '') ?? []) candidates.add(signature);
          });
        else candidates.clear();
        found = [...candidates].filter((signature) => signature.pattern.test(text));
        matching.set(text, found);
      }
      return found;
    };
    for (const line of loadManifest().flatMap((entry) => readLines(entry.file))) {
      if (seen.has(line.text)) continue;
      seen.add(line.text);
      for (const piece of normalizeLine(line.text).pieces) {
        for (const signature of signaturesMatching(piece.text.trim())) {
          matched++;
          expect(covered(line.text), `${signature.id}: ${line.text}`).toBe(true);
          expect(
            signature.needles.some((needle) => line.text.includes(needle)),
            `${signature.id}: ${line.text}`,
          ).toBe(true);
        }
      }
    }
    expect(matched).toBeGreaterThan(40);
  });

  it('cover the main phase and ready lines of every engine', () => {
    const phaseCover = [...COVER, ...PHASE_NEEDLES];
    for (const line of [
      "[2025-02-04 05:21:33] server_args=ServerArgs(model_path='m')",
      '[2025-06-04 07:49:51 TP0] Init torch distributed begin.',
      '[2025-09-11 10:24:24 TP0] Load weight begin. avail mem=77.43 GB',
      'Loading safetensors checkpoint shards:  50% Completed | 1/2 [04:38<04:38, 278.99s/it]',
      '[2025-09-11 10:25:43 TP0] KV Cache is allocated. #tokens: 903439, K size: 13.79 GB, V size: 13.79 GB',
      '[2025-09-11 10:25:43 TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=11.16 GB',
      '[2025-09-05 20:50:29 TP6] Capture draft cuda graph end. Time elapsed: 62.67 s.',
      '[2025-09-11 10:26:01] INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)',
      '[2025-09-11 10:26:05] The server is fired up and ready to roll!',
      '(APIServer pid=1) INFO 11-06 16:17:14 [api_server.py:1839] vLLM API server version 0.11.0',
      '(EngineCore_DP0 pid=2) INFO 11-24 11:43:54 [gpu_model_runner.py:3341] Model loading took 2.0513 GiB memory and 27.2 seconds',
      '(EngineCore_DP0 pid=2) INFO 11-24 11:44:17 [gpu_worker.py:348] Available KV cache memory: 33.31 GiB',
      'Capturing CUDA graphs (decode, FULL): 100%|██████████| 35/35 [00:01<00:00, 33.86it/s]',
      '(EngineCore pid=37) INFO 05-09 04:45:56 [core.py:299] init engine (profile, create kv cache, warmup model) took 145.84 s',
      '(APIServer pid=1) INFO:     Application startup complete.',
      'ERROR 04-15 08:11:37 [core.py:387]   File "/opt/vllm/vllm/v1/engine/core.py", line 402, in run_busy_loop',
      '2024-03-06T17:53:22.336246Z  INFO shard-manager: text_generation_launcher: Starting shard rank=0',
    ])
      expect(
        phaseCover.some((needle) => line.includes(needle)),
        line,
      ).toBe(true);
  });

  it('drop needles that contain a shorter one', () => {
    expect(minimizeNeedles(['Error', 'KeyError', 'error: unrecognized', 'error', 'Error'])).toEqual([
      'Error',
      'error',
    ]);
    expect(needleRegExp(['a.b', '(x)']).test('a.b')).toBe(true);
    expect(needleRegExp(['a.b']).test('axb')).toBe(false);
  });

  it('list no error literal that a shorter one already finds', () => {
    const frameNeedles = new Set(FRAME_CONTEXTS.map((context) => context.needle));
    const written = ERROR_NEEDLES.filter((needle) => !frameNeedles.has(needle));
    const dead = written.filter((needle) =>
      written.some((other) => other !== needle && needle.includes(other)),
    );
    expect(dead).toEqual([]);
  });
});
