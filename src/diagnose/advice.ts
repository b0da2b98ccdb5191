// Advice per class: the engine's own advisor first (it names that engine's flags); engine-neutral words otherwise.
import type { DiagnosisClass } from '../events.ts';
import { FLAG_ENGINES, getEngine } from '../engines/index.ts';
import type { EngineId } from '../engines/types.ts';
import type { DiagnosisContext, FailureFacts } from './facts.ts';

// Each engine's GPU memory option, for advice when the log does not say which engine ran.
const memoryOptions = (): string =>
  FLAG_ENGINES.flatMap((spec) => {
    const option = spec.flags?.purposes.find((p) => p.purpose === 'GPU memory budget')?.options[0];
    return option === undefined ? [] : [`${spec.label} ${option}`];
  }).join(', ');

const NEUTRAL: Partial<Record<DiagnosisClass, string[]>> = {
  'unknown-flag': [
    "Check the flag against the server's `--help` for the installed version, or run `vigil check -- <command>`.",
  ],
  'invalid-value': ['Fix the value named above; `vigil check -- <command>` checks values before launching.'],
  'cuda-oom': [
    `Leave more GPU memory: lower the memory fraction (${memoryOptions()} for load-time OOM; raise it when the KV cache gets none), the context length or the batch size.`,
  ],
  nccl: ['Rerun with NCCL_DEBUG=INFO; in a container give shared memory (--shm-size or --ipc=host).'],
  'port-in-use': [
    'Stop the process holding the port or choose another --port; `vigil stop ID` if it is a vigil launch.',
  ],
  'model-not-found-or-auth': [
    'Check the model path or Hub id; for gated models pass a token (`vigil up --env HF_TOKEN ...`).',
  ],
  'weight-mismatch': [
    'Check that the checkpoint\'s config.json "architectures" names the class that matches its weight names.',
  ],
  dependency: ["Install the package version named above in the server's environment."],
  hang: [
    'Rerun with NCCL_DEBUG=INFO and debug logging to see where the start stops; raise --stall-timeout if it is only slow.',
  ],
  killed: ['Check the host OOM killer (`dmesg -T | grep -i "killed process"`) and container limits.'],
  'warmup-failed': ["Check http_proxy/no_proxy: the server's request to itself must reach 127.0.0.1."],
  'graph-capture-failed': [
    'Retry without torch.compile and with fewer captured batch sizes to find the cause.',
  ],
  'peer-rank-failed': [
    "Find the failing rank's own error; this rank only reports that others did not finish.",
  ],
  unknown: ['Read the evidence lines above; give vigil the whole log from the start if this is a fragment.'],
};

// The advice for a class on an engine; never empty for a failure class.
export const adviseFor = (
  engine: EngineId,
  cls: DiagnosisClass,
  facts: FailureFacts,
  context: DiagnosisContext,
): string[] => {
  if (cls === 'ready') return [];
  // The same on every engine: what is missing is the host's compiler, not anything of the engine.
  if (cls === 'dependency' && facts.kind === 'toolchain')
    return [
      "Install a C/C++ compiler in the server's environment (Debian/Ubuntu: apt-get install build-essential), or point CC at one.",
    ];
  // A kernel built at start needs the host's CUDA toolkit and compiler, whatever the engine.
  if (cls === 'dependency' && facts.kind === 'toolchain-build')
    return [
      "Read the compiler's error above the failed build; install the CUDA toolkit that matches torch's CUDA (nvcc and its headers) and a C++ compiler in the server's environment, or use prebuilt kernels (a server image, FlashInfer's flashinfer-jit-cache) so nothing is compiled at start.",
    ];
  // A GPU page fault is a kernel's bug or a build for another GPU, whatever the engine: not the host's memory.
  if (cls === 'killed' && facts.kind === 'gpu-fault')
    return [
      "Run once with --enforce-eager (or the engine's option to disable CUDA/HIP graphs and custom kernels) to find the kernel; check that this build supports the GPU (on ROCm an HSA_OVERRIDE_GFX_VERSION for another GPU causes this).",
    ];
  // Which GPUs each rank sees is set outside the engine (the launcher's environment, a scheduler's allocation).
  if (cls === 'nccl' && facts.kind === 'duplicate-gpu')
    return [
      'Give every rank its own GPU: check CUDA_VISIBLE_DEVICES for each rank (a data-parallel launcher must not pass all ranks the same one) and that the ranks do not outnumber the GPUs.',
    ];
  // A library's kernels built without this GPU's architecture: a newer build, or the engine without that library.
  if (cls === 'dependency' && facts.kind === 'gpu-arch')
    return [
      `Use a build of the failing library or CUDA toolkit (or a server image) that supports ${facts.value === undefined || facts.value === '' ? 'this GPU' : facts.value}, or turn that library's kernels off in the engine's settings.`,
    ];
  // Memory another process holds on a GPU is freed outside the engine.
  if (cls === 'cuda-oom' && facts.kind === 'occupied')
    return [
      'Free the GPUs: `nvidia-smi` lists the processes holding memory on them; stop those, or choose idle GPUs with CUDA_VISIBLE_DEVICES.',
    ];
  // A collective library's own listening port, not the server's: another instance on this host holds it.
  if (cls === 'port-in-use' && facts.kind === 'collective-port')
    return [
      "Another process on this host (often a second engine on other accelerators) holds the collective library's listening port: give each instance its own range (Ascend HCCL: HCCL_IF_BASE_PORT, 60000 by default), or stop the other one.",
    ];
  const own = getEngine(engine).advise?.(cls, facts, context) ?? [];
  if (own.length > 0) return own;
  if (cls === 'dependency' && facts.package !== undefined && facts.package !== '')
    return [`Install ${facts.package} (the version the server needs) in the server's environment.`];
  return NEUTRAL[cls] ?? [];
};
