// What the simulated model claims to be, guessed from its path the way a user would read it.

export interface ModelInfo {
  architecture: string;
  modelType: string;
}

const FAMILIES: [RegExp, ModelInfo][] = [
  [/qwen3/i, { architecture: 'Qwen3ForCausalLM', modelType: 'qwen3' }],
  [/qwen/i, { architecture: 'Qwen2ForCausalLM', modelType: 'qwen2' }],
  [/deepseek/i, { architecture: 'DeepseekV3ForCausalLM', modelType: 'deepseek_v3' }],
  [/mixtral/i, { architecture: 'MixtralForCausalLM', modelType: 'mixtral' }],
  [/mistral/i, { architecture: 'MistralForCausalLM', modelType: 'mistral' }],
  [/gemma/i, { architecture: 'Gemma3ForCausalLM', modelType: 'gemma3_text' }],
  [/grok/i, { architecture: 'Grok1ForCausalLM', modelType: 'grok-1' }],
];

// The architecture the engine would report for a model path (Llama when nothing matches).
export const guessModelInfo = (modelPath: string): ModelInfo =>
  FAMILIES.find(([pattern]) => pattern.test(modelPath))?.[1] ?? {
    architecture: 'LlamaForCausalLM',
    modelType: 'llama',
  };

// SGLang's EAGLE-3 draft class (docs/engines/facts.md).
export const EAGLE3_DRAFT_ARCHITECTURE = 'LlamaForCausalLMEagle3';
