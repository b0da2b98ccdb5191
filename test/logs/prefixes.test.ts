import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LEVEL_LITERALS, mayBeOnlyPrefixes, stripPrefixes } from '../../src/logs/prefixes.ts';
import { FIXTURE_DIR, readLines } from '../diagnose/fixture-logs.ts';

describe('stripPrefixes', () => {
  it.each([
    // Outer wrappers (docs/engines/log-patterns.md).
    ['vllm-1  | ERROR 11-18 18:07:28 engine.py:366] ValueError: boom', 'ValueError: boom', null, 'error'],
    [
      '(APIServer pid=7) INFO 08-19 00:16:07 [entrypoints/launcher.py:46] Route: /v1/models, Methods: GET',
      'Route: /v1/models, Methods: GET',
      null,
      'info',
    ],
    [
      "E1115 02:58:51.162611 1 backend_model.cc:634] ERROR: Failed to create instance: TypeError: 'NoneType'",
      "Failed to create instance: TypeError: 'NoneType'",
      null,
      'error',
    ],
    [
      '[text-generation-inference] | 2024-10-15T18:56:33.864143Z  INFO text_generation_router::server: router/src/server.rs:2353: Connected',
      'Connected',
      null,
      'info',
    ],
    [
      'deepseek-v32-exp  | [2025-10-04 02:29:36 DP7 TP7] Scheduler hit an exception:',
      'Scheduler hit an exception:',
      7,
      null,
    ],
    [
      '2025-02-04 21:29:17 [2025-02-04 05:29:17 TP0] Load weight end. type=Qwen2ForCausalLM',
      'Load weight end. type=Qwen2ForCausalLM',
      0,
      null,
    ],
    [
      '2025-04-29 22:14:28.456 | ValueError: Invalid repository ID',
      'ValueError: Invalid repository ID',
      null,
      null,
    ],
    [
      '2024-04-27 10:13:05 | ERROR | stderr | Traceback (most recent call last):',
      'Traceback (most recent call last):',
      null,
      'error',
    ],
    [
      '[2025-01-01T10:00:00Z] INFO 04-27 10:13:05 llm_engine.py:275] # GPU blocks: 0',
      '# GPU blocks: 0',
      null,
      'info',
    ],
    ['2024-03-06T17:53:22.335714Z Killed', 'Killed', null, null],
    [
      '2025-03-07 23:50:27,531 - __main__ - INFO - [2025-03-07 23:50:27 TP0] Init torch distributed begin.',
      'Init torch distributed begin.',
      0,
      'info',
    ],
    [
      '2024-01-01T00:00:00,000 [INFO ] W-9000-model_1.0-stdout MODEL_LOG - INFO 01-01 00:00:00 [core.py:1] x',
      'x',
      null,
      'info',
    ],
    ['STDERR: INFO:     Application startup complete.', 'Application startup complete.', null, 'info'],
    // Engine prefixes.
    ['[2025-09-11 10:25:43 TP3] KV Cache is allocated.', 'KV Cache is allocated.', 3, null],
    ['[2026-05-22 23:27:33 DP2 TP2 EP2] Scheduler watchdog timeout', 'Scheduler watchdog timeout', 2, null],
    ['[23:17:01 TP7] Load weight end.', 'Load weight end.', 7, null],
    ['[12-16 14:27:10] Exit code: -9', 'Exit code: -9', null, null],
    [
      '[2026-03-03 23:22:54] INFO server_args.py:1974: Attention backend not specified.',
      'Attention backend not specified.',
      null,
      'info',
    ],
    [
      '[2025-09-11 10:26:01] INFO:     Uvicorn running on http://0.0.0.0:30000',
      'Uvicorn running on http://0.0.0.0:30000',
      null,
      'info',
    ],
    [
      '(EngineCore_DP0 pid=441) INFO 11-24 11:44:17 [gpu_worker.py:348] Available KV cache memory: 33.31 GiB',
      'Available KV cache memory: 33.31 GiB',
      null,
      'info',
    ],
    [
      '(VllmWorker rank=3 pid=406) ERROR 07-23 19:34:51 [multiproc_executor.py:487] RuntimeError: NCCL error',
      'RuntimeError: NCCL error',
      3,
      'error',
    ],
    [
      '(EngineCore_0 pid=675221) (VllmWorker TP0 pid=675227) INFO 01-01 00:00:00 [a.py:1] hello',
      'hello',
      0,
      'info',
    ],
    ['(Worker_DP0_TP5_EP5 pid=9) WARNING 01-01 00:00:00 [a.py:1] careful', 'careful', 5, 'warning'],
    // A pod's or container's name before the process tag.
    ['kserve-container (EngineCore_0 pid=58) RuntimeError: x', 'RuntimeError: x', null, null],
    // Tags whose pid a log collector dropped.
    ['(APIServer) INFO:     Application startup complete.', 'Application startup complete.', null, 'info'],
    ['(Worker_TP2) WARNING 01-01 00:00:00 [a.py:1] careful', 'careful', 2, 'warning'],
    [
      'INFO 04-27 10:13:05 llm_engine.py:275] # GPU blocks: 0, # CPU blocks: 256',
      '# GPU blocks: 0, # CPU blocks: 256',
      null,
      'info',
    ],
    [
      '2024-03-06T17:53:31.052444Z ERROR shard-manager: text_generation_launcher: Shard process was signaled to shutdown with signal 4 rank=0',
      'Shard process was signaled to shutdown with signal 4 rank=0',
      null,
      'error',
    ],
    // A prefix a post shortened by hand.
    ['INFO ... [core.py:105] Initializing a V1 LLM engine', 'Initializing a V1 LLM engine', null, 'info'],
    ['INFO ... Application startup complete.', 'Application startup complete.', null, 'info'],
    // Another program on Rust's tracing: the target's module path goes with the prefix.
    [
      '2026-07-25T08:40:07.500821Z  INFO dynamo_llm::block_manager::distributed::worker: KVBM worker is under initialization.',
      'KVBM worker is under initialization.',
      null,
      'info',
    ],
    // Rust's tracing as a platform's log view shows it: the fraction cut, no zone.
    [
      '2024-08-11T08:35:46.64 INFO text_generation_router::server: router/src/server.rs:1889: Connected',
      'Connected',
      null,
      'info',
    ],
    // docker swarm: a service's task on its node.
    [
      "llm_tgi.1.ophf8tfzsxk4@e2e-100-17    | error: unexpected argument '--model-id x' found",
      "error: unexpected argument '--model-id x' found",
      null,
      null,
    ],
    // The systemd journal, its month in English or in the host's language.
    [
      'Aug 18 14:15:04 gpu-1 python3[27876]: (APIServer pid=27876) INFO 08-18 14:15:04 [api_server.py:592] Supported tasks: x',
      'Supported tasks: x',
      null,
      'info',
    ],
    ['авг  8 14:15:04 llm vllm[1]: ValueError: boom', 'ValueError: boom', null, null],
    [
      '[rank3]:[E421 04:13:43.426633564 ProcessGroupGloo.cpp:143] Rank 3 successfully reached monitoredBarrier',
      'Rank 3 successfully reached monitoredBarrier',
      3,
      'error',
    ],
    [
      '[2026-05-18 04:08:32.871874][UC][W] Compiling model again due to a load failure [6212,6632][backends.py:9,load]',
      'Compiling model again due to a load failure [6212,6632][backends.py:9,load]',
      null,
      'warning',
    ],
    ['[2026-05-18 04:08:54.911161][UC][E] Worker proc died', 'Worker proc died', null, 'error'],
    [
      '2025-06-06 17:54:18,316 xinference.api.restful_api 15545 ERROR    Model launch failed',
      'Model launch failed',
      null,
      'error',
    ],
    // A quote marker, then the log's own indent, then its prefixes.
    [
      '>     2024-11-03T22:19:14.922964Z  INFO text_generation_router::server: router/src/server.rs:2354: Connected',
      'Connected',
      null,
      'info',
    ],
    [
      '(EngineCore pid=1) ERROR 01-01 00:00:00 [core.py:1]   File "/x.py", line 1, in f',
      '  File "/x.py", line 1, in f',
      null,
      'error',
    ],
  ] as const)('%s', (line, text, rank, level) => {
    expect(stripPrefixes(line)).toEqual({ text, rank, level });
  });

  it('leaves messages without a known prefix alone', () => {
    expect(stripPrefixes("KeyError: 'midlayer.self_attn.qkv_proj.weight'")).toEqual({
      text: "KeyError: 'midlayer.self_attn.qkv_proj.weight'",
      rank: null,
      level: null,
    });
    expect(stripPrefixes('  File "/x.py", line 1, in f').text).toBe('  File "/x.py", line 1, in f');
    expect(stripPrefixes('').text).toBe('');
    // A word before a process tag counts as a wrapper's name only when it is the only word.
    expect(stripPrefixes('Loaded in 3 s (EngineCore pid=1) x').text).toBe(
      'Loaded in 3 s (EngineCore pid=1) x',
    );
  });

  it('stays fast on hostile input (bounded rounds, anchored patterns)', () => {
    const long = `${'[2025-01-01 00:00:00 TP0] '.repeat(50)}${'x'.repeat(100_000)}`;
    const started = performance.now();
    const stripped = stripPrefixes(long);
    expect(stripped.text.endsWith('x')).toBe(true);
    // Generous bound: a catastrophic pattern would take seconds here.
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("an exception group's margin", () => {
  it('is stripped from its frames and errors, which keep their own indent', () => {
    expect(stripPrefixes('  |   File "/x/serving_chat.py", line 135, in create_chat_completion').text).toBe(
      '  File "/x/serving_chat.py", line 135, in create_chat_completion',
    );
    expect(stripPrefixes('    | AssertionError').text).toBe('AssertionError');
    expect(stripPrefixes('  + Exception Group Traceback (most recent call last):').text).toBe(
      'Exception Group Traceback (most recent call last):',
    );
    // Its separators are not lines of the log's own.
    expect(stripPrefixes('  +-+---------------- 1 ----------------').text).toBe(
      '  +-+---------------- 1 ----------------',
    );
  });
});

describe('prefix helpers for fast paths', () => {
  const fixtureLines = (): string[] =>
    readdirSync(FIXTURE_DIR)
      .filter((name) => name.endsWith('.log'))
      .flatMap((name) => readLines(name).map((line) => line.text));

  const PREFIX_ONLY = [
    '2025-03-07 23:50:27,531 - __main__ - INFO - ',
    '2025-04-29 22:14:28.456 | ',
    '2024-03-06T17:53:31.052444Z ERROR shard-manager: text_generation_launcher: ',
    '[2025-01-01T00:00:00Z]',
    '2025-01-01T00:00:00.123Z',
    '2025-01-01T00:00:00+0200',
    '2025-02-04 21:21:33',
    'vllm-1  | ',
    '[2025-09-11 10:25:43 TP0] ',
    '(EngineCore_DP0 pid=441) ',
    'INFO 11-24 11:44:17 [gpu_worker.py:348]',
    'INFO 04-27 10:13:05 llm_engine.py:275]',
    'INFO server_args.py:1974: ',
    'INFO:     ',
    '[rank3]:',
    '[rank3]:[E421 04:13:43.426633564 ProcessGroupGloo.cpp:143]',
    // a quote marker alone, as a paste quoted a blank line
    '      >',
  ];

  it('knows every bare wrapper line might be only prefixes', () => {
    for (const line of PREFIX_ONLY) {
      expect(stripPrefixes(line).text.trim(), line).toBe('');
      expect(mayBeOnlyPrefixes(line), line).toBe(true);
    }
  });

  it('knows a line that ends in a letter or most punctuation holds a message', () => {
    for (const line of [
      'INFO:     ready.',
      '[2025-09-11 10:25:43 TP0] done',
      'x)',
      'OK',
      '#all_names: 835, #missing: 0',
      'took 12 s',
      'list [a]',
      'label:',
      'a -> b >',
    ])
      expect(mayBeOnlyPrefixes(line), line).toBe(false);
  });

  it('never misses a fixture line that is only prefixes, nor a warning or error level', () => {
    let levelled = 0;
    for (const line of fixtureLines()) {
      const stripped = stripPrefixes(line);
      if (stripped.text.trim() === '') expect(mayBeOnlyPrefixes(line), line).toBe(true);
      if (stripped.level === 'warning' || stripped.level === 'error') {
        levelled++;
        expect(
          LEVEL_LITERALS.some((literal) => line.includes(literal)),
          line,
        ).toBe(true);
      }
    }
    expect(levelled).toBeGreaterThan(20);
  });
});
