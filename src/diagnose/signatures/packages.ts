// Failure signatures shared by every engine (class dependency): Python packages and modules that are missing, too
// old or too new for each other.
import type { Signature } from '../facts.ts';
import { engineOfFrame } from '../../engines/index.ts';
import { ownModuleOfEngine } from './shared.ts';

export const PACKAGE_SIGNATURES: readonly Signature[] = [
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
    // torch built without the GPU backend the engine calls (a CPU-only wheel, or an accelerator's own torch build
    // reached through the CUDA path because its platform plugin did not load): the installed torch does not fit.
    id: 'torch-without-cuda',
    class: 'dependency',
    weight: 90,
    needles: ['not compiled with CUDA'],
    pattern: /Torch not compiled with CUDA enabled/,
    samples: ['AssertionError: Torch not compiled with CUDA enabled'],
    facts: () => ({ package: 'torch' }),
    summary: () =>
      "the installed torch was built without CUDA: install the torch build for this host's accelerator (a CUDA wheel on NVIDIA GPUs), or the engine's platform plugin for another accelerator",
  },
  {
    // torch asked for a device of no type: the engine found no accelerator platform to name (vLLM on a host where
    // torch sees no GPU prints `No platform detected` first, then its device type is empty).
    id: 'torch-empty-device',
    class: 'dependency',
    weight: 90,
    needles: ['Device string must not be empty'],
    pattern: /\bDevice string must not be empty\b/,
    samples: ['RuntimeError: Device string must not be empty'],
    facts: () => ({ package: 'torch' }),
    summary: () =>
      'the server found no GPU or other accelerator to run on (its device type is empty): torch sees no device, or the installed torch or engine build is for another accelerator',
  },
  {
    // torch's custom-op registration refusing a parameter's type annotation (`infer_schema(func): Parameter block_size
    // has unsupported type list[int]`): the code was written for a newer torch, which accepts that annotation.
    id: 'torch-op-schema-type',
    class: 'dependency',
    weight: 90,
    needles: ['infer_schema('],
    pattern: /\binfer_schema\([^)]*\): Parameter (\w+) has unsupported type ([^.\s]+)/,
    samples: [
      'ValueError: infer_schema(func): Parameter block_size has unsupported type list[int]. The valid types are: dict_keys([...])',
    ],
    facts: (m) => ({ package: 'torch', value: `${m[1] ?? ''}: ${m[2] ?? ''}` }),
    summary: (f) =>
      `the installed torch cannot register a custom operator of the engine or a plugin (it refuses the parameter type ${f.value ?? ''}): that code needs a newer torch, so install the torch release the engine was built for`,
  },
  {
    // A native library built or set up without the GPU support the server asks of it (UCX under NIXL: `VRAM memory is
    // detected as host by UCX. UCX is likely not configured with CUDA support.`): the installed build does not fit.
    id: 'library-without-gpu-support',
    class: 'dependency',
    weight: 90,
    // Only a build's configuration: `PyTorch is not built with CUDA support` is a probe SGLang survives.
    needles: ['not configured with'],
    pattern: /\b(\w+) is (?:likely |probably )?not configured with (CUDA|ROCm|GPU) support\b/,
    samples: ['VRAM memory is detected as host by UCX. UCX is likely not configured with CUDA support.'],
    facts: (m) => ({ package: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) =>
      `${f.package ?? 'a library'} was built or set up without ${f.value ?? 'GPU'} support: install the build of it for this host's accelerator, or point the server at one`,
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
    // Also an error that names a package an option needs (`--enable-http2 requires the 'granian' package.`), or a
    // release of one at least (`--enable-metrics requires smg-grpc-servicer ≥ 0.5.3`): not another option (`requires
    // --pp-size 1`), nor a setting's name (`requires num_target_layers >= 4`).
    needles: ['to be installed', 'the version of', 'or outdated', "' package", '" package', ' ≥', ' >='],
    pattern:
      /\b(?:requires?|needs?) (?:the )?([\w.-]+)(?: package| library)? to be installed\b|[Pp]lease (?:try to )?(?:update|upgrade) the version of ([\w.-]+)|\b([\w.-]+)(?: backend| library| package)? (?:is|are) not (?:available|installed) or outdated\b|(?:Error|Exception): .*?(?:\brequires the ['"]([\w.-]+)['"] package\b|\brequires (?!-)([A-Za-z][A-Za-z\d.-]*) (?:≥|>=) ?\d|\b[Pp]lease use ([\w.-]+) version >= ?\d)/,
    samples: [
      'RuntimeError: Sparse Attention Indexer CUDA op requires DeepGEMM to be installed.',
      'RuntimeError: Format of weight in npu_grouped_matmul is FRACTAL_NZ, current CANN version do not support with this format. Please try to update the version of CANN.',
      'RuntimeError: DeepGEMM backend is not available or outdated.',
      "ValueError: --enable-http2 requires the 'granian' package. Install it with: pip install granian",
      "RuntimeError: --enable-metrics requires smg-grpc-servicer ≥ 0.5.3 (the version that accepts 'on_request_manager_ready')",
      'ValueError: Please use torchao version >= 0.15.0 to load torchao safetensors checkpoint',
    ],
    facts: (m) => ({ package: m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? '' }),
    summary: (f) =>
      `the start needs ${f.package ?? 'a package'} that is not installed here, or a newer release of it than the one installed`,
  },
  {
    id: 'import-error',
    class: 'dependency',
    weight: 98,
    needles: ['Error', 'No module named'],
    // Also `python -m` failing to find the module itself: `Error while finding module specification for 'x.y'
    // (ModuleNotFoundError: No module named 'x')`, and the message alone as a logger prints an exception at error level.
    pattern:
      /^(?:[\w.]+\.)?(?:ModuleNotFoundError: No module named '([^']+)'|ImportError: (.+)|PackageNotFoundError: (\S+))|(?:Error while finding module specification for )?'[\w.]+' \(ModuleNotFoundError: No module named '([^']+)'\)|^No module named '([^']+)'$/,
    facts: (m) => ({
      package: m[1] ?? m[3] ?? m[4] ?? m[5] ?? '',
      value: m[2] ?? '',
      ...(m[5] === undefined ? {} : { kind: 'message-alone' }),
    }),
    // Not an engine's own Python module without a name the engine's own code imports from it (`cannot import name
    // 'get_attention_cp_size' from 'sglang.srt.layers.dp_attention'` below a frame in sglang/): a bug of the release.
    // Nor the message alone for an engine's own module: engines print it as a notice where a source build lacks its
    // generated version file (`No module named 'vllm._version'`).
    holdsWhen: (f) =>
      !ownModuleOfEngine(/^cannot import name '\w+' from '([\w.]+)'/.exec(f.value ?? '')?.[1], f.frame) &&
      !(f.kind === 'message-alone' && engineOfFrame(`${(f.package ?? '').split('.')[0] ?? ''}/`) !== null),
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
      /(?:^|: )(?:command not found: ([\w.-]+)|([\w.-]+): command not found|failed to run command '([\w./-]+)': No such file or directory)|exec: "([\w./-]+)": executable file not found in \$PATH|^\s*(?:\/bin\/)?(?:da|a)?sh: (?:line )?\d+: ([\w./+-]+): not found$|\[Errno 2\] No such file or directory: '((?:[^'\s]*\/)?s?bin\/[\w.+-]+)'|^FileNotFoundError: \[Errno 2\] No such file or directory: '([A-Za-z][\w+-]*)'$/,
    samples: [
      'zsh: command not found: serve-model',
      'bash: line 1: model-launcher: command not found',
      // dash (Debian's /bin/sh, which build tools such as ninja run commands with)
      '  /bin/sh: 1: /usr/local/cuda/bin/nvcc: not found',
      "nohup: failed to run command 'serve-model': No such file or directory",
      'exec: "serve-model": executable file not found in $PATH: unknown',
      // a launcher starting the engine's executable by path (subprocess raising FileNotFoundError)
      "ERROR - Failed to run the server: [Errno 2] No such file or directory: '/opt/envs/serve/bin/serve-model'",
      // a program a kernel build runs, named bare (no path, no extension: not a file of the model's)
      "FileNotFoundError: [Errno 2] No such file or directory: 'ninja'",
    ],
    facts: (m) => ({ package: m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? m[7] ?? '' }),
    summary: (f) =>
      `the shell found no command '${f.package ?? ''}': it is not installed in this environment, or not on PATH`,
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
    // transformers' lazy import machinery asked for a backend (an optional package) its own mapping does not list: a
    // module written for another transformers release, or an optional package of another release, is installed.
    id: 'transformers-backend-mapping',
    class: 'dependency',
    weight: 90,
    needles: ['BACKENDS_MAPPING'],
    pattern: /Backend should be defined in the BACKENDS_MAPPING/,
    samples: [
      'ValueError: Backend should be defined in the BACKENDS_MAPPING. Offending backend: torchvision',
    ],
    facts: () => ({ package: 'transformers' }),
    summary: () =>
      'transformers was asked for an optional backend it does not know: transformers and a package that imports it (or one of its optional packages) are from releases that do not fit together',
  },
  {
    // One package calls another with an argument the installed release does not take (a serving wrapper passing a
    // newer engine option, an engine calling an older transformers): the two releases do not fit together.
    id: 'unexpected-keyword',
    class: 'dependency',
    weight: 90,
    // Also a call with more or fewer arguments than the installed release takes (a compiled kernel package older
    // than the engine that calls it: `moe_fused_gate() takes 5 positional arguments but 7 were given`), or with an
    // argument the release takes in another place (a platform plugin built for another engine release:
    // `get_attn_backend() got multiple values for argument 'use_mla'`).
    needles: ['unexpected keyword', 'positional argument', 'multiple values for argument'],
    pattern:
      /\b([\w.]+)\(\) got (?:an unexpected keyword|multiple values for) argument '(\w+)'|\b([\w.]+)\(\) takes (?:from \d+ to )?(\d+) positional arguments? but \d+ (?:were|was) given/,
    samples: [
      "TypeError: [address=0.0.0.0:37737, pid=1025864] AsyncEngineArgs.__init__() got an unexpected keyword argument 'limit_mm_per_prompt'",
      'TypeError: moe_fused_gate() takes 5 positional arguments but 7 were given',
      "TypeError: get_attn_backend() got multiple values for argument 'use_mla'",
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
];
