// TGI's own failure shapes (docs/engines/log-patterns.md): the launcher's clap argument errors, shard failures,
// warm-up out of memory, shards killed by a signal. Clap's messages are the launcher's parser's, not TGI's logger.
import type { Signature } from '../../diagnose/facts.ts';
import { explainSignal, signalName } from '../../diagnose/signals.ts';

export const TGI_SIGNATURES: readonly Signature[] = [
  {
    id: 'clap-unexpected-argument',
    class: 'unknown-flag',
    weight: 100,
    needles: ['unexpected argument'],
    pattern: /^error: unexpected argument '([^']+)' found/,
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
    pattern: /^error: invalid value '([^']*)' for '(-[^' <]+)[^']*'(?:: (.*))?/,
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
    pattern: /^error: a value is required for '(-[^' <]+)[^']*' but none was supplied/,
    origin: 'dependency',
    samples: ["error: a value is required for '--port <PORT>' but none was supplied"],
    facts: (m) => ({ flag: m[1] ?? '' }),
    summary: (f) => `the launcher needs a value after ${f.flag ?? 'an option'}`,
  },
  {
    id: 'tgi-warmup-oom',
    class: 'cuda-oom',
    weight: 93,
    needles: ['Not enough memory'],
    pattern: /Not enough memory to handle (?:(\d+) prefill tokens|`max_total_tokens=(\d+)`)/,
    samples: [
      'RuntimeError: Not enough memory to handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`',
    ],
    facts: (m) => ({ kind: 'warmup', value: m[1] ?? m[2] ?? '' }),
    summary: (f) => `the GPU ran out of memory while TGI warmed the model up (${f.value ?? ''} tokens)`,
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
    id: 'tgi-shard-failed',
    class: 'unknown',
    weight: 10,
    needles: ['failed to start', 'CannotStart', 'crashed', 'cannot start'],
    pattern: /Shard (\d+) (?:failed to start|crashed)|ShardCannotStart|Shard cannot start/,
    samples: ['Shard 0 failed to start', 'Shard 1 crashed'],
    summary: () => "a TGI shard failed to start; the shard's own output above names the cause",
  },
];
