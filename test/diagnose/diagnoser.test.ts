import { describe, expect, it } from 'vitest';
import { createDiagnoser } from '../../src/diagnose/diagnoser.ts';
import type { Diagnosis } from '../../src/events.ts';
import type { RawLine } from '../../src/logs/types.ts';
import { readLines } from './fixture-logs.ts';

const diagnose = (
  lines: readonly RawLine[],
  engine: Parameters<typeof createDiagnoser>[0]['engine'] = 'auto',
  end = {},
): Diagnosis => {
  const diagnoser = createDiagnoser({ engine });
  for (const line of lines) diagnoser.push(line);
  return diagnoser.finish(end);
};

const numbered = (...texts: string[]): RawLine[] => texts.map((text, i) => ({ line: i + 1, text }));

describe('a fixture log', () => {
  it('quotes raw lines with ANSI removed and 1-based file line numbers', () => {
    // The fixture has no colour codes: every line gets some, as a terminal-minded logger writes them.
    const plain = readLines('vllm-cuda-oom-01.log');
    const coloured = plain.map((line) => ({ ...line, text: `\u001b[31m${line.text}\u001b[0m` }));
    const diagnosis = diagnose(coloured);
    expect(diagnosis.evidence.length).toBeGreaterThan(0);
    for (const evidence of diagnosis.evidence)
      expect(evidence.text).toBe(plain[(evidence.line ?? 0) - 1]?.text.trimEnd());
  });
});

describe('acceptance: the EAGLE-3 midlayer KeyError', () => {
  it('is a weight mismatch with the KeyError as evidence and advice on the midlayer layout', () => {
    const diagnosis = diagnose(readLines('sglang-weight-mismatch-01.log'), 'sglang');
    expect(diagnosis.class).toBe('weight-mismatch');
    expect(diagnosis.evidence).toContainEqual({
      line: 8,
      text: "KeyError: 'midlayer.self_attn.qkv_proj.weight'",
    });
    const advice = diagnosis.advice.join('\n');
    expect(advice).toContain('midlayer');
    expect(advice).toContain('layers.0');
    expect(advice).toContain('LlamaForCausalLMEagle3');
    expect(diagnosis.summary).toContain('sglang/srt/models/qwen3.py');
  });
});

describe('looking above the last line', () => {
  it("classifies SGLang's capture wrapper by the error it wraps", () => {
    const wrap = (cause: string) =>
      diagnose(
        numbered('Traceback (most recent call last):', `Exception: Capture cuda graph failed: ${cause}`),
        'sglang',
      ).class;
    expect(wrap('CUDA out of memory. Tried to allocate 2.00 GiB.')).toBe('cuda-oom');
    expect(wrap('[../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer')).toBe(
      'nccl',
    );
    expect(wrap('operation not permitted when stream is capturing')).toBe('graph-capture-failed');
  });

  it('prefers the root cause above a vLLM wrapper printed later', () => {
    const diagnosis = diagnose(
      numbered(
        '(EngineCore_DP0 pid=7) ERROR 10-25 13:08:43 [core.py:708] ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.',
        '(APIServer pid=5) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
      ),
    );
    expect(diagnosis.class).toBe('cuda-oom');
    expect(diagnosis.evidence[0]?.line).toBe(1);
    expect(diagnosis.advice.join(' ')).toContain('--gpu-memory-utilization');
  });

  it('reads an NCCL error whose last error is a failed calloc as out of memory', () => {
    const diagnosis = diagnose(readLines('sglang-nccl-02.log'), 'sglang');
    expect(diagnosis.class).toBe('cuda-oom');
    expect(diagnosis.advice.join(' ')).toContain('--mem-fraction-static');
  });

  it('counts a failure signature without a traceback', () => {
    expect(
      diagnose(
        numbered(
          '[2025-01-01 00:00:00 TP0] max_total_tokens=131072 is larger than the profiled value -561981. Use the profiled value instead.',
        ),
        'sglang',
      ).class,
    ).toBe('cuda-oom');
    expect(
      diagnose(numbered('INFO 04-27 10:13:05 llm_engine.py:275] # GPU blocks: 0, # CPU blocks: 256'), 'vllm')
        .class,
    ).toBe('cuda-oom');
  });

  it('prefers the first NCCL error over later secondary errors', () => {
    const diagnosis = diagnose(readLines('vllm-nccl-01.log'));
    expect(diagnosis.class).toBe('nccl');
    expect(diagnosis.summary).toContain('unhandled cuda error');
  });

  it('lets a real error line win over the source line that raises it', () => {
    const diagnosis = diagnose(readLines('sglang-nccl-01.log'));
    expect(diagnosis.summary).toBe('NCCL failed: unhandled system error');
  });
});

describe('signals', () => {
  const killedBy = (text: string) =>
    diagnose(numbered('[2025-01-01 00:00:00 TP0] Load weight begin. avail mem=70 GB', text), 'sglang');

  it('reads -N, 128+N and "signal N" and names the signal', () => {
    expect(killedBy('[12-16 14:27:10] Exit code: -9').summary).toContain('SIGKILL');
    expect(killedBy('exit code 137').summary).toContain('SIGKILL');
    const tgi = diagnose(readLines('tgi-killed-01.log'));
    expect(tgi.class).toBe('killed');
    expect(tgi.summary).toContain('SIGILL');
  });

  it('calls SIGKILL during weight loading the host OOM killer', () => {
    const diagnosis = killedBy('Killed');
    expect(diagnosis.class).toBe('killed');
    expect(diagnosis.summary).toContain('OOM killer');
    expect(diagnosis.advice.join(' ')).toContain('dmesg');
  });

  it('names SIGBUS and points at shared memory', () => {
    const diagnosis = killedBy('Bus error (core dumped)');
    expect(diagnosis.summary).toContain('SIGBUS');
    expect(diagnosis.advice.join(' ')).toContain('--shm-size');
  });

  it('names the signal behind each wording of a native crash', () => {
    const cases: [string, string][] = [
      ['Segmentation fault (core dumped)', 'SIGSEGV'],
      ['!!!!!!! Segfault encountered !!!!!!!', 'SIGSEGV'],
      ['Illegal instruction (core dumped)', 'SIGILL'],
      ['Aborted (core dumped)', 'SIGABRT'],
      ['Quit (core dumped)', 'SIGQUIT'],
      ['Floating point exception', 'SIGFPE'],
      ['*** SIGBUS received at time=1709393443 on cpu 1 ***', 'SIGBUS'],
    ];
    for (const [line, signal] of cases) {
      const diagnosis = killedBy(line);
      expect(diagnosis.class, line).toBe('killed');
      expect(diagnosis.summary, line).toContain(signal);
    }
  });

  it('uses the exit code from the watcher when the log has no error', () => {
    const lines = numbered('[2025-01-01 00:00:00 TP0] Load weight begin. avail mem=70 GB');
    const byCode = diagnose(lines, 'sglang', { exitCode: -9 });
    expect(byCode.class).toBe('killed');
    expect(byCode.summary).toContain('weight loading');
    expect(diagnose(lines, 'sglang', { signal: 'SIGBUS' }).summary).toContain('SIGBUS');
    expect(diagnose(lines, 'sglang', { exitCode: 1 }).class).toBe('unknown');
  });
});

describe('ready and hang', () => {
  it('ignores errors that the start recovered from before its ready line', () => {
    const lines = [
      ...numbered('ValueError: transient'),
      ...readLines('sglang-ready-01.log').map((l) => ({ ...l, line: l.line + 1 })),
    ];
    expect(diagnose(lines, 'sglang').class).toBe('ready');
  });

  it('reads a start that got through as ready, and tells a crash after it with its advice', () => {
    const lines = [
      ...readLines('sglang-ready-01.log'),
      { line: 68, text: 'RuntimeError: CUDA error: an illegal memory access was encountered' },
    ];
    const diagnosis = diagnose(lines, 'sglang');
    expect(diagnosis.class).toBe('ready');
    expect(diagnosis.summary).toMatch(/got through its start \(line \d+\).*; later .*illegal memory access/);
    expect(diagnosis.evidence.map((e) => e.line)).toContain(68);
    expect(diagnosis.advice.length).toBeGreaterThan(0);
  });

  it('names the phase a hang stopped in and the heartbeat it kept printing', () => {
    const diagnosis = diagnose(readLines('vllm-hang-01.log'), 'vllm');
    expect(diagnosis.class).toBe('hang');
    expect(diagnosis.summary).toContain('heartbeat');
    const capture = diagnose(readLines('sglang-hang-02.log'), 'sglang');
    expect(capture.summary).toContain('graph-capture');
    expect(capture.evidence.map((e) => e.line)).toContain(2);
  });

  it('names ranks that printed nothing when the tensor-parallel size is known', () => {
    const diagnosis = diagnose(
      numbered(
        "[2025-06-04 07:49:50] server_args=ServerArgs(model_path='m', tp_size=2)",
        '[2025-06-04 07:49:51 TP0] Init torch distributed begin.',
      ),
      'sglang',
    );
    expect(diagnosis.class).toBe('hang');
    expect(diagnosis.summary).toContain('TP1');
    expect(diagnosis.advice.join(' ')).toContain('NCCL_DEBUG=INFO');
  });

  it('uses the reason the watcher gives', () => {
    const lines = readLines('sglang-hang-01.log');
    expect(diagnose(lines, 'sglang', { reason: 'stalled' }).summary).toMatch(
      /^the start stalled in distributed init/,
    );
    expect(diagnose(lines, 'sglang', { reason: 'timeout', phase: 'weight-load' }).summary).toMatch(
      /timed out in weight loading/,
    );
  });
});

describe('advice names the engine in use', () => {
  it("uses SGLang's and vLLM's own flag names for the same class", () => {
    const sglang = diagnose(
      numbered('RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.'),
      'sglang',
    );
    expect(sglang.advice.join(' ')).toContain('--mem-fraction-static');
    const vllm = diagnose(numbered('ValueError: No available memory for the cache blocks.'), 'vllm');
    expect(vllm.advice.join(' ')).toContain('--gpu-memory-utilization');
    expect(vllm.advice.join(' ')).not.toContain('--mem-fraction-static');
  });

  it("maps vLLM's --num-speculative-tokens to SGLang's speculative flags", () => {
    const diagnosis = diagnose(
      numbered('launch_server.py: error: unrecognized arguments: --num-speculative-tokens 3'),
      'sglang',
    );
    expect(diagnosis.class).toBe('unknown-flag');
    expect(diagnosis.advice.join(' ')).toContain('--speculative-num-draft-tokens');
  });

  it('lists the tensor-parallel sizes that divide the head count', () => {
    const diagnosis = diagnose(readLines('vllm-invalid-value-01.log'), 'vllm');
    expect(diagnosis.advice.join(' ')).toContain('1, 2, 3, 4, 6, 12');
  });
});

describe('redaction', () => {
  it('passes evidence through the redactor', () => {
    const diagnoser = createDiagnoser({
      engine: 'sglang',
      redact: (text) => text.replaceAll('sk-secret-1234', '***'),
    });
    diagnoser.push({
      line: 1,
      text: "OSError: You are trying to access a gated repo. token='sk-secret-1234'",
    });
    const diagnosis = diagnoser.finish();
    expect(diagnosis.class).toBe('model-not-found-or-auth');
    expect(JSON.stringify(diagnosis)).not.toContain('sk-secret-1234');
  });
});

describe('shapes beyond the fixture logs', () => {
  it.each([
    [
      'ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0.',
      'invalid-value',
    ],
    [
      'ValueError: The checkpoint you are trying to load has model type `qwen3` but Transformers does not recognize this architecture.',
      'dependency',
    ],
    ['RuntimeError: CUDA error: no kernel image is available for execution on the device', 'dependency'],
    [
      "FileNotFoundError: [Errno 2] No such file or directory: '/models/llama/config.json'",
      'model-not-found-or-auth',
    ],
    ['torch.distributed.DistNetworkError: Connection reset by peer', 'nccl'],
    ['AssertionError: 14336 is not divisible by 3', 'invalid-value'],
    ['RuntimeError: Engine process failed to start. See stack trace for the root cause.', 'unknown'],
  ] as const)('%s', (line, cls) => {
    expect(diagnose(numbered(line), 'vllm').class).toBe(cls);
  });
});

describe('how far a hang got', () => {
  it('names the progress of the bar that stopped', () => {
    expect(diagnose(readLines('sglang-hang-02.log'), 'sglang').summary).toContain('graph-capture) at 0/34');
    expect(diagnose(readLines('sglang-other-03.log'), 'sglang').summary).toContain('weight-load) at 2/4');
  });
});

describe('port-in-use advice', () => {
  it.each(['sglang', 'vllm', 'tgi'] as const)(
    '%s: names the port when the log does, and never prints an empty one',
    (engine) => {
      const named = diagnose(
        numbered(
          "OSError: [Errno 98] error while attempting to bind on address ('0.0.0.0', 30123): address already in use",
        ),
        engine,
      );
      expect(named.class).toBe('port-in-use');
      expect(named.advice.join(' ')).toContain('30123');
      const unnamed = diagnose(numbered('RuntimeError: Address already in use'), engine);
      expect(unnamed.class).toBe('port-in-use');
      const advice = unnamed.advice.join(' ');
      expect(advice).toContain('the process holding the port');
      expect(advice).not.toMatch(/port {2}|grep :`/);
    },
  );
});

describe('a log appended to by several starts', () => {
  const start = (...failure: string[]): string[] => [
    "server_args=ServerArgs(model_path='m', tp_size=1, port=30000)",
    'Init torch distributed begin.',
    'Load weight begin. avail mem=78.50 GB',
    ...failure,
  ];

  it('explains the last start, not a failure of an earlier one', () => {
    const lines = numbered(
      ...start('OSError: [Errno 98] Address already in use'),
      ...start('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB'),
    );
    const diagnosis = diagnose(lines);
    expect(diagnosis.class).toBe('cuda-oom');
    expect(diagnosis.evidence.map((e) => e.line)).not.toContain(4);
  });

  it("reads NCCL's own WARN lines as notices: the engine's error before them is the cause", () => {
    const lines = numbered(
      "ValueError: Cannot find model module. 'Cosmos3ForConditionalGeneration' is not a registered model in the Transformers library (only relevant if the model is meant to be in Transformers)",
      '[2026-09-15 17:47:44] host:2343720:2343720 [0] int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):215 NCCL WARN NET/OFI Failed to initialize rdma protocol',
    );
    expect(diagnose(lines, 'sglang').class).toBe('weight-mismatch');
    // Alone, the WARN line is still what the log shows.
    expect(diagnose(numbered(lines[1]!.text), 'sglang').class).toBe('nccl');
  });

  it("does not take vLLM's report of a start that fits in memory for the free-memory error", () => {
    const report =
      '(Worker_TP1 pid=1445493) INFO 10-09 11:10:39 [gpu_worker.py:955] Free memory on device (43.71/44.39 GiB) on startup. Desired GPU memory utilization is (0.8, 35.51 GiB). Actual usage is 25.87 GiB for consumed memory (weights + non-torch), 2.27 GiB for peak activation, and 0.92 GiB for CUDAGraph memory.';
    const error =
      '(EngineCore pid=47) ValueError: Free memory on device (22.1/79.2 GiB) on startup. Desired GPU memory utilization is (0.9, 71.3 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.';
    expect(diagnose(numbered(report)).class).not.toBe('cuda-oom');
    expect(diagnose(numbered(error)).class).toBe('cuda-oom');
  });

  it('starts afresh after the tail of a failed start, as a restarted container prints it', () => {
    // A log that opens inside the last words of a crashed start (docker logs of a restart loop), then a new start.
    const tail = [
      '(EngineCore pid=47) ValueError: Free memory on device cuda:0 (3.22/4.0 GiB) on startup is less than desired GPU memory utilization (0.9, 3.6 GiB).',
      '(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
    ];
    const again =
      "(APIServer pid=1) INFO 04-22 21:30:42 [utils.py:233] non-default args: {'model': 'Qwen/Qwen2.5-3B'}";
    expect(diagnose(numbered(...tail, again))).toMatchObject({ class: 'hang' });
    // Without the engine's word that the start failed, an error pasted above the log is still the log's error.
    expect(diagnose(numbered(tail[0]!, again)).class).toBe('cuda-oom');
    // Nor does a later phase's line (another process's output) begin a new start.
    const bar = 'Loading safetensors checkpoint shards:  47% Completed | 7/15 [00:20<00:23,  2.93s/it]';
    expect(diagnose(numbered(...tail, bar)).class).toBe('cuda-oom');
  });

  it('keeps a failure of the last start that came before a line repeating an earlier phase', () => {
    const lines = numbered(
      ...start('OSError: [Errno 98] Address already in use'),
      'Load weight begin. avail mem=78.50 GB',
    );
    expect(diagnose(lines).class).toBe('port-in-use');
  });
});
