// Failure signatures shared by every engine: packages, builds, drivers and kernels that do not fit together.
import type { Signature } from '../facts.ts';
import { ownModuleOfEngine } from './shared.ts';

export const DEPENDENCY_SIGNATURES: readonly Signature[] = [
  // --- dependency.
  {
    // A library that names a package it needs and does not find (`Form data requires "python-multipart" to be
    // installed.`): the environment lacks it.
    id: 'requires-installed',
    class: 'dependency',
    weight: 90,
    needles: ['to be installed'],
    pattern: /\brequires "?([\w.-]+)"? to be installed\b/,
    samples: ['RuntimeError: Form data requires "python-multipart" to be installed.'],
    facts: (m) => ({ package: m[1] ?? '' }),
    summary: (f) => `the package ${f.package ?? ''} is required but not installed`,
  },
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
    // The server registers its own config class for a model that the installed transformers now defines too:
    // transformers is newer than this server release supports.
    id: 'config-class-taken',
    class: 'dependency',
    weight: 95,
    needles: ['is already used by a Transformers model'],
    pattern: /'<class '(?:[\w.]+\.)?(\w+)'>' is already used by a Transformers model/,
    samples: [
      "ValueError: '<class 'serve.configs.qwen2_5_vl_config.Qwen2_5_VLConfig'>' is already used by a Transformers model.",
    ],
    facts: (m) => ({ package: 'transformers', value: m[1] ?? '' }),
    summary: (f) =>
      `the installed transformers already defines ${f.value ?? 'a config class'} that the server registers itself: transformers is newer than this server release supports (install the transformers release it pins)`,
  },
  {
    id: 'min-version',
    class: 'dependency',
    weight: 100,
    needles: ['minimum required version'],
    pattern:
      /(?<!\S)(\S+) is installed with version (\S+), which is less than the minimum required version (\w[\w+-]*(?:\.\w[\w+-]*)*)|(?<!\S)(\S+) with minimum required version (\w[\w+-]*(?:\.\w[\w+-]*)*) is not installed/,
    facts: (m) => ({ package: m[1] ?? m[4] ?? '', value: m[2] ?? 'none', choices: m[3] ?? m[5] ?? '' }),
    summary: (f) =>
      `${f.package ?? ''} ${f.value === 'none' ? 'is not installed' : `is ${f.value ?? ''}`}, but at least ${f.choices ?? ''} is required`,
  },
  {
    // A message that names a package as missing or too old for what was asked (`… CUDA op requires DeepGEMM to be
    // installed.`, `… current CANN version do not support with this format. Please try to update the version of CANN.`).
    id: 'package-required',
    class: 'dependency',
    weight: 90,
    needles: ['to be installed', 'the version of', 'or outdated'],
    pattern:
      /\b(?:requires?|needs?) (?:the )?([\w.-]+)(?: package| library)? to be installed\b|[Pp]lease (?:try to )?(?:update|upgrade) the version of ([\w.-]+)|\b([\w.-]+)(?: backend| library| package)? (?:is|are) not (?:available|installed) or outdated\b/,
    samples: [
      'RuntimeError: Sparse Attention Indexer CUDA op requires DeepGEMM to be installed.',
      'RuntimeError: Format of weight in npu_grouped_matmul is FRACTAL_NZ, current CANN version do not support with this format. Please try to update the version of CANN.',
      'RuntimeError: DeepGEMM backend is not available or outdated.',
    ],
    facts: (m) => ({ package: m[1] ?? m[2] ?? m[3] ?? '' }),
    summary: (f) =>
      `the start needs ${f.package ?? 'a package'} that is not installed here, or a newer release of it than the one installed`,
  },
  {
    id: 'import-error',
    class: 'dependency',
    weight: 98,
    needles: ['Error'],
    // Also `python -m` failing to find the module itself: `Error while finding module specification for 'x.y'
    // (ModuleNotFoundError: No module named 'x')`.
    pattern:
      /^(?:[\w.]+\.)?(?:ModuleNotFoundError: No module named '([^']+)'|ImportError: (.+)|PackageNotFoundError: (\S+))|(?:Error while finding module specification for )?'[\w.]+' \(ModuleNotFoundError: No module named '([^']+)'\)/,
    facts: (m) => ({ package: m[1] ?? m[3] ?? m[4] ?? '', value: m[2] ?? '' }),
    // Not an engine's own Python module without a name the engine's own code imports from it (`cannot import name
    // 'get_attention_cp_size' from 'sglang.srt.layers.dp_attention'` below a frame in sglang/): a bug of the release.
    holdsWhen: (f) =>
      !ownModuleOfEngine(/^cannot import name '\w+' from '([\w.]+)'/.exec(f.value ?? '')?.[1], f.frame),
    summary: (f) =>
      f.value !== undefined && f.value !== ''
        ? `a Python import failed: ${f.value}`
        : `the Python package ${f.package ?? ''} is missing`,
  },
  {
    // The shell (or nohup, or a container runtime) found no such command: the engine is not installed in this
    // environment, or not on PATH.
    id: 'command-not-found',
    class: 'dependency',
    weight: 100,
    needles: [
      'command not found',
      'failed to run command',
      'executable file not found',
      ': not found',
      'No such file or directory',
    ],
    pattern:
      /(?:^|: )(?:command not found: ([\w.-]+)|([\w.-]+): command not found|failed to run command '([\w./-]+)': No such file or directory)|exec: "([\w./-]+)": executable file not found in \$PATH|^\s*(?:\/bin\/)?(?:da|a)?sh: (?:line )?\d+: ([\w./+-]+): not found$|\[Errno 2\] No such file or directory: '((?:[^'\s]*\/)?s?bin\/[\w.+-]+)'/,
    samples: [
      'zsh: command not found: serve-model',
      'bash: line 1: model-launcher: command not found',
      // dash (Debian's /bin/sh, which build tools such as ninja run commands with)
      '  /bin/sh: 1: /usr/local/cuda/bin/nvcc: not found',
      "nohup: failed to run command 'serve-model': No such file or directory",
      'exec: "serve-model": executable file not found in $PATH: unknown',
      // a launcher starting the engine's executable by path (subprocess raising FileNotFoundError)
      "ERROR - Failed to run the server: [Errno 2] No such file or directory: '/opt/envs/serve/bin/serve-model'",
    ],
    facts: (m) => ({ package: m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? '' }),
    summary: (f) =>
      `the shell found no command '${f.package ?? ''}': it is not installed in this environment, or not on PATH`,
  },
  {
    // A kernel built at run time (FlashInfer's JIT, torch extensions) whose build failed, its compiler's own error
    // not in the excerpt: the toolchain or headers of this host. While capturing CUDA graphs, a capture failure.
    id: 'kernel-build-failed',
    class: 'dependency',
    weight: 45,
    stepDecides: true,
    needles: ['ninja', 'Ninja', 'building extension', 'PassManager::run'],
    pattern:
      /CalledProcessError: Command '\['ninja'[^\]]*\]' returned non-zero exit status \d+|Ninja build failed|Error building extension '([\w.-]+)'|^(?:RuntimeError: )?PassManager::run failed$|^ninja: build stopped: subcommand failed\.$/,
    samples: [
      "subprocess.CalledProcessError: Command '['ninja', '-v', '-C', '/root/.cache/flashinfer/86/cached_ops', '-f', '/root/.cache/flashinfer/86/cached_ops/build.ninja']' returned non-zero exit status 1.",
      "RuntimeError: Error building extension 'batch_prefill_with_kv_cache_dtype_q_bf16'",
      'ninja: build stopped: subcommand failed.',
    ],
    facts: (m) => ({ value: m[1] ?? '', kind: 'toolchain-build' }),
    summary: (f) =>
      `a kernel compiled at start failed to build${f.value === '' || f.value === undefined ? '' : ` (${f.value})`}: the compiler's error above says why (often CUDA headers or a compiler this host lacks)`,
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
    // Subscripting a builtin type (`list[int]`, `array.array[int]`) in code written for a newer Python than the one
    // running it.
    id: 'python-too-old',
    class: 'dependency',
    weight: 70,
    needles: ['not subscriptable'],
    pattern: /^TypeError: type '([\w.]+)' is not subscriptable/,
    samples: ["TypeError: type 'array.array' is not subscriptable"],
    facts: (m) => ({ package: 'python', value: m[1] ?? '' }),
    summary: (f) =>
      `the code subscripts the type '${f.value ?? ''}', which this Python does not allow: it needs a newer Python (or a release of the package made for this one)`,
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
    // A module or class without an attribute its caller expects: two packages from different releases (a model's
    // own code against the installed engine, an engine against transformers). An object's missing attribute is a
    // bug, not this.
    id: 'api-drift',
    class: 'dependency',
    weight: 60,
    needles: ['Error'],
    pattern: /^(?:[\w.]+\.)?AttributeError: (?:module|type object) '([\w.]+)/,
    // Not an engine's own Python module missing what the engine's own code calls (`module
    // 'sglang.srt.layers.quantization.deep_gemm_wrapper' has no attribute …` below a frame in sglang/): that is a bug
    // of the release (read as any other exception). Its compiled modules (`vllm._C`) stay a build of another release.
    holdsWhen: (f) => !ownModuleOfEngine(f.package, f.frame),
    samples: [
      "AttributeError: module 'transformers.utils' has no attribute 'is_flash_attn_greater_or_equal_2_10'",
      "AttributeError: type object 'BaseMultiModalItemTracker' has no attribute '_placeholder_str'",
    ],
    facts: (m) => ({ package: m[1] ?? '', kind: 'api' }),
    summary: (f) =>
      `code expected an attribute of ${f.package ?? 'a module'} that the installed release does not have: two packages from releases that do not fit together`,
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
    // transformers older than the model: it has no class of that name to load.
    id: 'tokenizer-class-missing',
    class: 'dependency',
    weight: 90,
    needles: ['currently imported'],
    pattern: /Tokenizer class "?(\w+)"? does not exist or is not currently imported/,
    samples: ['ValueError: Tokenizer class GemmaTokenizer does not exist or is not currently imported.'],
    facts: (m) => ({ package: 'transformers', value: m[1] ?? '' }),
    summary: (f) =>
      `the installed transformers has no tokenizer class ${f.value ?? ''}: it is older than the model (upgrade transformers, or the image that ships it)`,
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
    needles: ['KeyError', 'ptxas', 'nvcc fatal'],
    pattern:
      /KeyError: '((?:gfx\d{3,4}[a-z]?|sm_?\d{2,3}[a-z]?))'|(?:ptxas|nvcc) fatal\s*: (?:Value '(sm_\w+)' is not defined for(?: option 'gpu-name')?|Unsupported gpu architecture '(\w+)')|\bptxas\b.*\berror\s*: PTX \.version [\d.]+ does not support \.target (sm_\w+)/,
    samples: [
      "KeyError: 'gfx1151'",
      "ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'",
      'ptxas /tmp/tmpmwke15zw.ptx, line 6; error   : PTX .version 8.4 does not support .target sm_120a',
      "nvcc fatal   : Unsupported gpu architecture 'compute_121a'",
    ],
    facts: (m) => ({ value: m[1] ?? m[2] ?? m[3] ?? m[4] ?? '', kind: 'gpu-arch' }),
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
    id: 'driver',
    class: 'dependency',
    weight: 100,
    needles: ['Error', 'xception', 'too old'],
    pattern:
      /(?:Error|Exception|Warning)\b.*(NVIDIA driver on your system is too old|CUDA driver version is insufficient|[Ff]ound no NVIDIA driver|libcuda\.so[.\d]*: cannot open shared object file|GLIBC_[\w.]+' not found)/,
    facts: (m) => ({ value: m[1] ?? '', kind: 'driver' }),
    summary: (f) => `the GPU driver or system libraries do not fit this build: ${f.value ?? ''}`,
  },
  {
    id: 'transformers-arch',
    class: 'dependency',
    weight: 100,
    needles: ['does not recognize this architecture'],
    pattern: /has model type `([\w-]+)` but Transformers does not recognize this architecture/,
    facts: (m) => ({ package: 'transformers', arch: m[1] ?? '' }),
    summary: (f) => `the installed transformers is too old for model type ${f.arch ?? ''}`,
  },
  {
    // transformers' registry of model types has no entry for the checkpoint's `model_type` (a model newer than
    // the installed transformers): the KeyError is raised from this line of AutoConfig.
    id: 'transformers-model-type',
    class: 'dependency',
    weight: 99,
    needles: ['CONFIG_MAPPING['],
    pattern: /CONFIG_MAPPING\[config_dict\[["']model_type["']\]\]/,
    samples: ['config_class = CONFIG_MAPPING[config_dict["model_type"]]'],
    facts: () => ({ package: 'transformers' }),
    summary: () =>
      "the installed transformers does not know the checkpoint's model type (the model is newer than it)",
  },
  {
    // One package calls another with an argument the installed release does not take (a serving wrapper passing a
    // newer engine option, an engine calling an older transformers): the two releases do not fit together.
    id: 'unexpected-keyword',
    class: 'dependency',
    weight: 90,
    // Also a call with more or fewer arguments than the installed release takes (a compiled kernel package older
    // than the engine that calls it: `moe_fused_gate() takes 5 positional arguments but 7 were given`).
    needles: ['unexpected keyword', 'positional argument'],
    pattern:
      /\b([\w.]+)\(\) got an unexpected keyword argument '(\w+)'|\b([\w.]+)\(\) takes (?:from \d+ to )?(\d+) positional arguments? but \d+ (?:were|was) given/,
    samples: [
      "TypeError: [address=0.0.0.0:37737, pid=1025864] AsyncEngineArgs.__init__() got an unexpected keyword argument 'limit_mm_per_prompt'",
      'TypeError: moe_fused_gate() takes 5 positional arguments but 7 were given',
    ],
    facts: (m) => ({
      value: m[1] === undefined ? `${m[3] ?? ''}(${m[4] ?? ''} arguments)` : `${m[1]}(${m[2] ?? ''}=…)`,
      kind: 'api',
    }),
    summary: (f) =>
      `installed packages do not fit together: ${f.value ?? ''} is a call the installed release does not accept`,
  },
  {
    // A host program (a Rust or C++ launcher embedding Python) that cannot import the engine's package.
    id: 'embedded-import-failed',
    class: 'dependency',
    weight: 95,
    needles: ['ailed to import'],
    pattern: /[Ff]ailed to import (?:the )?(?:[Pp]ython )?'?([\w.]+)'? module\b[^:]*(?::\s*(.*))?$/,
    samples: [
      "Failed to import python 'torch' module. Are we running in the correct venv? AttributeError: class must define a '_type_' attribute",
    ],
    facts: (m) => ({ package: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) =>
      `the Python package ${f.package ?? ''} could not be imported${f.value ? `: ${f.value}` : ''}`,
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
    // An engine's fallback to the transformers implementation, for an architecture it has no class of its own for,
    // finds none in transformers either: the same case as SGLang's `has no SGlang implementation`.
    id: 'transformers-no-model-module',
    class: 'weight-mismatch',
    weight: 94,
    origin: 'dependency',
    needles: ['registered model'],
    pattern: /Cannot find model module\. '(\w+)' is not a registered model in the Transformers library/,
    samples: [
      "ValueError: Cannot find model module. 'Cosmos3ForConditionalGeneration' is not a registered model in the Transformers library (only relevant if the model is meant to be in Transformers) and 'AutoModel' is not present in the model config's 'auto_map' (relevant if the model is custom).",
    ],
    facts: (m) => ({ arch: m[1] ?? '', kind: 'arch' }),
    summary: (f) =>
      `no model class serves the architecture ${f.arch ?? ''}: the engine has none, and its transformers fallback found none either`,
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
