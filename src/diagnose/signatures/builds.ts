// Failure signatures shared by every engine (class dependency): compiled code that does not fit: kernels built for
// another torch or GPU, run-time builds without their toolchain, drivers and runtimes the GPU refuses.
import type { Signature } from '../facts.ts';

export const BUILD_SIGNATURES: readonly Signature[] = [
  {
    // A compiled operator library built for another torch release (`operator torchvision::nms does not exist`):
    // torchvision, torchaudio or an extension whose build does not match the installed torch.
    id: 'torch-operator-missing',
    class: 'dependency',
    weight: 90,
    needles: ['does not exist'],
    pattern: /\boperator (\w+)::(\w+) does not exist\b/,
    samples: ['RuntimeError: operator torchvision::nms does not exist'],
    facts: (m) => ({ package: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) =>
      `torch has no operator ${f.package ?? ''}::${f.value ?? ''}: the installed ${f.package ?? ''} was built for another torch release (install the matching pair)`,
  },
  {
    // A kernel built at run time (FlashInfer's JIT, torch extensions) whose build failed, its compiler's own error
    // not in the excerpt: the toolchain or headers of this host. While capturing CUDA graphs, a capture failure.
    id: 'kernel-build-failed',
    class: 'dependency',
    weight: 45,
    stepDecides: true,
    // Also a C compiler run directly (Triton builds its small CUDA helper module with gcc on first use).
    needles: ['ninja', 'Ninja', 'building extension', 'PassManager::run', 'CalledProcessError: Command'],
    pattern:
      /CalledProcessError: Command '\['(?:ninja'[^\]]*\]' returned non-zero exit status \d+|(?:[^']*\/)?(gcc|g\+\+|cc|c\+\+|clang|clang\+\+|nvcc|hipcc)'(?:, '[^']*\.c(?:pp|u)?')?)|Ninja build failed|Error building extension '([\w.-]+)'|^(?:RuntimeError: )?PassManager::run failed$|^ninja: build stopped: subcommand failed\.$/,
    samples: [
      "subprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpx4yubctp/main.c', '-O3', '-shared', '-fPIC', '-o', '/tmp/tmpx4yubctp/cuda_utils.cpython-310-x86_64-linux-gnu.so', '-lcuda']' returned non-zero exit status 1.",
      "subprocess.CalledProcessError: Command '['ninja', '-v', '-C', '/root/.cache/flashinfer/86/cached_ops', '-f', '/root/.cache/flashinfer/86/cached_ops/build.ninja']' returned non-zero exit status 1.",
      "RuntimeError: Error building extension 'batch_prefill_with_kv_cache_dtype_q_bf16'",
      'ninja: build stopped: subcommand failed.',
    ],
    facts: (m) => ({ value: m[2] ?? m[1] ?? '', kind: 'toolchain-build' }),
    summary: (f) =>
      `a kernel compiled at start failed to build${f.value === '' || f.value === undefined ? '' : ` (${f.value})`}: the compiler's error above says why (often CUDA headers or a compiler this host lacks)`,
  },
  {
    // An operator package compiled for another Ascend chip than the one present (`the socversion Ascend910B1 of bin
    // package does not match the current device socverison Ascend310P3`; CANN spells the second `socverison`).
    id: 'op-package-other-chip',
    class: 'dependency',
    weight: 92,
    needles: ['of bin package does not match'],
    pattern:
      /the socversion (\S+) of bin package does not match the current device socver[si]+on (\S+?)\.?(?: |$)/,
    samples: [
      '..[ERROR] the socversion Ascend910B1 of bin package does not match the current device socverison Ascend310P3. Please modify default socversion in run.sh or execute run.sh with socversion parameter.',
    ],
    facts: (m) => ({ package: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) =>
      `an operator package built for ${f.package ?? 'another chip'} is installed on a ${f.value ?? 'different'} device: install the build for this chip`,
  },
  {
    // A kernel built at run time (DeepGEMM, FlashInfer, Triton extensions) needs the CUDA toolkit's compiler.
    id: 'nvcc-missing',
    class: 'dependency',
    weight: 92,
    needles: ['find nvcc', 'cuda_home'],
    pattern:
      /Could not find nvcc|cuda_home='?[^' ]*'? doesn't exist|CUDA_HOME environment variable is not set/,
    samples: ["RuntimeError: Could not find nvcc and default cuda_home='/usr/local/cuda' doesn't exist"],
    facts: () => ({ package: 'nvcc (the CUDA toolkit)' }),
    summary: () =>
      'a kernel compiled at start needs the CUDA toolkit (nvcc), which is not installed or not found (set CUDA_HOME)',
  },
  {
    // pybind11 refusing a call into compiled code (`TypeError: __init__(): incompatible constructor arguments. The
    // following argument types are supported: …`): the extension was built against another release of its caller
    // (torch, most often), whatever step of the start made the call.
    id: 'binding-signature-mismatch',
    class: 'dependency',
    weight: 70,
    needles: ['incompatible'],
    pattern:
      /\b(\w+)\(\): incompatible (?:constructor|function) arguments\. The following argument types are supported/,
    samples: [
      'TypeError: __init__(): incompatible constructor arguments. The following argument types are supported:',
    ],
    facts: (m) => ({ value: m[1] ?? '', kind: 'abi' }),
    summary: (f) =>
      `compiled code refused the arguments of ${f.value ?? 'a call'}(): an extension built against another release of the package that calls it (torch, most often)`,
  },
  {
    // torch's namespace of a compiled operator library without the operator the code calls (`'_OpNamespace'
    // '_C_ascend' object has no attribute 'weak_ref_tensor'`): the library was built for another release of the code,
    // or it did not load (a warning above says why).
    id: 'compiled-op-missing',
    class: 'dependency',
    weight: 70,
    needles: ['_OpNamespace'],
    pattern: /'_OpNamespace' '(\w+)' object has no attribute '(\w+)'/,
    samples: ["AttributeError: '_OpNamespace' '_C_ascend' object has no attribute 'weak_ref_tensor'"],
    facts: (m) => ({ package: m[1] ?? '', value: m[2] ?? '', kind: 'abi' }),
    summary: (f) =>
      `the compiled operator library ${f.package ?? ''} has no operator ${f.value ?? ''}: it was built for another release of the code that calls it, or it did not load`,
  },
  {
    // A shared library the process needs is not on this machine (a CUDA runtime library of another version).
    id: 'shared-library-missing',
    class: 'dependency',
    weight: 97,
    needles: ['shared object file'],
    pattern: /(?<!\S)(\S+\.so(?:\.[\d.]+)?): cannot open shared object file/,
    samples: ['ImportError: libnvrtc.so.12: cannot open shared object file: No such file or directory'],
    facts: (m) => ({ package: m[1] ?? '', kind: 'abi' }),
    summary: (f) =>
      `the shared library ${f.package ?? ''} is not installed here: the build expects another CUDA or system library version`,
  },
  {
    // The GPU runtime itself could not be loaded (`hip runtime failed to load.`): the driver or toolkit install is
    // broken or missing, before any code of the model ran.
    id: 'gpu-runtime-not-loaded',
    class: 'dependency',
    weight: 90,
    needles: ['failed to load', 'could not be loaded'],
    pattern:
      /\b(HIP|hip|CUDA|cuda|HSA|hsa|ROCm|rocm|GPU|gpu) runtime (?:library )?(?:failed to load|could not be loaded)\b/,
    samples: ['hip runtime failed to load.', 'CUDA runtime library could not be loaded'],
    facts: (m) => ({ package: `${m[1] ?? 'GPU'} runtime`, kind: 'abi' }),
    summary: (f) =>
      `the ${f.package ?? 'GPU runtime'} could not be loaded: the driver or toolkit on this machine is missing or does not match the build`,
  },
  {
    // A compiled extension without the operator for this device: built for another platform or torch.
    id: 'op-missing-for-backend',
    class: 'dependency',
    weight: 90,
    needles: ['with arguments from the'],
    pattern: /Could not run '([\w:.]+)' with arguments from the '(\w+)' backend/,
    samples: ["NotImplementedError: Could not run '_C::rms_norm' with arguments from the 'CUDA' backend."],
    facts: (m) => ({ value: m[1] ?? '', package: m[2] ?? '', kind: 'abi' }),
    summary: (f) =>
      `the compiled operator ${f.value ?? ''} has no ${f.package ?? ''} kernel in this build: the package was built for another device or torch release`,
  },
  {
    id: 'undefined-symbol',
    class: 'dependency',
    weight: 100,
    needles: ['undefined symbol'],
    pattern: /undefined symbol: (\S+)/,
    facts: (m) => ({ value: m[1] ?? '', kind: 'abi' }),
    summary: () =>
      'a compiled extension does not match the installed libraries (undefined symbol: built against another torch/CUDA)',
  },
  {
    // The CUDA compiler refusing an option the build passes (`nvcc fatal : Unknown option
    // '-generate-dependencies-with-compile'`): the CUDA toolkit is older than the kernels being built expect.
    id: 'nvcc-unknown-option',
    class: 'dependency',
    weight: 60,
    stepDecides: true,
    needles: ['nvcc fatal'],
    pattern: /nvcc fatal\s*: Unknown option '(-[\w-]+)'/,
    samples: ["nvcc fatal   : Unknown option '-generate-dependencies-with-compile'"],
    facts: (m) => ({ value: m[1] ?? '', kind: 'toolchain' }),
    summary: (f) =>
      `the CUDA compiler (nvcc) does not know the option ${f.value ?? ''} the kernel build passes: its CUDA toolkit is older than the build expects`,
  },
  {
    // A library's table of GPU architectures without this one (aiter's `KeyError: 'gfx1151'`): the installed build
    // does not support the GPU.
    id: 'unknown-gpu-arch',
    class: 'dependency',
    weight: 60,
    // A library's table (`KeyError: 'gfx1151'`), or the CUDA toolkit's compilers, older than the GPU (`ptxas fatal :
    // Value 'sm_121a' is not defined for option 'gpu-name'`, `nvcc fatal : Unsupported gpu architecture 'compute_121a'`).
    // Also an LLVM-based kernel compiler that has no such target (`bishengir-compile: for the --target option: Cannot
    // find option named 'Ascend910B4-1'!`).
    needles: ['KeyError', 'ptxas', 'nvcc fatal', 'find option named'],
    pattern:
      /KeyError: '((?:gfx\d{3,4}[a-z]?|sm_?\d{2,3}[a-z]?))'|(?:ptxas|nvcc) fatal\s*: (?:Value '(sm_\w+)' is not defined for(?: option 'gpu-name')?|Unsupported gpu architecture '(\w+)')|\bptxas\b.*\berror\s*: PTX \.version [\d.]+ does not support \.target (sm_\w+)|\bfor the --(?:target|mcpu|march|arch|gpu-name) option: Cannot find option named '([^']+)'/,
    samples: [
      "bishengir-compile: for the --target option: Cannot find option named 'Ascend910B4-1'!",
      "KeyError: 'gfx1151'",
      "ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'",
      'ptxas /tmp/tmpmwke15zw.ptx, line 6; error   : PTX .version 8.4 does not support .target sm_120a',
      "nvcc fatal   : Unsupported gpu architecture 'compute_121a'",
    ],
    facts: (m) => ({ value: m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '', kind: 'gpu-arch' }),
    summary: (f) =>
      `an installed library or compiler does not know this GPU's architecture (${f.value ?? ''}): its build is older than this GPU`,
  },
  {
    // A kernel build (Triton's or Inductor's C helper, a JIT-compiled extension) whose compiler finds no header:
    // `fatal error: stddef.h: No such file or directory` (gcc), `fatal error: 'cuda.h' file not found` (clang). The
    // compiler or the development headers (Python's, CUDA's) are missing or not on its path. Inside a capture or a
    // warm-up the step decides, as for any kernel built there.
    id: 'missing-header',
    class: 'dependency',
    weight: 90,
    needles: ['fatal error'],
    pattern:
      /\bfatal error: (?:([\w./+-]+\.(?:h|hpp|cuh)): No such file or directory|'([\w./+-]+\.(?:h|hpp|cuh))' file not found)/,
    samples: [
      '/usr/include/stdlib.h:31:10: fatal error: stddef.h: No such file or directory',
      "/tmp/tmpx/main.c:1:10: fatal error: 'cuda.h' file not found",
    ],
    stepDecides: true,
    facts: (m) => ({ value: m[1] ?? m[2] ?? '', kind: 'toolchain' }),
    summary: (f) =>
      `a kernel build found no ${f.value ?? 'header'}: the C compiler or the development headers (Python's, CUDA's) are missing or not on its path`,
  },
  {
    // Triton's PTX assembler (the ptxas it bundles) failing on a kernel for this GPU: its CUDA toolkit does not fit the
    // GPU (newer than the toolkit) or has a bug the next release fixes.
    id: 'ptxas-failed',
    class: 'dependency',
    weight: 87,
    needles: ['PTXASError'],
    pattern: /PTXASError: (.+)$/,
    samples: ['triton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error'],
    stepDecides: true,
    facts: (m) => ({ value: m[1] ?? '', kind: 'toolchain' }),
    summary: (f) =>
      `Triton's PTX assembler failed on a kernel for this GPU (${f.value ?? ''}): the CUDA toolkit Triton bundles does not fit this GPU (set TRITON_PTXAS_PATH to a newer ptxas, or use a newer Triton)`,
  },
  {
    // A kernel built at run time (Triton's launcher, a JIT extension) that does not compile: its sources and headers
    // come from installed packages, not the user, so the packages (a torch plugin's headers and the toolkit it was
    // built against) do not fit together. Inside a capture or a warm-up the step decides, as for missing-header.
    id: 'kernel-compile-error',
    class: 'dependency',
    weight: 88,
    needles: [': error: '],
    pattern: /[\w./+-]+\.(?:h|hpp|cuh|c|cc|cpp|cxx|cu):\d+:\d+: error: (.+)$/,
    samples: [
      "/usr/local/lib/python3.11/site-packages/torch_npu/include/torch_npu/csrc/framework/interface/AclOpCompileInterface.h:146:55: error: use of undeclared identifier 'aclOpExecutor'; did you mean 'aclopExecute'?",
    ],
    stepDecides: true,
    facts: (m) => ({ value: m[1] ?? '', kind: 'toolchain' }),
    summary: (f) =>
      `a kernel built at run time did not compile (${f.value ?? ''}): the installed packages' headers and the toolkit they were built for do not fit together`,
  },
  {
    // xFormers listing why it has no kernel for an attention call, one reason being a build without CUDA kernels.
    id: 'xformers-no-cuda-build',
    class: 'dependency',
    weight: 86,
    needles: ['xFormers wasn'],
    pattern: /xFormers wasn't build with CUDA support/,
    samples: ["    xFormers wasn't build with CUDA support"],
    facts: () => ({ package: 'xformers' }),
    summary: () =>
      'the installed xFormers has no CUDA kernels (a build for CPU, or for another torch): install the xformers release built for this torch and CUDA',
  },
  {
    // torch finds no GPU the process may use: a container started without GPUs, CUDA_VISIBLE_DEVICES empty (a Ray
    // worker Ray gave none), or no driver. The same case as no device found.
    id: 'no-cuda-gpus',
    class: 'dependency',
    weight: 88,
    needles: ['No CUDA GPUs'],
    pattern: /No CUDA GPUs are available/,
    samples: ['RuntimeError: No CUDA GPUs are available'],
    facts: () => ({ kind: 'driver' }),
    summary: () =>
      'the process sees no GPU: a container started without GPUs (--gpus), CUDA_VISIBLE_DEVICES empty (a Ray worker given none), or no driver',
  },
  {
    // The TPU runtime (libtpu, under JAX or torch_xla) that cannot find the host's TPU topology: a runtime release
    // that does not know this TPU generation, or a VM whose TPUs it cannot see. The same case as no GPU found. (Its
    // other start failures, a TPU held by another process or a slice's addresses, are not this.)
    id: 'tpu-runtime-init',
    class: 'dependency',
    weight: 88,
    needles: ['TPU topology'],
    pattern: /(Failed to get global TPU topology)/,
    samples: ['RuntimeError: Bad StatusOr access: INTERNAL: Failed to get global TPU topology.'],
    facts: (m) => ({ value: m[1] ?? '', kind: 'driver' }),
    summary: (f) =>
      `the TPU runtime could not set up this host's TPUs (${f.value ?? ''}): the runtime (libtpu) release and the TPU generation or VM do not fit`,
  },
  {
    // Also CUDA's error 222: kernels (PTX) built by a newer CUDA toolkit than the driver can load.
    id: 'driver',
    class: 'dependency',
    weight: 100,
    needles: ['Error', 'xception', 'too old'],
    pattern:
      /(?:Error|Exception|Warning)\b.*(NVIDIA driver on your system is too old|CUDA driver version is insufficient|[Ff]ound no NVIDIA driver|libcuda\.so[.\d]*: cannot open shared object file|GLIBC_[\w.]+' not found|CUDA driver initialization failed, you might not have a CUDA gpu|the provided PTX was compiled with an unsupported toolchain|CUDA_ERROR_UNSUPPORTED_PTX_VERSION)/,
    facts: (m) => ({ value: m[1] ?? '', kind: 'driver' }),
    summary: (f) => `the GPU driver or system libraries do not fit this build: ${f.value ?? ''}`,
  },
  {
    // A kernel built at run time (JIT) cannot link a library of the CUDA toolkit or the system: it is not installed
    // where the linker looks (a runtime image without the toolkit's development files, say).
    id: 'linker-missing-library',
    class: 'dependency',
    weight: 98,
    needles: ['cannot find -l'],
    pattern: /\bld(?:\.\w+)?: cannot find -l([\w.+-]+)/,
    samples: ['/usr/bin/ld: cannot find -lcudart: No such file or directory'],
    facts: (m) => ({ value: `lib${m[1] ?? ''}`, kind: 'driver' }),
    summary: (f) =>
      `a kernel compiled at run time cannot be linked: ${f.value ?? 'a library'} is not installed where the linker looks`,
  },
  {
    // Kernels compiled at run time (Triton, torch.compile's C++ wrappers, a JIT extension) need a C/C++ compiler:
    // a slim image or a fresh host without one fails at the first compile.
    id: 'compiler-missing',
    class: 'dependency',
    weight: 98,
    needles: ['C compiler', 'C++ compiler', "command '"],
    pattern:
      /Failed to find C compiler|No working C\+\+ compiler found|InvalidCxxCompiler|error: command '(?:gcc|cc|c\+\+|g\+\+)' failed/,
    samples: [
      'RuntimeError: Failed to find C compiler. Please specify via CC environment variable.',
      'torch._inductor.exc.InvalidCxxCompiler: No working C++ compiler found in torch._inductor.config.cpp.cxx',
      "error: command 'gcc' failed: No such file or directory",
    ],
    facts: () => ({ kind: 'toolchain' }),
    summary: () => 'a kernel compiled at run time needs a C/C++ compiler, and none was found',
  },
  {
    // CUDA's own refusal of the driver it finds: error 803 (driver and runtime do not fit) and 804 (a forward
    // compatibility package on a GPU that does not support it), often worded through cudaGetDeviceCount().
    id: 'cuda-driver-compat',
    class: 'dependency',
    weight: 100,
    needles: ['Error 80', 'forward compatibility', 'unsupported display driver'],
    pattern:
      /Error 80[34]: (.+)$|forward compatibility was attempted on non supported HW|system has unsupported display driver \/ cuda driver combination/,
    samples: [
      'Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW',
    ],
    facts: (m) => ({ value: m[1] ?? m[0], kind: 'driver' }),
    summary: (f) => `the CUDA runtime and the GPU driver do not fit together: ${f.value ?? ''}`,
  },
  {
    // CUDA error 802: on NVSwitch machines (HGX, DGX) the GPUs stay uninitialised until nvidia-fabricmanager runs,
    // at the driver's own version.
    id: 'cuda-system-not-initialized',
    class: 'dependency',
    weight: 100,
    needles: ['Error 80', 'not yet initialized'],
    pattern: /(?:Error 802: )?system not yet initialized/,
    samples: [
      'RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized',
    ],
    facts: () => ({ value: 'system not yet initialized (error 802)', kind: 'driver' }),
    summary: () =>
      'CUDA says the system is not yet initialized (error 802): on NVSwitch machines the nvidia-fabricmanager service must be running, at the same version as the driver',
  },
  {
    id: 'no-kernel-image',
    class: 'dependency',
    weight: 100,
    // Also the runtime's `invalid device function` (HIP's wording, and CUDA's cudaErrorInvalidDeviceFunction), and
    // HIP's loader finding no code object for a kernel (`hip_global.cpp:117 : … us: Cannot find Symbol with name:
    // _ZN7ck_tile…`): a kernel with no build for this GPU's architecture. CUDA's `device kernel image is invalid`
    // (Triton's `Triton Error [CUDA]: device kernel image is invalid`) refuses a kernel built for another GPU or by a
    // newer toolkit than the driver takes.
    needles: [
      'no kernel image',
      'invalid device function',
      'Cannot find Symbol with name',
      'kernel image is invalid',
    ],
    pattern:
      /no kernel image is available for execution on the device|(?:HIP|CUDA|hip|cuda) error: invalid device function|hip_\w+\.cpp:\d+ : \d+ us: +Cannot find Symbol with name: |device kernel image is invalid/,
    samples: [
      'RuntimeError: CUDA error: no kernel image is available for execution on the device',
      'RuntimeError: Triton Error [CUDA]: device kernel image is invalid',
      'RuntimeError: HIP error: invalid device function',
      ':0:/src/clr/hipamd/src/hip_global.cpp:117 : 6190051732 us:  Cannot find Symbol with name: _ZN7ck_tile6kentryILi256E',
    ],
    facts: () => ({ kind: 'arch' }),
    summary: () => 'the installed CUDA kernels were not built for this GPU architecture',
  },
];
