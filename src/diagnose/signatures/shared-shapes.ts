// Failure signatures shared by every engine: weight-mismatch and invalid-value shapes several engines share.
import type { Signature } from '../facts.ts';

export const SHARED_SHAPE_SIGNATURES: readonly Signature[] = [
  // --- weight-mismatch / invalid-value shapes several engines share.
  {
    id: 'shape-assert',
    class: 'weight-mismatch',
    weight: 90,
    needles: ['!= ['],
    pattern: /AssertionError: \[(\d+(?:, ?\d+)*)\] != \[(\d+(?:, ?\d+)*)\]/,
    samples: ['AssertionError: [12582912, 1] != [6144, 4096]'],
    facts: (m) => ({ value: `[${m[1] ?? ''}] vs [${m[2] ?? ''}]` }),
    summary: (f) => `a weight's shape does not match what the model class expects (${f.value ?? ''})`,
  },
  {
    id: 'only-supports-but-got',
    class: 'invalid-value',
    weight: 60,
    needles: ['but got'],
    pattern: /\bonly supports? (.{1,100}?), but got ['"]?([\w.-]+)/,
    samples: [
      "ValueError: BitsAndBytes quantization and QLoRA adapter only support 'bitsandbytes' load format, but got auto",
    ],
    facts: (m) => ({ choices: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) =>
      `a setting has a value this combination does not accept: ${f.value ?? ''} (it accepts only ${f.choices ?? ''})`,
  },
  {
    // A setting's value the server names and refuses: `Attention backend 'sage_attn' is not supported by this
    // attention layer`, `Quantization method 'x' is not supported`.
    id: 'value-not-supported',
    class: 'invalid-value',
    weight: 55,
    needles: ['not supported'],
    pattern:
      /^(?:[\w.]+\.)?(?:ValueError|NotImplementedError): ((?:[\w-]+ ){1,4})'([^']{1,80})' is not supported\b(.*)$/,
    samples: ["ValueError: Attention backend 'sage_attn' is not supported by this attention layer;"],
    facts: (m) => ({ flag: (m[1] ?? '').trim(), value: m[2] ?? '' }),
    summary: (f) => `the server does not support ${f.flag ?? 'the setting'} '${f.value ?? ''}' here`,
  },
  {
    // A kernel library built without what the model needs (`This flash attention build does not support headdim not
    // being a multiple of 32.`): another build of it, or another attention backend.
    id: 'build-lacks-feature',
    class: 'dependency',
    weight: 60,
    needles: [' build does not support'],
    pattern: /\bThis ((?:[\w-]+ ){1,3})build does not support (.+?)\.?'?$/,
    samples: [
      "RuntimeError: Worker failed with error 'This flash attention build does not support headdim not being a multiple of 32.'",
    ],
    facts: (m) => ({ package: (m[1] ?? '').trim(), value: m[2] ?? '' }),
    summary: (f) =>
      `the installed ${f.package ?? 'kernel'} build does not support ${f.value ?? 'what the model needs'}: install a build that does, or choose another attention backend`,
  },
  {
    // Two features the server has not implemented together (`Vlm do not work with prefix caching yet`): a refused
    // combination of settings, fixed by turning one of them off.
    id: 'features-not-together',
    class: 'invalid-value',
    weight: 60,
    needles: ['NotImplementedError'],
    pattern:
      /NotImplementedError: (.+?) (?:do|does) not (?:yet )?work with (.+?)(?: yet)?\.?(?: rank=\d+)?$|NotImplementedError: (.+?) (?:is|are) not (?:yet )?supported (?:together with|in combination with|with|when using) (.+?)\.?(?: rank=\d+)?$/,
    samples: [
      'NotImplementedError: Vlm do not work with prefix caching yet rank=0',
      'NotImplementedError: LoRA is not yet supported with speculative decoding.',
    ],
    facts: (m) => ({ value: `${m[1] ?? m[3] ?? ''} with ${m[2] ?? m[4] ?? ''}` }),
    summary: (f) =>
      `the server has not implemented ${f.value ?? 'these settings together'}: turn one of them off`,
  },
  {
    // A port read from the environment that holds a URL: Kubernetes sets `<SERVICE>_PORT=tcp://10.0.0.1:8000` for each
    // Service, so a Service named after the engine overrides the engine's own `<ENGINE>_PORT` variable.
    id: 'port-env-url',
    class: 'invalid-value',
    weight: 90,
    needles: ['appears to be a URI', "base 10: 'tcp://"],
    pattern:
      /\b([A-Z][A-Z0-9_]*_PORT) '(tcp:\/\/[^']+)' appears to be a URI|invalid literal for int\(\) with base 10: '(tcp:\/\/[^']+)'/,
    samples: [
      "ValueError: SERVE_PORT 'tcp://10.43.1.39:8000' appears to be a URI. This may be caused by a Kubernetes service discovery issue",
      "ValueError: invalid literal for int() with base 10: 'tcp://10.43.1.39:8000'",
    ],
    facts: (m) => ({ flag: m[1] ?? '', value: m[2] ?? m[3] ?? '' }),
    summary: (f) =>
      `a port setting${f.flag === '' || f.flag === undefined ? '' : ` (${f.flag})`} holds the URL ${f.value ?? ''}: Kubernetes sets <SERVICE>_PORT=tcp://… for every Service, so a Service named like the engine overrides its port variable (rename the Service, or set enableServiceLinks: false)`,
  },
  {
    // A device list that names GPUs by UUID (`CUDA_VISIBLE_DEVICES=GPU-d0f4…`, as some schedulers and container
    // runtimes set it) read by code that takes indexes: `int('GPU-…')` fails. Relayed from a subprocess (vLLM's model
    // inspection), it is still the cause, so it outweighs the wrapper that relays it.
    id: 'gpu-uuid-as-index',
    class: 'invalid-value',
    weight: 101,
    needles: ["base 10: 'GPU-", "base 10: 'MIG-"],
    pattern: /invalid literal for int\(\) with base 10: '((?:GPU|MIG)-[0-9A-Fa-f][\w/-]*)'/,
    samples: [
      "ValueError: invalid literal for int() with base 10: 'GPU-d0f446cf-1771-414c-e116-a39138798a8c'",
    ],
    facts: (m) => ({ flag: 'CUDA_VISIBLE_DEVICES', value: m[1] ?? '' }),
    summary: (f) =>
      `the visible GPUs are given by UUID (${f.value ?? 'GPU-…'}) where the server reads indexes: set CUDA_VISIBLE_DEVICES to GPU indexes (0,1,…), as nvidia-smi numbers them`,
  },
  {
    // A rank that opened a GPU the process cannot see (`CUDA error: invalid device ordinal`, also HIP's; Ascend's
    // `Set device failed, invalid device, set device=1, valid device range is [0, 1)`): more ranks on this node than
    // visible devices, from the parallel sizes or a CUDA_VISIBLE_DEVICES that shows fewer.
    id: 'invalid-device-ordinal',
    class: 'invalid-value',
    weight: 60,
    needles: ['invalid device ordinal', 'valid device range'],
    pattern:
      /\b(?:CUDA|HIP|XPU) error: invalid device ordinal\b|\binvalid device, set device=\d+, valid device range is \[/,
    samples: [
      'torch.AcceleratorError: HIP error: invalid device ordinal',
      'RuntimeError: CUDA error: invalid device ordinal',
      'EE1001: [PID: 1817] 2025-07-01-22:45:30.528.819 The argument is invalid.Reason: Set device failed, invalid device, set device=1, valid device range is [0, 1)',
    ],
    facts: () => ({ kind: 'device-count' }),
    summary: () =>
      'a rank opened a device this host does not show (invalid device ordinal): the parallel sizes (tensor x pipeline x data parallel per node) ask for more GPUs than are visible, or CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES / ASCEND_RT_VISIBLE_DEVICES shows fewer',
  },
  {
    // A model or feature that needs another attention backend than the one chosen: `GptOssForCausalLM requires one of
    // [...] attention backend`, `Gemma4 only supports trtllm_mha, triton … attention backend`, `KV4 MHA expects
    // attention_backend to be one of …`, `… requires TritonAttnBackend.` (also bare, as a model's own message). Not a
    // notice that the engine falls back or switches on its own.
    id: 'attention-backend-required',
    class: 'invalid-value',
    weight: 55,
    needles: ['ttention backend', 'ttention_backend', 'AttnBackend', 'AttentionBackend'],
    pattern:
      /^(?!.*\b(?:[Ff]all(?:s|ing)? back|[Ss]witch(?:es|ing)? to|instead\b))(?:[\w.]+(?:Error|Exception): )?(.*(?:\b(?:requires?|only supports?|expects?|needs?)\b.{0,120}?(?:attention[_ ]backends?\b|\b\w+Attn(?:ention)?Backend\b)|attention[_ ]backends?\b.{0,80}?\bis required\b|\bSelected backend \S+ is not valid for this configuration\b|\bNo valid attention backend found\b|\bonly\b.{0,60}?attention[_ ]backends? (?:is|are) supported\b).*)$/,
    samples: [
      "AssertionError: GptOssForCausalLM requires one of ['triton', 'trtllm_mha'] attention backend, but got 'fa3'",
      'AssertionError: Gemma4 only supports trtllm_mha, triton, or intel_xpu attention backend, got prefill=fa3, decode=fa3',
      'Bidirectional attention for image tokens requires TritonAttnBackend.',
      "AssertionError: KV4 MHA expects attention_backend to be one of ['fa3'], but got triton",
      "AssertionError: One of the attention backends in ['fa3', 'flashinfer'] is required for MLA models, but got triton",
      "ValueError: Currently only ['fa3', 'triton'] attention backends are supported for deterministic inference with DeepSeek models. But you're using flashinfer.",
      "ValueError: Selected backend AttentionBackendEnum.FLASHINFER is not valid for this configuration. Reason: ['attention sinks not supported']",
      'ValueError: No valid attention backend found for cuda with AttentionSelectorConfig(head_size=64, dtype=torch.bfloat16, kv_cache_dtype=fp8_ds_mla, block_size=64)',
    ],
    facts: (m) => ({ kind: 'attention-backend', value: m[1] ?? '' }),
    summary: (f) => `the attention backend in use does not fit: ${f.value ?? ''}`,
  },
  {
    // A setting whose value this release does not know: `Unknown quantization method: gptq`, `Unknown RoPE scaling
    // type extended`. Weaker than every specific shape.
    id: 'unknown-setting-value',
    class: 'invalid-value',
    weight: 30,
    needles: ['Error'],
    pattern:
      /^(?:[\w.]+\.)?ValueError: Unknown ([\w -]{2,40}?(?: type| method| format| mode)):? '?([\w.-]+)'?(.*)$/,
    samples: [
      "ValueError: Unknown quantization method: gptq. Must be one of ['awq', 'squeezellm'].",
      'ValueError: Unknown RoPE scaling type extended',
    ],
    facts: (m) => ({ flag: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) =>
      `this release does not know the ${f.flag ?? 'setting'} '${f.value ?? ''}' (a newer release may, or the value is misspelt)`,
  },
  {
    // A ValueError that states a requirement on a setting (`X must be ...`, `must encode to exactly one token`):
    // the server's own check of its configuration. Weaker than every specific shape.
    id: 'value-requirement',
    class: 'invalid-value',
    weight: 25,
    needles: ['Error'],
    pattern: /^(?:[\w.]+\.)?ValueError: (.*\bmust (?:be|encode|have|match|divide|not exceed)\b.*)$/,
    samples: [
      "ValueError: think_end_token '</think>' must encode to exactly one token for constrained reasoning.",
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) => `the server rejected its configuration: ${f.value ?? ''}`,
  },
  {
    // transformers refuses a model whose code lives in its repository unless told to trust it.
    id: 'trust-remote-code',
    class: 'invalid-value',
    weight: 90,
    needles: ['trust_remote_code'],
    pattern:
      /requires you to execute the configuration file in that repo|set the option `trust_remote_code=True`/,
    samples: [
      'ValueError: Loading /models/phi-3 requires you to execute the configuration file in that repo on your local machine. Make sure you have read the code there to avoid malicious use, then set the option `trust_remote_code=True` to remove this error.',
    ],
    facts: () => ({ flag: '--trust-remote-code', kind: 'trust-remote-code' }),
    summary: () =>
      "the model's own code must run to load it, and the server was not told to trust it (--trust-remote-code)",
  },
  {
    // The repository exists but holds no weights in a format the server loads (a GGUF-only repository, say).
    id: 'hub-no-weights',
    class: 'model-not-found-or-auth',
    weight: 100,
    needles: ['weights found for model'],
    pattern: /(?:EntryNotFoundError|FileNotFoundError|Error): No (\.?\w+) weights found for model (\S+)/,
    samples: [
      'huggingface_hub.utils._errors.EntryNotFoundError: No .bin weights found for model Qwen/CodeQwen1.5-7B-Chat-GGUF and revision None.',
    ],
    facts: (m) => ({ model: m[2] ?? '', value: m[1] ?? '', kind: 'no-weights' }),
    summary: (f) =>
      `the model ${f.model ?? ''} has no ${f.value ?? ''} weights, nor any other format the server loads`,
  },
  {
    id: 'hub-repo-id',
    class: 'model-not-found-or-auth',
    weight: 100,
    needles: ['Repo id must'],
    pattern:
      /HFValidationError: Repo id must (?:use alphanumeric chars|be in the form)[^:]*?(?:: '([^']*)')?/,
    samples: [
      "huggingface_hub.errors.HFValidationError: Repo id must use alphanumeric chars or '-', '_', '.'",
    ],
    facts: (m) => ({ model: m[1] ?? '', kind: 'not-found' }),
    summary: () =>
      'the model name is neither an existing local folder nor a valid Hugging Face Hub id (a local path that does not exist is read as a Hub id)',
  },
];
