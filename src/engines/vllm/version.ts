// The vLLM release a help text or a log names.

// vLLM links its versioned docs in --help (`docs.vllm.ai/en/v0.19.1/`).
export const versionFromVllmHelp = (text: string): string | null =>
  /docs\.vllm\.ai\/en\/v(\d+\.\d+\.\d+(?:\.post\d+)?)\//.exec(text)?.[1] ?? null;

// `vLLM API server version 0.8.5` (≤ 0.14), `vLLM server version 0.15.0, serving model m` (≥ 0.15),
// `Initializing a V1 LLM engine (v0.19.1) with config: ...`.
export const vllmVersionFromLog = (text: string): string | null =>
  /vLLM (?:API )?server version v?(\d+\.\d+\.\d+(?:\.post\d+|rc\d+)?)|LLM engine \(v(\d+\.\d+\.\d+(?:\.post\d+)?)/
    .exec(text)
    ?.slice(1)
    .find((group: string | undefined) => group !== undefined) ?? null;
