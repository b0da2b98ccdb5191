// TGI's own failure shapes (docs/engines/log-patterns.md): the launcher's clap argument errors, shard failures,
// warm-up out of memory, shards killed by a signal. Clap's messages are the launcher's parser's, not TGI's logger:
// they may follow a wrapper's words on the same line (a container entrypoint's, a page that joined the lines).
import type { Signature } from '../../diagnose/facts.ts';
import type { FrameContext } from '../types.ts';
import { explainSignal, signalName } from '../../diagnose/signals.ts';

export const TGI_SIGNATURES: readonly Signature[] = [
  {
    id: 'clap-unexpected-argument',
    class: 'unknown-flag',
    weight: 100,
    needles: ['unexpected argument'],
    pattern: /(?:^|\s)error: unexpected argument ['‘’"]([^'‘’"]+)['‘’"] found/,
    origin: 'dependency',
    samples: ["error: unexpected argument '--foo' found"],
    facts: (m) => ({ flag: m[1] ?? '' }),
    summary: (f) => `the launcher does not know the argument ${f.flag ?? ''} and stopped`,
  },
  {
    id: 'clap-invalid-value',
    class: 'invalid-value',
    weight: 100,
    needles: ['invalid value'],
    pattern: /(?:^|\s)error: invalid value '([^']*)' for '(-[^' <]+)[^']*'(?:: (.*))?/,
    origin: 'dependency',
    samples: ["error: invalid value 'int9' for '--quantize <QUANTIZE>'"],
    facts: (m) => ({ value: m[1] ?? '', flag: m[2] ?? '' }),
    summary: (f) => `the launcher rejected ${f.flag ?? 'an option'}'s value ${JSON.stringify(f.value ?? '')}`,
  },
  {
    id: 'clap-missing-value',
    class: 'invalid-value',
    weight: 99,
    needles: ['a value is required'],
    pattern: /(?:^|\s)error: a value is required for '(-[^' <]+)[^']*' but none was supplied/,
    origin: 'dependency',
    samples: ["error: a value is required for '--port <PORT>' but none was supplied"],
    facts: (m) => ({ flag: m[1] ?? '' }),
    summary: (f) => `the launcher needs a value after ${f.flag ?? 'an option'}`,
  },
  {
    id: 'tgi-warmup-oom',
    class: 'cuda-oom',
    weight: 93,
    needles: ['Not enough memory', 'warmup model'],
    pattern:
      /Not enough memory to handle (?:(\d+) prefill tokens|`max_total_tokens=(\d+)`)|Unable to warmup model: .*(?:out of memory|OutOfMemory)/i,
    samples: [
      'RuntimeError: Not enough memory to handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`',
    ],
    facts: (m) => ({ kind: 'warmup', value: m[1] ?? m[2] ?? '' }),
    summary: (f) => `the GPU ran out of memory while TGI warmed the model up (${f.value ?? ''} tokens)`,
  },
  {
    id: 'tgi-warmup-failed',
    class: 'warmup-failed',
    weight: 60,
    needles: ['Warmup encountered an error', 'Unable to warmup', ':warmup: ', '}:warmup{'],
    // The router's own warm-up span logs the shard's answer too: `warmup{…}:warmup: …: Server error: CANCELLED`
    // (0.9's router nests a second span, `warmup{…}:warmup{…}: …`, and panics `Unable to warmup model: …`).
    pattern:
      /Method Warmup encountered an error|Unable to warmup (?:the Python model shards|model): |^warmup\{[^}]*\}:warmup(?:\{[^}]*\})?: .*Server error: /,
    samples: [
      'Method Warmup encountered an error.',
      'Unable to warmup the Python model shards: boom',
      'warmup{max_input_length=4095 max_prefill_tokens=4145 max_total_tokens=4096 max_batch_size=None}:warmup: text_generation_router_v3::client: backends/v3/src/client/mod.rs:54: Server error: CANCELLED',
      "thread 'main' panicked at 'Unable to warmup model: Generation(\"Could not infer dtype of NoneType\")', router/src/main.rs:213:18",
    ],
    summary: () => "TGI's warm-up batch failed in a shard; the shard's traceback above names the cause",
  },
  {
    // A tensor dimension that the number of shards does not divide.
    id: 'tgi-shard-size',
    class: 'invalid-value',
    weight: 90,
    needles: ['compatible with sharding'],
    pattern: /The choosen size (\d+) is not compatible with sharding on (\d+) shards/,
    samples: ['AssertionError: The choosen size 65027 is not compatible with sharding on 4 shards'],
    facts: (m) => ({ flag: '--num-shard', value: m[2] ?? '', heads: m[1] ?? '' }),
    summary: (f) =>
      `the model has a dimension of ${f.heads ?? ''} that ${f.value ?? 'the'} shards cannot split evenly (--num-shard)`,
  },
  {
    // The launcher's own checks of its arguments. Rust's std prints `Error: <the error's Debug form>` when main
    // returns an error, so the line shape is Rust's; the catalogue holds logged strings, not that rendering.
    id: 'tgi-argument-validation',
    class: 'invalid-value',
    weight: 100,
    needles: ['ArgumentValidation'],
    pattern: /ArgumentValidation\("(.+)"\)/,
    origin: 'dependency',
    samples: ['Error: ArgumentValidation("`max_input_tokens`(65537) must be < `max_total_tokens`(65536)")'],
    facts: (m) => ({ value: (m[1] ?? '').replace(/\\"/g, '"') }),
    summary: (f) => `TGI's launcher rejected its arguments: ${f.value ?? ''}`,
  },
  {
    // A shard's check that its rank has a GPU of its own (`utils/dist.py`): more shards than the GPUs it sees.
    id: 'tgi-more-shards-than-gpus',
    class: 'invalid-value',
    weight: 90,
    needles: ['Each process is one gpu'],
    pattern: /Each process is one gpu/,
    samples: ['AssertionError: Each process is one gpu'],
    facts: () => ({ flag: '--num-shard' }),
    summary: () =>
      'TGI was asked for more shards than the GPUs the process sees (--num-shard against CUDA_VISIBLE_DEVICES)',
  },
  {
    id: 'tgi-sharding-unsupported',
    class: 'invalid-value',
    weight: 90,
    needles: ['not supported'],
    pattern:
      /(?:[Ss]harded|Sharding) is (?:currently )?not supported(?: for this model| with `?(\w+)`? quantization)?/,
    samples: ['NotImplementedError: sharded is not supported for this model'],
    facts: (m) => ({ flag: '--num-shard', value: m[1] ?? '' }),
    summary: () => 'this model cannot be sharded over several GPUs in TGI (--num-shard / --sharded)',
  },
  {
    id: 'tgi-flash-attention-required',
    class: 'dependency',
    weight: 90,
    needles: ['requires Flash Attention'],
    pattern: /Sharded (\w+) requires Flash Attention/,
    releases: { until: '2.0.0' },
    samples: ['NotImplementedError: Sharded Llama requires Flash Attention enabled models.'],
    facts: (m) => ({ package: 'flash-attn', arch: m[1] ?? '' }),
    summary: (f) =>
      `sharding ${f.arch ?? 'this model'} needs TGI's flash-attention kernels, which this image or GPU lacks`,
  },
  {
    id: 'tgi-weight-missing',
    class: 'weight-mismatch',
    weight: 95,
    needles: ['does not exist'],
    pattern: /weight ([\w.]+) does not exist/,
    samples: ['RuntimeError: weight model.layers.0.self_attn.q_proj.weight does not exist'],
    facts: (m) => ({ key: m[1] ?? '' }),
    summary: (f) => `the checkpoint has no tensor ${f.key ?? ''} that TGI's model class loads`,
  },
  {
    // The model folder or Hub repository holds no weights TGI can load (`No local weights found in /data/m with
    // extension .safetensors`).
    id: 'tgi-no-local-weights',
    class: 'model-not-found-or-auth',
    weight: 95,
    needles: ['No local weights found'],
    pattern: /No local weights found in (\S+) with extension (\S+)/,
    samples: ['FileNotFoundError: No local weights found in /data/models/m with extension .safetensors'],
    facts: (m) => ({ value: `${m[2] ?? ''} in ${m[1] ?? ''}` }),
    summary: (f) => `the model path holds no weights TGI can load (no ${f.value ?? 'weights'})`,
  },
  {
    // A model type the installed TGI has no class for (`Unsupported model type qwen4`): the checkpoint needs a newer
    // release.
    id: 'tgi-model-type-unsupported',
    class: 'weight-mismatch',
    weight: 95,
    needles: ['Unsupported model type'],
    pattern: /ValueError: Unsupported model type (\S+)/,
    samples: ['ValueError: Unsupported model type qwen4'],
    facts: (m) => ({ arch: m[1] ?? '', kind: 'arch' }),
    summary: (f) => `TGI has no model class for the checkpoint's model type ${f.arch ?? ''}`,
  },
  {
    // Settings the shard's Python side refuses: an unknown dtype, a speculation depth the speculator's heads do not
    // give, dtype and quantize together, more shards than devices (`not enough cuda devices: 2`).
    id: 'tgi-settings-refused',
    class: 'invalid-value',
    weight: 90,
    needles: [
      'Unknown dtype',
      'Unknown kv_cache_dtype',
      'Speculate is set to',
      'Only 1 can be set',
      'not enough cuda devices',
    ],
    pattern:
      /RuntimeError: (Unknown (?:kv_cache_)?dtype:? \S+|Speculate is set to `\d+` but this \w+ models only has `\d+` heads|Only 1 can be set between `dtype` and `quantize`)|\b(not enough cuda devices: \d+)/,
    samples: [
      'RuntimeError: Unknown dtype float7',
      'RuntimeError: Speculate is set to `4` but this medusa models only has `3` heads, please make them match',
      'RuntimeError: Only 1 can be set between `dtype` and `quantize`, as they both decide how goes the final model.',
    ],
    facts: (m) => ({ value: m[1] ?? m[2] ?? '' }),
    summary: (f) => `TGI's shard refused its settings: ${f.value ?? ''}`,
  },
  {
    id: 'tgi-download-failed',
    class: 'model-not-found-or-auth',
    // A wrapper: any error the download step printed (even a plain RuntimeError) says more than this line.
    weight: 19,
    needles: ['Download encountered an error'],
    pattern: /Download encountered an error/,
    samples: ['Download encountered an error: '],
    facts: () => ({ kind: 'not-found' }),
    summary: () =>
      "TGI's launcher could not download the model (the lines after it say why: a wrong id, no access or no network)",
  },
  {
    id: 'tgi-shard-signal',
    class: 'killed',
    weight: 45,
    needles: ['signal'],
    pattern:
      /Shard process was signaled to shutdown with signal (\d+)|Download process was signaled to shutdown with signal (\d+)/,
    samples: ['Shard process was signaled to shutdown with signal 9'],
    facts: (m) => ({ signal: Number(m[1] ?? m[2]) }),
    summary: (f, c) =>
      `a TGI shard was killed by ${f.signal === undefined ? 'a signal' : `${signalName(f.signal) ?? 'signal'} (signal ${f.signal})`}; ${explainSignal(f.signal ?? 0, c.phase)}`,
  },
  {
    id: 'tgi-webserver-failed',
    class: 'unknown',
    weight: 12,
    needles: ['WebServer', 'Webserver'],
    pattern: /WebServer error: (.*)|Webserver Crashed|Failed to start webserver: (.*)/,
    samples: ['Webserver Crashed'],
    facts: (m) => ({ value: m[1] ?? m[2] ?? '' }),
    summary: (f) =>
      `TGI's router (web server) failed${f.value === '' || f.value === undefined ? '' : `: ${f.value}`}`,
  },
  {
    // The router could not reach a shard's socket: the shard process is gone (its own output says why).
    id: 'tgi-shard-unreachable',
    class: 'unknown',
    weight: 11,
    // Printed for a request that failed; after the ready line that is a serving error, not a failed start.
    requestScoped: true,
    needles: ['error trying to connect'],
    pattern: /Server error: error trying to connect: ([^"\\]*)/,
    samples: ['Server error: error trying to connect: No such file or directory (os error 2)'],
    facts: (m) => ({ value: m[1] ?? '' }),
    summary: (f) =>
      `TGI's router could not reach a model shard (${f.value ?? 'no connection'}): the shard process has stopped; its own output names the cause`,
  },
  {
    id: 'tgi-shard-failed',
    class: 'unknown',
    weight: 10,
    endsStart: true,
    needles: ['failed to start', 'CannotStart', 'crashed', 'cannot start', 'ShardFailed'],
    // The launcher's exit error names the shard's failure too (`Error: ShardFailed`), where the lines above were cut.
    pattern:
      /Shard (\d+) (?:failed to start|crashed)|ShardCannotStart|Shard cannot start|^Error: ShardFailed$/,
    samples: ['Shard 0 failed to start', 'Shard 1 crashed'],
    facts: (m) => ({
      value: m[0].includes('crashed') ? 'crashed' : m[0].includes('Failed') ? 'failed' : 'failed to start',
    }),
    summary: (f) => `a TGI shard ${f.value ?? 'failed'}; the shard's own output above names the cause`,
  },
  {
    // The launcher's exit error when sharding asks for more GPUs than it can see (`Error: NotEnoughCUDADevices("`sharded`
    // is true but only found 1 CUDA devices")`, as Rust's runtime prints what main returned; TGI's forks print it too).
    id: 'tgi-not-enough-devices',
    class: 'invalid-value',
    weight: 95,
    origin: 'dependency',
    needles: ['NotEnoughCUDADevices'],
    pattern: /^Error: NotEnoughCUDADevices\("(.*)"\)$/,
    samples: ['Error: NotEnoughCUDADevices("`sharded` is true but only found 1 CUDA devices")'],
    facts: (m) => ({ value: (m[1] ?? '').replace(/`/g, ''), flag: '--num-shard' }),
    summary: (f) =>
      `the launcher was asked to shard the model over more GPUs than it can see (${f.value ?? ''}): lower --num-shard or make more GPUs visible`,
  },
  {
    // The launcher's exit error after its download step (weights, or merging a PEFT adapter) failed: the step's own
    // output above names the cause, where it was kept. Rust's runtime prints it (`Error: {:?}` of what main returned).
    id: 'tgi-download-error-exit',
    class: 'unknown',
    weight: 10,
    origin: 'dependency',
    needles: ['DownloadError'],
    pattern: /^Error: DownloadError$/,
    samples: ['Error: DownloadError'],
    summary: () =>
      "TGI's download step (the weights, or merging an adapter) failed; its own output above names the cause",
  },
  {
    // The launcher runs `text-generation-server` and `text-generation-router` from PATH: an install without them.
    id: 'tgi-binary-missing',
    class: 'dependency',
    weight: 100,
    needles: ['not found in PATH'],
    pattern: /(text-generation-(?:server|router)) not found in PATH/,
    samples: ['text-generation-server not found in PATH'],
    facts: (m) => ({ package: m[1] ?? '' }),
    summary: (f) =>
      `TGI's launcher could not find ${f.package ?? 'its server program'} on PATH: the install is incomplete`,
  },
];

// The shard's gRPC Warmup method, which runs the router's warm-up batch: an error below it with no class of its own
// (or a traceback cut before its error) is a failed warm-up.
export const TGI_FRAME_CONTEXTS: readonly FrameContext[] = [
  {
    class: 'warmup-failed',
    label: "TGI's warm-up batch failed",
    needle: 'text_generation_server/',
    pattern: /^File "[^"]*text_generation_server\/server\.py", line \d+,? in Warmup$/,
    samples: ['File "/usr/src/server/text_generation_server/server.py", line 142, in Warmup'],
  },
];
