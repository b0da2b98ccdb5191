// Failure signatures shared by every engine, argparse and the engines' own checks of settings: unknown options and
// refused values.
import type { Signature } from '../facts.ts';

export const SETTINGS_SIGNATURES: readonly Signature[] = [
  // --- unknown-flag / invalid-value: argparse exits before any GPU work.
  {
    id: 'argparse-unrecognized',
    class: 'unknown-flag',
    weight: 100,
    needles: ['error: unrecognized arguments'],
    pattern: /(?:^|\s)([\w./-]+): error: unrecognized arguments: (.+)$|error: unrecognized arguments: (.+)$/,
    facts: (m) => ({ prog: m[1] ?? '', flag: (m[2] ?? m[3] ?? '').trim() }),
    summary: (f) =>
      `${f.prog === '' || f.prog === undefined ? 'the server' : f.prog} rejected unknown arguments: ${f.flag ?? ''}`,
  },
  {
    id: 'argparse-ambiguous',
    class: 'unknown-flag',
    weight: 100,
    needles: ['error: ambiguous option'],
    pattern: /error: ambiguous option: (\S+)/,
    facts: (m) => ({ flag: m[1] ?? '' }),
    summary: (f) => `the server rejected the abbreviated option ${f.flag ?? ''} (ambiguous)`,
  },
  {
    id: 'argparse-invalid-choice',
    class: 'invalid-value',
    weight: 100,
    needles: ['error: argument'],
    pattern: /error: argument ([-\w/]+): invalid choice: '([^']*)' \(choose from (.+)\)/,
    facts: (m) => ({ flag: m[1]?.split('/')[0] ?? '', value: m[2] ?? '', choices: m[3] ?? '' }),
    summary: (f) => `${f.flag ?? ''} does not accept '${f.value ?? ''}' (it accepts ${f.choices ?? ''})`,
  },
  {
    // A registry of named plugins refusing a name (vLLM's tool and reasoning parsers, as a KeyError).
    id: 'invalid-named-choice',
    class: 'invalid-value',
    weight: 96,
    needles: ['se from'],
    pattern: /\binvalid ([a-z][\w -]{2,40}): '?([^\s'(]+)'? \(cho(?:o)?se from (.+?)\)?'?$/,
    samples: ["KeyError: 'invalid tool call parser: openai (chose from { deepseek_v3, glm45, hermes })'"],
    facts: (m) => ({
      key: m[1] ?? '',
      // Its option is the name spelled as a flag: `tool call parser` → --tool-call-parser.
      flag: `--${(m[1] ?? '').trim().replace(/ /g, '-')}`,
      value: m[2] ?? '',
      choices: (m[3] ?? '').replace(/[{}]/g, '').trim(),
    }),
    summary: (f) =>
      `${f.value ?? ''} is not a valid ${f.key ?? 'choice'} (${f.flag ?? ''}); the choices are: ${f.choices ?? ''}`,
  },
  {
    id: 'argparse-invalid-value',
    class: 'invalid-value',
    weight: 99,
    needles: ['error: argument'],
    pattern: /error: argument ([-\w/]+): (.+)$/,
    facts: (m) => ({ flag: m[1]?.split('/')[0] ?? '', value: m[2] ?? '' }),
    summary: (f) => `the server rejected the value of ${f.flag ?? ''}: ${f.value ?? ''}`,
  },
  {
    id: 'argparse-required',
    class: 'unknown-flag',
    weight: 99,
    needles: ['error: the following arguments are required'],
    pattern: /error: the following arguments are required: (.+)$/,
    facts: (m) => ({ flag: m[1] ?? '' }),
    summary: (f) => `the server needs arguments that were not given: ${f.flag ?? ''}`,
  },
  {
    id: 'tp-heads',
    class: 'invalid-value',
    weight: 100,
    needles: ['must be divisible by'],
    pattern: /Total number of attention heads \((\d+)\) must be divisible by tensor parallel size \((\d+)\)/,
    facts: (m) => ({ heads: m[1] ?? '', tp: m[2] ?? '', kind: 'tp-heads' }),
    summary: (f) =>
      `tensor parallel size ${f.tp ?? ''} does not divide the model's ${f.heads ?? ''} attention heads`,
  },
  {
    // An assert that a model dimension splits evenly across the tensor-parallel ranks, shown by the source line above a
    // bare `AssertionError` (`assert self.total_num_kv_heads % tp_size == 0`).
    id: 'tp-divides-assert',
    class: 'invalid-value',
    weight: 97,
    needles: ['assert'],
    pattern:
      /^\s*assert (?:self\.)?(\w+) % (?:self\.)?(?:tp_size|tp_world_size|tensor_parallel_size|tensor_model_parallel_size|world_size)\b/,
    samples: ['    assert self.total_num_kv_heads % tp_size == 0'],
    facts: (m) => ({ value: m[1] ?? '', flag: '--tensor-parallel-size' }),
    summary: (f) =>
      `the tensor-parallel size does not divide the model's ${f.value ?? 'dimension'}: choose a --tensor-parallel-size that divides it`,
  },
  {
    // An assert on the quantization method while the model's layers are built (`assert self.quant_method is not None`
    // in a fused MoE layer, `assert linear_method is None` in a model class without quantized layers): the
    // checkpoint's quantization cannot build this model.
    id: 'quant-method-assert',
    class: 'invalid-value',
    weight: 96,
    needles: ['assert'],
    pattern: /^\s*assert (?:self\.)?(quant_method|linear_method|quant_config)\b/,
    samples: ['    assert self.quant_method is not None', '    assert linear_method is None'],
    facts: (m) => ({ value: m[1] ?? '', flag: '--quantization' }),
    summary: () =>
      "the quantization method cannot build this model's layers (the model class, or its MoE layers, do not support it in this release)",
  },
  {
    id: 'divisible',
    class: 'invalid-value',
    weight: 98,
    needles: ['divisible by'],
    pattern: /(?<!\S)((?:[\w.]+=)?\S+ (?:must be|is not) divisible by .+)$/,
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `a size the settings give does not divide as the model or kernel needs: ${f.value ?? ''}`,
  },
  {
    // Ray's autoscaler, asked for resources (GPUs on a named node) that no node of the cluster has or could have: the
    // settings ask for more than the cluster holds, and the start waits for them in vain.
    id: 'ray-unschedulable',
    class: 'invalid-value',
    weight: 92,
    needles: ['can fulfill resource request'],
    pattern: /No available node types can fulfill resource request (\{[^}]*\})/,
    samples: [
      "(autoscaler +13s) Error: No available node types can fulfill resource request {'node:111.6.168.225': 0.001, 'GPU': 1.0}. Add suitable node types to this cluster to resolve this issue.",
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `Ray cannot place the resources the server asked for on any node of the cluster (${f.value ?? ''}): the settings (parallel sizes, the node's address) ask for more GPUs than the cluster has`,
  },
  {
    // pydantic's wrapper around a configuration check (`Value error, …`, and `Assertion failed, …` for an assert in
    // a validator, as a platform plugin's check raises): a specific shape inside it (an unsupported architecture, a
    // KV cache that does not fit) decides the class, so this applies only to lines nothing else matched.
    id: 'config-validation',
    class: 'invalid-value',
    weight: 97,
    fallback: true,
    needles: ['Value error, ', 'Assertion failed, '],
    pattern: /(?:Value error|Assertion failed), (.+?)(?: \[type=(?:value|assertion)_error.*)?$/,
    samples: [
      "  Value error, Invalid repository ID or local directory specified: 'm'. [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]",
      '  Assertion failed, Tensor parallelism is set when compiled in optimum-rbln. [type=assertion_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `the server's configuration check failed: ${f.value ?? ''}`,
  },
  {
    // A ValueError (or an assertion, as SGLang's server-argument checks raise) that names a command-line option, or
    // tells to set an environment variable the server reads: a check refused the settings
    // (`--data-parallel-multi-port-external-lb requires --data-parallel-size-local >= 2`, `… Set
    // VLLM_SSM_CONV_STATE_LAYOUT=DS`): only for lines nothing more specific matched.
    id: 'option-refused',
    class: 'invalid-value',
    weight: 59,
    fallback: true,
    needles: ['rror'],
    pattern:
      /^(?:[\w.]+\.)?(?:ValueError|ArgumentTypeError|ArgumentError|AssertionError|NotImplementedError|TypeError): (.*(?:(?<![\w-])--[a-z][\w-]+|\b[Ss]et (?:the )?(?:environment variable |env )?`?[A-Z][A-Z0-9]*_[A-Z0-9_]+=|\b[Gg]ot [a-z][a-z0-9]*(?:_[a-z0-9]+)+=\S|\b[Ee]nv(?:ironment)? var(?:iable)?,? `?[A-Z_][A-Z0-9_]+`?,? is not permitted\b).*)$/,
    samples: [
      'ValueError: Error: --data-parallel-multi-port-external-lb requires --data-parallel-size-local >= 2',
      'ValueError: Cannot set --encoder-only and --disaggregation-mode prefill/decode together',
      'AssertionError: Elastic EP scale-up requires --pp-size 1 (got pp_size=2); WORLD must not span PP stages.',
      'ArgumentTypeError: --cuda-graph-config must be a JSON object, got list',
      // a setting given by an environment variable, named the same way
      'AssertionError: 3-read Mamba conv transfer requires DS conv state layout. Set VLLM_SSM_CONV_STATE_LAYOUT=DS',
      // a setting named by its field, with the value given
      "AssertionError: Only {'trtllm_mha', 'triton', 'fa4'} backends are supported on Blackwell GPUs for hybrid GDN models. Got attention_backend=flashinfer.",
      // an environment variable the runtime keeps for itself (Ray's runtime environment)
      'AssertionError: The env var, __RAY_WORKER_PROCESS_SETUP_HOOK_ENV_VAR, is not permitted because it is reserved for the internal use.',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `the server refused its settings: ${f.value ?? ''}`,
  },
  {
    // An error that says a package is missing and asks for it (`please check if the opp_kernel package is installed`,
    // `Please install vllm by pip install …`), or a compiled extension the build lacks (`X requires the CUDA flash
    // attention extensions`): only for lines nothing more specific matched.
    id: 'install-hint',
    class: 'dependency',
    weight: 62,
    fallback: true,
    needles: ['rror', 'xcepti'],
    pattern:
      /^(?:[\w.]+\.)?\w*(?:Error|Exception): (.*(?:\b(?:is|are) not installed\b|must be installed|[Pp]lease (?:install|upgrade|reinstall)\b|check (?:if|whether) (?:the )?[\w.-]+ (?:package )?is installed|\bpip install\b|[Ee]nsure .{0,80}\b(?:is|are) installed|check (?:the |your )?[\w.-]+ installation|\bor (?:higher|newer) is required|\bis required, but found\b|\b(?:Install|Upgrade) (?:an? )?[\w.-]+ (?:build|version|package|or )|\brequires the (?:[\w.-]+ ){1,6}extensions?\b).*)$/,
    samples: [
      'RuntimeError: call aclnnSwiGlu failed, detail:EZ1001: Get path and read binary_info_config.json failed, please check if the opp_kernel package is installed!',
      'ValueError: awq quantization requires some operators from fast-kernels. Please install fast-kernels by `pip install fast-kernels==0.9.0`',
      'RuntimeError: nvidia-smi not found. Ensure NVIDIA drivers are installed and accessible.',
      'AssertionError: NCCL version 2.27.3 or higher is required for NCCL symmetric memory',
      'ValueError: Ray version 2.40 is required, but found 2.9.3',
      // a compiled extension the installed build lacks, relayed by the process that waited for it
      "RuntimeError: Worker failed with error 'flash_attn_interface requires the CUDA flash attention extensions (_fa2_C or _fa3_C).', please check the stack trace above for the root cause",
    ],
    facts: (m) => {
      const named =
        /check (?:if|whether) (?:the )?([\w.-]+) (?:package )?is installed|[Pp]lease (?:install|upgrade|reinstall) `?([\w.-]+)|([\w.-]+) (?:is|are) not installed|pip install (?:-U )?`?([\w.-]+)/.exec(
          m[1] ?? '',
        );
      const name = named?.slice(1).find(Boolean) ?? '';
      return { value: m[1] ?? '', ...(name === '' ? {} : { package: name.replace(/[=<>].*$/, '') }) };
    },
    summary: (f) => `a package the server needs is missing or too old: ${f.value ?? ''}`,
  },
  {
    // Two packages released together (a library and its prebuilt kernels) installed at different versions: an
    // import-time check refuses them, sometimes with no exception type in the log (FlashInfer and flashinfer-cubin).
    id: 'package-version-mismatch',
    class: 'dependency',
    weight: 96,
    needles: ['does not match'],
    pattern:
      /\b([\w.-]+) version \(?v?([\w.+-]+?)\)? does not match (?:the )?([\w.-]+) version \(?v?([\w.+-]+?)\)?[.,;]?(?:\s|$)/,
    samples: [
      'flashinfer-cubin version (0.6.13) does not match flashinfer version (0.6.14). Please install the same version of both packages.',
    ],
    facts: (m) => ({
      package: m[1] ?? '',
      value: `${m[1] ?? ''} ${m[2] ?? ''} with ${m[3] ?? ''} ${m[4] ?? ''}`,
    }),
    summary: (f) =>
      `two packages that must be the same release are not: ${f.value ?? ''}; install matching versions`,
  },
  {
    // A check that finds too little memory for what the settings ask, worded freely by each release (`Not enough GPU
    // memory for hybrid … state cache`, `Out of memory. Please set a smaller number for --max-running-requests`, a
    // hint to raise gpu_memory_utilization or --mem-fraction-static): only for lines nothing more specific matched.
    id: 'memory-check',
    class: 'cuda-oom',
    weight: 61,
    fallback: true,
    needles: ['rror', 'xcepti'],
    pattern:
      /^(?:[\w.]+\.)?\w*(?:Error|Exception): (.*(?:\b(?:[Nn]ot enough|[Ii]nsufficient|[Ll]ack of) (?:GPU |device |NPU |KV cache |free )?memory\b|\b[Oo]ut of memory\b|[Mm]emory pool size is too small|leaves no room for the|higher than the total available (?:device|GPU) memory|(?:[Ii]ncreas|[Rr]ais)(?:e|ing) `?(?:--)?(?:gpu[_-]memory[_-]utilization|mem[_-]fraction[_-]static)\b).*)$/,
    samples: [
      'RuntimeError: Out of memory. Please set a smaller number for `--max-running-requests`.',
      'RuntimeError: Not enough GPU memory for hybrid (mamba/linear-attention) state cache. Computed max_mamba_cache_size=0.',
      'ValueError: Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single token. Try increasing `gpu_memory_utilization`.',
      'AssertionError: Memory pool size is too small',
      // a device runtime's own word (Rebellions' NPU)
      'RuntimeError: SYS_EBUSY: Lack of device memory. (code: -16)',
    ],
    facts: (m) => ({ value: m[1] ?? '', kind: 'kv-cache' }),
    summary: (f) => `the server found too little GPU memory for its settings: ${f.value ?? ''}`,
  },
  {
    // A configuration check that refuses a combination of settings, worded freely by each release (`X is not
    // compatible with radix cache when …`, `torch.bfloat16 is not supported for quantization method awq`,
    // `quantization is not available on CPU`, `X models with TP is not supported`): only for lines nothing more specific matched.
    id: 'settings-incompatible',
    class: 'invalid-value',
    weight: 60,
    fallback: true,
    needles: ['ValueError', 'NotImplementedError', 'AssertionError'],
    pattern:
      /^(?:[\w.]+\.)?(?:ValueError|NotImplementedError|AssertionError): (.*\b(?:(?:is|are) not compatible with|(?:is|are) not supported (?:for|with|when|on|in|by)|(?:is|are) not available (?:on|for|with|when)|(?:is|are) only supported (?:for|with|on|when|by)|cannot be used (?:with|together|when)|(?:does not|doesn't|do not|cannot) (?:yet )?support\b|(?:is|are) (?:not yet|currently not) supported\b|\b(?:with|when using|together with|combined with) [^.;:]{1,60}? (?:is|are) not supported\b|(?:is|are) incompatible with|Cannot find the config file for|does not match the [^.]*\b(?:argument|option|flag|setting)|\w+ \(\d+\) must be (?:<=|>=|<|>|(?:less|greater|smaller|larger) than|at (?:least|most)|no (?:more|less) than) |\w+ \(\d+\) (?:is|are) (?:larger|greater|smaller|less|higher|lower) than \w+ \(\d+\)|Unsupported [\w ]+?(?: for [\w.]+)?: .*\. Expected |(?:caused by|due to) (?:a |an )?too (?:large|small|high|low) [a-z]|\b(?:is|are) enabled,? but\b).*)$/,
    samples: [
      'ValueError: torch.bfloat16 is not supported for quantization method awq. Supported dtypes: [torch.float16]',
      'ValueError: quantization is not available on CPU',
      'ValueError: Prequant BitsAndBytes models with TP is not supported.Please try with PP.',
      'ValueError: Cannot find the config file for awq',
      'ValueError: Trying to run tensor parallelization but the model does not support it yet!',
      'ValueError: The input size is not aligned with the quantized weight shape. This can be caused by too large tensor parallel size.',
      'AssertionError: In Mamba cache align mode, block_size (2096) must be <= max_num_batched_tokens (2048).',
      'ValueError: Unsupported mxfp4_backend for Mxfp4MoEMethod: Mxfp4MoeBackend.FLASHINFER_CUTLASS_MXFP4_MXFP8. Expected TRTLLM, Triton, AITER, or XPU backend.',
      'ValueError: Quantization method specified in the model config (compressed-tensors) does not match the quantization method specified in the `quantization` argument (awq).',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `the server refused a combination of settings: ${f.value ?? ''}`,
  },
  {
    // Triton refusing FP8 e4m3 on a GPU before compute capability 8.9 (Ampere and older): the checkpoint's or the
    // kernel's number format needs a newer GPU, as bfloat16 does before 8.0.
    id: 'fp8-unsupported-gpu',
    class: 'invalid-value',
    weight: 93,
    needles: ['in this architecture'],
    pattern: /\b[Tt]ype (fp8\w+) not supported in this architecture/,
    samples: [
      "ValueError(\"type fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e5')\")",
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `this GPU cannot run ${f.value ?? 'this FP8'} kernels (FP8 e4m3 needs compute capability 8.9 or newer): use a checkpoint or quantization without FP8`,
  },
  {
    // No kernel for a quantized layer runs on this GPU (each candidate names the compute capability it needs): the
    // checkpoint's number format needs a newer GPU, like FP8 above. Also a quantization scheme's own check (`Min
    // capability: 80. Current capability: 75.`, as vLLM 0.9's V0 engine logs an error's arguments: a tuple of strings).
    id: 'kernel-capability',
    class: 'invalid-value',
    weight: 93,
    needles: ['Failed to find a kernel', 'requires capability', 'Min capability'],
    pattern:
      /Failed to find a kernel that can implement the ([\w ]+?) linear layer|requires capability (\d+), current (\d+)|Min capability: (\d+)\.[', ]*Current capability: (\d+)/,
    samples: [
      'ValueError: Failed to find a kernel that can implement the WNA16 linear layer. Reasons: ',
      'MacheteLinearKernel requires capability 90, current 89',
      "ERROR 07-02 03:13:11 [engine.py:458] ('Quantization scheme is not supported for ', 'the current GPU. Min capability: 80. ', 'Current capability: 75.')",
    ],
    facts: (m) => ({
      value: m[1] ?? `compute capability ${m[2] ?? m[4] ?? ''} (this GPU: ${m[3] ?? m[5] ?? ''})`,
    }),
    summary: (f) =>
      `no kernel for the checkpoint's quantized layers runs on this GPU (${f.value ?? ''}): use a checkpoint or quantization this GPU supports`,
  },
  {
    // FlashAttention's own check: its kernels need an Ampere GPU or newer, so an attention backend that uses it cannot
    // run here (choose another, or a GPU of compute capability 8.0 or more).
    id: 'flash-attention-capability',
    class: 'invalid-value',
    weight: 93,
    needles: ['only supports Ampere'],
    pattern: /FlashAttention only supports Ampere GPUs or newer/,
    samples: ['RuntimeError: FlashAttention only supports Ampere GPUs or newer.'],
    facts: () => ({ value: 'FlashAttention (compute capability 8.0 or newer)' }),
    summary: () =>
      'this GPU is older than Ampere, and FlashAttention runs only on Ampere or newer: choose another attention backend',
  },
  {
    id: 'bf16-capability',
    class: 'invalid-value',
    weight: 100,
    needles: ['Bfloat16 is only supported'],
    pattern: /Bfloat16 is only supported on GPUs with compute capability of at least ([\d.]+)/,
    facts: () => ({ flag: '--dtype', value: 'bfloat16', choices: 'half (float16)', kind: 'dtype' }),
    summary: () =>
      'this GPU cannot run bfloat16 (compute capability too low): the model needs another dtype here',
  },
  {
    // More ranks on this node than it has GPUs (vLLM from 0.15: `World size (8) is larger than the number of available
    // GPUs (4) in this node.`; a TPU backend's device mesh: `Insufficient devices for 2D mesh: found 1, expected 8`):
    // the parallel sizes do not fit the host.
    id: 'world-size-exceeds-gpus',
    class: 'invalid-value',
    weight: 90,
    needles: ['larger than the number of available', 'nsufficient devices'],
    pattern:
      /\bWorld size \((\d+)\) is larger than the number of available (?:GPUs|devices) \((\d+)\)|\bInsufficient devices\b[^:]{0,60}: found (\d+),? expected (\d+)/,
    samples: [
      'ValueError: World size (8) is larger than the number of available GPUs (4) in this node. If this is intentional and you are using:',
      'ValueError: Insufficient devices for 2D mesh: found 1, expected 8 for mesh shape (1, 8).',
    ],
    facts: (m) => ({ value: `${m[1] ?? m[4] ?? ''} ranks, ${m[2] ?? m[3] ?? ''} GPUs` }),
    summary: (f) =>
      `the parallel sizes ask for more GPUs than this node has (${f.value ?? ''}): lower the tensor/pipeline/data-parallel sizes or make more GPUs visible`,
  },
  {
    // Ray refusing a placement group's bundle index outside the group (`placement group bundle index 6 is invalid. Valid
    // placement group indexes: 0-4`): the settings ask for a bundle (a GPU) the group does not have. An index inside
    // the range it names is refused for another reason, which the message does not give.
    id: 'ray-bundle-index',
    class: 'invalid-value',
    weight: 90,
    needles: ['bundle index'],
    pattern: /placement group bundle index (-?\d+) is invalid\. Valid placement group indexes: (\d+)-(\d+)/,
    samples: ['ValueError: placement group bundle index 6 is invalid. Valid placement group indexes: 0-4'],
    facts: (m) => {
      const index = Number(m[1]);
      const outside = index < Number(m[2]) || index > Number(m[3]);
      return {
        value: `${m[1] ?? ''} (the group holds ${m[2] ?? ''}-${m[3] ?? ''})`,
        kind: outside ? 'outside' : 'inside',
      };
    },
    holdsWhen: (f) => f.kind === 'outside',
    summary: (f) =>
      `Ray's placement group has no bundle ${f.value ?? ''}: the settings (bundle indices, parallel sizes) ask for more GPUs than the group reserved`,
  },
  {
    // A setting's value outside the list the check names (`Unrecognized distributed executor backend x. Supported
    // values are 'ray', 'mp' …`, `Invalid value for VLLM_USE_RAY_COMPILED_DAG_CHANNEL_TYPE: x. Valid values are: …`,
    // `Unknown attention backend: 'ASCEND'. Valid options are: FLASH_ATTN, …`).
    id: 'value-not-listed',
    class: 'invalid-value',
    weight: 58,
    needles: ['alues are', 'ptions are', 'hoices are'],
    pattern:
      /(?:Error|Exception): (.*?\b(?:[Ss]upported|[Vv]alid|[Aa]llowed) (?:values|options|choices) are:? .+)$/,
    samples: [
      "ValueError: Invalid value for VLLM_USE_RAY_COMPILED_DAG_CHANNEL_TYPE: x. Valid values are: 'auto', 'nccl', or 'shm'.",
      "ValueError: Unknown attention backend: 'ASCEND'. Valid options are: FLASH_ATTN, TRITON_ATTN, XFORMERS",
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `a setting's value is not one the server accepts: ${f.value ?? ''}`,
  },
  {
    // A device runtime refusing the number of devices the start spreads over (AWS Neuron's `Unsupported topology.
    // Supported number of Neuron Cores is 1, 2, 8, 16 or a multiple of 32.`): the parallel size does not fit.
    id: 'device-count-unsupported',
    class: 'invalid-value',
    weight: 90,
    needles: ['Unsupported topology'],
    pattern: /\bUnsupported topology\. (Supported number of [\w ]+? is [^.]+)\./,
    samples: [
      'ERROR   NRT:nrt_load_collectives                    Unsupported topology. Supported number of Neuron Cores is 1, 2, 8, 16 or a multiple of 32.',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `the device runtime does not support spreading the model over this many devices (${f.value ?? ''}): choose a parallel size it supports`,
  },
];
