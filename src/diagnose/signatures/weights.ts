// Failure signatures shared by every engine: checkpoints that do not fit the class that loads them.
import type { Signature } from '../facts.ts';

export const WEIGHT_SIGNATURES: readonly Signature[] = [
  // --- weight-mismatch.
  {
    // A model class that serves only some versions of a model family's checkpoints (`Currently, MiniCPMV only supports
    // versions 2.0, 2.5, and 2.6`): the checkpoint is of a newer version than the installed release knows.
    id: 'model-version-unsupported',
    class: 'weight-mismatch',
    weight: 92,
    needles: ['rror'],
    pattern: /rror: (?:Currently,? )?(\w+) only supports versions? (\d[\w.]*(?:(?:,| and| or)+ ?\d[\w.]*)*)/,
    samples: ['ValueError: Currently, MiniCPMV only supports versions 2.0, 2.5, and 2.6'],
    facts: (m) => ({ arch: m[1] ?? '', value: m[2] ?? '', kind: 'arch' }),
    summary: (f) =>
      `the model class ${f.arch ?? ''} serves only versions ${f.value ?? ''} of its checkpoints: this checkpoint is another version (a newer release may serve it)`,
  },
  {
    id: 'param-keyerror',
    class: 'weight-mismatch',
    weight: 100,
    needles: ['Error'],
    // A doubled dot (`fc1..bias`, a name built from an empty part) is still a parameter name.
    // A key cut off by the paste (no closing quote at the end of the line) is still a parameter's name.
    pattern: /^(?:[\w.]+\.)?KeyError: ['"]((?:[\w-]+\.+)+[\w-]+)(?:['"]|$)/,
    // Not a layer an engine's config looks up among the model's modules (vLLM's `forward_context[layer_name]` in
    // vllm/config/vllm.py): that is the model class naming its own layers apart, not the checkpoint.
    holdsWhen: (f) => !/\/configs?\//.test(f.frame ?? ''),
    facts: (m) => ({ key: m[1] ?? '' }),
    summary: (f) =>
      `the checkpoint has a weight named '${f.key ?? ''}' that the model class${f.frame === undefined || f.frame === '' ? '' : ` (${f.frame})`} does not know: the checkpoint's key layout does not match the class that loads it`,
  },
  {
    // A KeyError logged through str(): only the quoted key is left (vLLM's V0 engine logs exceptions this way).
    id: 'param-key-alone',
    class: 'weight-mismatch',
    weight: 97,
    needles: ["weight'", "bias'", "scale'", "scales'", "absmax'", "qzeros'", "g_idx'"],
    pattern: /^'((?:[\w-]+\.+)+(?:\w*weight|\w*bias|\w*scales?|absmax|qzeros|g_idx))'$/,
    samples: ["'layers.0.mlp.down_proj.weight.absmax'"],
    facts: (m) => ({ key: m[1] ?? '' }),
    summary: (f) =>
      `the model class has no parameter named '${f.key ?? ''}' that the checkpoint holds: the checkpoint's key layout (or quantization format) does not match the class that loads it`,
  },
  {
    // A loader's own count of the weights the model needs and the checkpoint lacks (`load_weights failed because some
    // weights are missing: {'model.layers.5.pre_moe_norm.weight', …}`), in any package's wording.
    id: 'weights-missing',
    class: 'weight-mismatch',
    weight: 90,
    needles: [
      'weights are missing',
      'weights were missing',
      'missing weights',
      'tensors are missing',
      'missing tensors',
    ],
    pattern: /\b(?:weights|tensors) (?:are|were) missing\b|\bmissing (?:weights|tensors)\b(?! will)/,
    samples: [
      "ValueError: load_weights failed because some weights are missing: missing_exclude_scales={'model.layers.5.pre_moe_norm.weight'}",
    ],
    summary: () =>
      'the checkpoint lacks weights the model class needs: its key layout does not match the class that loads it',
  },
  {
    // A quantised checkpoint whose scale layout the layer's kernel does not take (`For FP8 Fused MoE layers, only
    // per-tensor scales for weights and activations are supported. Found … strategy='channel' …`): the checkpoint's
    // quantisation scheme does not fit the class that loads it.
    id: 'quant-scale-layout',
    class: 'weight-mismatch',
    weight: 90,
    needles: ['only per-'],
    pattern:
      /\bonly per-(?:tensor|channel|token|group|block)\b[\w\s-]*\b(?:scales?|quantization)\b.*\bsupported\b/,
    samples: [
      "ValueError: For FP8 Fused MoE layers, only per-tensor scales for weights and activations are supported. Found num_bits=8 type='float' strategy='channel'",
    ],
    summary: () =>
      "the checkpoint's quantisation scales are laid out in a way this layer's kernel does not take: the checkpoint's quantisation scheme does not fit the class that loads it",
  },
  {
    // torch's narrow() while a loader cuts a tensor into per-rank slices: the tensor's size does not fit the split.
    id: 'weight-slice-out-of-range',
    class: 'weight-mismatch',
    weight: 90,
    needles: ['exceeds dimension size'],
    pattern: /start \((\d+)\) \+ length \((\d+)\) exceeds dimension size \((\d+)\)/,
    samples: ['RuntimeError: start (6) + length (6) exceeds dimension size (6).'],
    facts: (m) => ({ value: m[3] ?? '' }),
    summary: (f) =>
      `a weight of size ${f.value ?? ''} could not be cut into the slices the tensor-parallel ranks load: the checkpoint does not fit this split (another --tp-size, or a checkpoint made for it)`,
  },
  {
    // A weight loader's own check that a tensor has the shape it expects: the line that raised, or its message
    // (vLLM's linear layers join `… of size X` and `to a parameter …` without a space; SGLang's default loader says
    // `Attempted to load weight (torch.Size([…])) into parameter (torch.Size([…]))`).
    id: 'weight-shape-assert',
    class: 'weight-mismatch',
    weight: 90,
    needles: ['assert', 'Tried to load weights', 'Attempted to load weight'],
    pattern:
      /^\s*assert .*\b(?:loaded_weight|weight|param)\w*\.(?:shape|size\(\))|Tried to load weights of size .*to a parameter of size|Attempted to load weight \(torch\.Size\(.*\)\) into parameter \(torch\.Size\(/,
    samples: [
      '    assert loaded_weight.shape[output_dim] == self.org_vocab_size',
      'AssertionError: Tried to load weights of size torch.Size([2048, 10240])to a parameter of size torch.Size([2048, 4096])',
      'AssertionError: Attempted to load weight (torch.Size([1696, 6144])) into parameter (torch.Size([1856, 6144]))',
    ],
    summary: () =>
      "a checkpoint tensor does not have the shape the model class expects (the loader's shape check failed)",
  },
  {
    // A loader that maps checkpoint names onto the model's modules found no module of that name.
    id: 'no-module-or-parameter',
    class: 'weight-mismatch',
    weight: 96,
    needles: ['no module or parameter'],
    pattern: /There is no module or parameter named '([^']+)' in (\w+)/,
    samples: ["ValueError: There is no module or parameter named 'embed_tokens' in CustomQwen3ForCausalLM"],
    facts: (m) => ({ key: m[1] ?? '', arch: m[2] ?? '' }),
    summary: (f) =>
      `the checkpoint has '${f.key ?? ''}', which the model class ${f.arch ?? ''} does not have: the checkpoint's layout does not match the class that loads it`,
  },
  {
    // The checkpoint's config.json was read as another config class than the model class needs (a quantizer that
    // rewrote it as a text-only model: `qwen3_5_text` for a multimodal class).
    id: 'hf-config-type',
    class: 'weight-mismatch',
    weight: 95,
    needles: ['Invalid type of HuggingFace config'],
    pattern:
      /Invalid type of HuggingFace config\. Expected type: <class '(?:[\w.]+\.)?(\w+)'>, but found type: <class '(?:[\w.]+\.)?(\w+)'>/,
    samples: [
      "TypeError: Invalid type of HuggingFace config. Expected type: <class 'serve.configs.qwen3_5.Qwen3_5Config'>, but found type: <class 'transformers.models.qwen3_5.configuration_qwen3_5.Qwen3_5TextConfig'>",
    ],
    facts: (m) => ({ arch: m[1] ?? '', value: m[2] ?? '' }),
    summary: (f) =>
      `the checkpoint's config.json reads as ${f.value ?? ''}, but the model class needs ${f.arch ?? ''}: the config does not fit the model it names (a converter or quantizer may have rewritten it)`,
  },
  {
    // A LoRA adapter that holds a weight the server cannot apply as LoRA (an adapter trained with lm_head or
    // embeddings as target modules): the adapter does not fit what the server loads.
    id: 'lora-weight-unsupported',
    class: 'weight-mismatch',
    weight: 95,
    needles: ['unsupported LoRA weight'],
    pattern: /(?<!\S)(\S+) is unsupported LoRA weight/,
    samples: ['ValueError: base_model.model.lm_head.weight is unsupported LoRA weight'],
    facts: (m) => ({ key: m[1] ?? '' }),
    summary: (f) =>
      `the LoRA adapter holds ${f.key ?? 'a weight'}, which the server cannot apply as LoRA: save the adapter without those target modules (or merge it into the model)`,
  },
  {
    // A LoRA adapter the server loads at start that lacks a tensor the server looks up for a target module
    // (`Failed to load LoRA adapter my-lora: 'base_model.model.model.layers.0.self_attn.v_proj.lora_A.weight'`, a
    // KeyError's text: the adapter was trained on fewer modules than the server applies it to).
    id: 'lora-adapter-key-missing',
    class: 'weight-mismatch',
    weight: 95,
    needles: ['Failed to load LoRA adapter'],
    pattern: /Failed to load LoRA adapter (\S+): '([\w.]+\.(?:weight|bias))'$/,
    samples: [
      "RuntimeError: Failed to load LoRA adapter my-lora-adapter: 'base_model.model.model.layers.0.self_attn.v_proj.lora_A.weight'",
    ],
    facts: (m) => ({ key: m[2] ?? '', value: m[1] ?? '' }),
    summary: (f) =>
      `the LoRA adapter ${f.value ?? ''} has no ${f.key ?? 'tensor'}, which the server looks up for a module it applies LoRA to: load it with the target modules it was trained on (or retrain it on those the server uses)`,
  },
  {
    // A checkpoint file that is not a whole safetensors file: a download cut short, a git-lfs pointer in its place, or
    // a file damaged on disk. safetensors names the part of the header it could not read.
    id: 'safetensors-header',
    class: 'weight-mismatch',
    weight: 95,
    needles: ['deserializing header'],
    pattern: /Error while deserializing header: (\w+)/,
    samples: [
      'safetensors_rust.SafetensorError: Error while deserializing header: InvalidHeaderDeserialization',
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `a checkpoint file is not a readable safetensors file (${f.value ?? ''}): a download cut short, a git-lfs pointer instead of the weights, or a damaged file; download it again`,
  },
  {
    // The model's config, as transformers reads it, lacks a setting the server reads at the top level
    // (`'Qwen2_5OmniConfig' object has no attribute 'hidden_size'`): a layout this release does not support, such as a
    // multimodal checkpoint whose text settings sit in a sub-config. Not the server's own config objects.
    id: 'model-config-attribute',
    class: 'weight-mismatch',
    weight: 90,
    needles: ['Config'],
    pattern: /AttributeError: '(\w+Config)' object has no attribute '(\w+)'/,
    holdsWhen: (f) => /^transformers\/configuration_utils\.py/.test(f.frame ?? ''),
    samples: ["AttributeError: 'Qwen2_5OmniConfig' object has no attribute 'hidden_size'"],
    facts: (m) => ({ arch: m[1] ?? '', key: m[2] ?? '' }),
    summary: (f) =>
      `the model's config (${f.arch ?? ''}) has no ${f.key ?? ''}, which the server reads: this release does not support the checkpoint's config layout (use a release that supports the architecture)`,
  },
  {
    id: 'state-dict-load',
    class: 'weight-mismatch',
    weight: 99,
    needles: ['Error(s) in loading state_dict'],
    pattern: /Error\(s\) in loading state_dict for (\w+)/,
    facts: (m) => ({ arch: m[1] ?? '' }),
    summary: (f) => `the checkpoint's weight names or shapes do not match the model class ${f.arch ?? ''}`,
  },
  {
    id: 'arch-unsupported',
    class: 'weight-mismatch',
    weight: 95,
    needles: ['not supported', 'implementation', 'Unsupported architecture'],
    // A release that dropped the class names the last release that had it (`was supported in vLLM until v0.10.2`).
    // Also the wording for a class the engine has no code for and cannot borrow from transformers
    // (`X has no <engine> implementation and the Transformers implementation is not compatible …`), and early SGLang's
    // `Unsupported architectures: Phi3ForCausalLM. Supported list: […]` (also cut after the names), and a checkpoint
    // format's own (`GGUF model with architecture olmo2 is not supported yet`).
    pattern:
      /Model architectures? \[([^\]]*)\] (?:are|is) not supported|\b([A-Z]\w*) has no \w+ implementation and\b|\bUnsupported architectures?: ([\w, ]+?)(?:\. Supported list\b|\.?$)|\bModel architecture \[?'?(\w+)'?\]? was supported in \w+ until \S+, and is not supported anymore|\b(?:GGUF )?model with architecture (\w+) is not supported\b/,
    samples: [
      "ValueError: Model architectures ['Glm4ForCausalLM'] are not supported for now.",
      'ValueError: Qwen2_5OmniForConditionalGeneration has no native implementation and the Transformers implementation is not compatible.',
      "ValueError: Unsupported architectures: Phi3ForCausalLM. Supported list: ['CohereForCausalLM', 'LlamaForCausalLM']",
      'Unsupported architectures: LlamaModel',
      'ValueError: Model architecture MPTForCausalLM was supported in Serve until v0.10.2, and is not supported anymore.',
      // a checkpoint format's own list of architectures (GGUF's)
      'ValueError: GGUF model with architecture olmo2 is not supported yet',
    ],
    facts: (m) => ({ arch: (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '').replace(/'/g, ''), kind: 'arch' }),
    summary: (f) => `the server has no model class for the checkpoint's architecture ${f.arch ?? ''}`,
  },
];
