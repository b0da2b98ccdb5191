// Failure signatures shared by every engine: the model cannot be found or read: Hugging Face Hub and local paths.
import type { Signature } from '../facts.ts';

export const MODEL_ACCESS_SIGNATURES: readonly Signature[] = [
  // --- model-not-found-or-auth (Hugging Face Hub and local paths).
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
      /(?:Error|Exception)\b.*(?:RepositoryNotFoundError|Repository Not Found|404 Client Error|couldn't connect to 'https:\/\/huggingface\.co'|is not a local folder and is not a valid model identifier|does not appear to have a file named (?:config|params)\.json|not the path to a directory containing a file named config\.json)|^(?:[\w.]+\.)?(?:RepositoryNotFoundError|LocalEntryNotFoundError)\b|NotExistError: The model: \S+ has no revision|(?:Error|Exception)\b.*[Cc]ould not find (?:the )?model locally at \S+ and failed to download/,
    samples: [
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
];
