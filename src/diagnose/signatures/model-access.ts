// Failure signatures shared by every engine: the model cannot be found or read: Hugging Face Hub and local paths.
import type { Signature } from '../facts.ts';

export const MODEL_ACCESS_SIGNATURES: readonly Signature[] = [
  // --- model-not-found-or-auth (Hugging Face Hub and local paths).
  {
    // transformers finds no tokenizer class for the model's config (a config class of the model's own code): the
    // model folder lacks its tokenizer files (`tokenizer_config.json` names the class), or transformers predates it.
    id: 'no-tokenizer-for-config',
    class: 'model-not-found-or-auth',
    weight: 90,
    needles: ['Unrecognized configuration class'],
    pattern: /Unrecognized configuration class <class '([\w.-]+)'> to build an AutoTokenizer/,
    samples: [
      "ValueError: Unrecognized configuration class <class 'transformers_modules.DeepSeek-R1.configuration_deepseek.DeepseekV3Config'> to build an AutoTokenizer.",
    ],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `transformers found no tokenizer for the model's config (${f.value ?? ''}): the model folder lacks its tokenizer files (tokenizer_config.json), or transformers is older than the model`,
  },
  {
    id: 'invalid-repo',
    class: 'model-not-found-or-auth',
    weight: 100,
    needles: ['Invalid repository ID'],
    pattern: /Invalid repository ID or local directory specified: '([^']*)'/,
    facts: (m) => ({ model: m[1] ?? '' }),
    summary: (f) =>
      `the model '${f.model ?? ''}' could not be resolved: no local directory with a config, and the Hugging Face Hub did not provide one (typo, missing files, no network, or a gated repo)`,
  },
  {
    id: 'repo-id-path',
    class: 'model-not-found-or-auth',
    weight: 100,
    // huggingface_hub's other checks of an id: `Cannot have -- or .. in repo_id: 'a--b'`, `Repo id must use
    // alphanumeric chars …: 'x'` (a path that does not exist is checked as an id too).
    needles: ['Repo id must', 'in repo_id'],
    pattern:
      /(?:Repo id must (?:be in the form|use alphanumeric chars)|Cannot have -- or \.\. in repo_id|Cannot end with '\.git' in repo_id)\b.*?: '([^']*)'/,
    samples: [
      "huggingface_hub.errors.HFValidationError: Cannot have -- or .. in repo_id: 'alvarobartt--grok-2-tokenizer'.",
      "huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': '/models/x'. Use `repo_type` argument if needed.",
    ],
    facts: (m) => ({ model: m[1] ?? '', kind: (m[1] ?? '').startsWith('/') ? 'local-missing' : 'bad-id' }),
    summary: (f) =>
      f.kind === 'local-missing'
        ? `the local model directory ${f.model ?? ''} does not exist (so it was taken for a Hub repo id)`
        : `'${f.model ?? ''}' is not a valid Hugging Face repo id`,
  },
  {
    id: 'hub-auth',
    class: 'model-not-found-or-auth',
    weight: 100,
    needles: ['Error', 'xception', 'gated repo'],
    pattern:
      /GatedRepoError|Cannot access gated repo|(?:Error|Exception)\b.*(?:gated repo|is gated\b|40[13] Client Error|is restricted|authorized list)/,
    facts: (m) => ({
      model:
        /huggingface\.co\/([\w.-]+\/[\w.-]+)/.exec(m.input)?.[1] ??
        /model ([\w.-]+\/[\w.-]+)/.exec(m.input)?.[1] ??
        '',
      kind: 'auth',
    }),
    summary: (f) =>
      `the model ${f.model === '' || f.model === undefined ? '' : `${f.model} `}is gated or private on the Hugging Face Hub and the server had no token with access`,
  },
  {
    id: 'hub-not-found',
    class: 'model-not-found-or-auth',
    weight: 100,
    needles: ['Error', 'xception'],
    pattern:
      /(?:Error|Exception)\b.*(?:RepositoryNotFoundError|Repository Not Found|404 Client Error|couldn't connect to 'https:\/\/huggingface\.co'|is not a local folder and is not a valid model identifier|does not appear to have a file named (?:config|params)\.json|does not appear to have a file named [\w.-]+\.(?:py|json|model|txt|safetensors|bin)\b|not the path to a directory containing a file named config\.json)|^(?:[\w.]+\.)?(?:RepositoryNotFoundError|LocalEntryNotFoundError)\b|NotExistError: The model: \S+ has no revision|(?:Error|Exception)\b.*[Cc]ould not find (?:the )?model locally at \S+ and failed to download|(?:Error|Exception)\b.*HTTPSConnectionPool\(host='huggingface\.co', port=\d+\): Max retries exceeded with url: \/[\w.-]+\/[\w.-]+\/resolve\//,
    // The Hub unreachable for a file of the model (`requests.exceptions.SSLError: (MaxRetryError("HTTPSConnectionPool(
    // host='huggingface.co', port=443): Max retries exceeded with url: /org/m/resolve/main/config.json …`).
    samples: [
      "requests.exceptions.SSLError: (MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /TheBloke/Yi-34B-Chat-AWQ/resolve/main/config.json (Caused by SSLError(SSLEOFError(8, '[SSL: UNEXPECTED_EOF_WHILE_READING] EOF occurred in violation of protocol (_ssl.c:1007)')))\"), '(Request ID: 1)')",
      'ValueError: Could not find model locally at black-forest-labs/FLUX.1-dev and failed to download model_index.json/config.json from HF Hub: (MaxRetryError("HTTPSConnectionPool(host=\'huggingface.co\', port=443): Max retries exceeded"))',
    ],
    facts: (m) => ({
      model:
        (/'([\w./-]+)'/.exec(m.input) ??
          /[Tt]he model:? ([\w./-]+)/.exec(m.input) ??
          /model locally at (\S+)/.exec(m.input))?.[1] ?? '',
      kind: /couldn't connect|Max retries exceeded|SSLError|ConnectionError|Connection (?:refused|reset)/.test(
        m.input,
      )
        ? 'offline'
        : 'not-found',
    }),
    summary: (f) =>
      f.kind === 'offline'
        ? 'the Hugging Face Hub could not be reached and the model is not in the local cache'
        : `the model ${f.model === '' || f.model === undefined ? '' : `'${f.model}' `}was not found (neither a local directory nor a Hub repo)`,
  },
  {
    // The model path or repo has no config the server can read (no config.json or params.json): a wrong path, a gated
    // repo read without a token, or a repo id where a local folder was meant.
    id: 'no-config-format',
    class: 'model-not-found-or-auth',
    weight: 95,
    needles: ['No supported config format'],
    pattern: /No supported config format found in (\S+)/,
    samples: ['ValueError: No supported config format found in mistralai/Mistral-7B-v0.1'],
    facts: (m) => ({ model: m[1] ?? '', kind: 'not-found' }),
    summary: (f) =>
      `no config.json or params.json could be read for ${f.model ?? 'the model'}: check the path or repo id, and for a gated repo the Hugging Face token`,
  },
  {
    // Hugging Face's offline mode is on (HF_HUB_OFFLINE=1) and a file the server asked for is not in the cache.
    id: 'hub-offline',
    class: 'model-not-found-or-auth',
    weight: 90,
    needles: ['OfflineModeIsEnabled'],
    pattern: /OfflineModeIsEnabled: Cannot reach (\S+): offline mode is enabled/,
    samples: [
      'huggingface_hub.errors.OfflineModeIsEnabled: Cannot reach https://huggingface.co/org/m/resolve/main/config.json: offline mode is enabled. To disable it, please unset the `HF_HUB_OFFLINE` environment variable.',
    ],
    facts: (m) => ({ model: m[1] ?? '', kind: 'offline' }),
    summary: (f) =>
      `Hugging Face offline mode is on and ${f.model ?? 'a file'} is not in the local cache: download the model first, or unset HF_HUB_OFFLINE`,
  },
  {
    // transformers' word that a path or id holds no such file: `Can't load tokenizer for 'X'. If you were trying to
    // load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name.
    // Otherwise, make sure 'X' is the correct path to a directory containing all relevant files …`.
    id: 'hf-cannot-load',
    class: 'model-not-found-or-auth',
    weight: 99,
    // Also mistral-common's loader finding no tokenizer file in a directory (`No tokenizer file found in directory: X`).
    needles: ["Can't load", 'No tokenizer file found'],
    pattern:
      /Can't load (?:the )?(?:configuration of|tokenizer for|model for|feature extractor for|image processor for|processor for) '([^'{}]+)'\. If you were trying to load it from|No tokenizer file found in directory: (\S+)/,
    samples: [
      'ValueError: No tokenizer file found in directory: /hdd2/ltg/Qwen3-Omni-30B-A3B-Instruct',
      "OSError: Can't load tokenizer for '../Model/merged'. If you were trying to load it from 'https://huggingface.co/models', make sure you don't have a local directory with the same name. Otherwise, make sure '../Model/merged' is the correct path to a directory containing all relevant files for a LlamaTokenizerFast tokenizer.",
    ],
    facts: (m) => ({ model: m[1] ?? m[2] ?? '', kind: 'not-found' }),
    summary: (f) =>
      `'${f.model ?? ''}' holds no files the loader needs: a wrong path, an incomplete download, or a Hub id that does not exist`,
  },
  {
    id: 'model-file-missing',
    class: 'model-not-found-or-auth',
    weight: 100,
    needles: ['No such file or directory'],
    pattern:
      /No such file or directory: '([^']*(?:config\.json|params\.json|tokenizer[^'/]*|\.safetensors|\.bin))'/,
    facts: (m) => ({ model: m[1] ?? '', kind: 'not-found' }),
    summary: (f) => `a model file is missing: ${f.model ?? ''}`,
  },
];
