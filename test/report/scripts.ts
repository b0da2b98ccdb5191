// Scripted event sequences, shaped like a real SGLang start, for the renderer tests.
import type { Diagnosis, FailedEvent, ReadyEvent, VigilEvent } from '../../src/events.ts';

export const SECRET_KEY = 'sk-test-9f8e7d6c5b4a';
export const SECRET_TOKEN = 'hf_ZZtokenvalue1234';

export const launched = (t = 40): VigilEvent => ({
  type: 'launched',
  t,
  id: 'l-7f3a',
  pid: 4242,
  pgid: 4242,
  host: 'localhost',
  log: '/tmp/vigil/l-7f3a.log',
  log_offset: 0,
  command: ['python', '-m', 'sglang.launch_server', '--api-key', SECRET_KEY, '--port', '30000'],
  health_url: 'http://127.0.0.1:30000/health',
});

// A start that goes through three phases and becomes ready.
export const readyRun = (): VigilEvent[] => [
  { type: 'preflight', t: 5, status: 'ok', source: null, findings: [] },
  launched(),
  {
    type: 'probe',
    t: 100,
    url: 'http://127.0.0.1:30000/health',
    status: null,
    error: 'ECONNREFUSED',
    ms: 1,
    rung: 'spawned',
  },
  {
    type: 'probe',
    t: 1100,
    url: 'http://127.0.0.1:30000/health',
    status: null,
    error: 'ECONNREFUSED',
    ms: 1,
    rung: 'spawned',
  },
  {
    type: 'log',
    t: 1500,
    line: 1,
    text: `server_args=ServerArgs(api_key='${SECRET_KEY}', port=30000)`,
    level: 'info',
  },
  {
    type: 'phase',
    t: 2000,
    name: 'weight-load',
    progress: { done: 0, total: 4 },
    previous: { name: 'process-up', ms: 1960 },
  },
  { type: 'phase', t: 3000, name: 'weight-load', progress: { done: 2, total: 4 } },
  { type: 'log', t: 3500, line: 7, text: `downloading with token ${SECRET_TOKEN}`, level: 'warning' },
  {
    type: 'heartbeat',
    t: 60_000,
    elapsed_ms: 59_960,
    rung: 'spawned',
    phase: 'weight-load',
    last_line: 'Loading safetensors checkpoint shards:  50% Completed | 2/4',
  },
  {
    type: 'phase',
    t: 61_000,
    name: 'graph-capture',
    progress: null,
    previous: { name: 'weight-load', ms: 59_000 },
  },
  {
    type: 'probe',
    t: 62_000,
    url: 'http://127.0.0.1:30000/health',
    status: 503,
    error: null,
    ms: 2,
    rung: 'http-up',
  },
  {
    type: 'probe',
    t: 63_000,
    url: 'http://127.0.0.1:30000/health',
    status: 503,
    error: null,
    ms: 2,
    rung: 'http-up',
  },
  {
    type: 'probe',
    t: 64_000,
    url: 'http://127.0.0.1:30000/health',
    status: 503,
    error: null,
    ms: 2,
    rung: 'http-up',
  },
  {
    type: 'notice',
    t: 64_500,
    code: 'ready-line-wait',
    message: 'health answers 200; waiting for the ready line',
  },
  {
    type: 'probe',
    t: 65_000,
    url: 'http://127.0.0.1:30000/health',
    status: 200,
    error: null,
    ms: 2,
    rung: 'healthy',
  },
  {
    type: 'ready',
    t: 131_040,
    elapsed_ms: 131_000,
    url: 'http://127.0.0.1:30000',
    health_url: 'http://127.0.0.1:30000/health',
    id: 'l-7f3a',
  },
];

export const diagnosis = (overrides: Partial<Diagnosis> = {}): Diagnosis => ({
  class: 'cuda-oom',
  summary: 'CUDA ran out of memory while capturing CUDA graphs',
  evidence: [{ line: 88, text: 'torch.OutOfMemoryError: CUDA out of memory.' }],
  advice: ['lower --mem-fraction-static (e.g. 0.8)'],
  ...overrides,
});

// A failed event; fields default to a crash with exit code 1 after 31 s.
export const failed = (overrides: Partial<FailedEvent> = {}): FailedEvent => ({
  type: 'failed',
  t: 31_040,
  reason: 'exited',
  exit_code: 3,
  server_exit_code: 1,
  server_signal: null,
  elapsed_ms: 31_000,
  diagnosis: diagnosis(),
  phase: 'graph-capture',
  log_tail: [
    { line: 87, text: 'Capture cuda graph begin.' },
    { line: 88, text: 'torch.OutOfMemoryError: CUDA out of memory.' },
  ],
  ...overrides,
});

export const ready = (overrides: Partial<ReadyEvent> = {}): ReadyEvent => ({
  type: 'ready',
  t: 131_040,
  elapsed_ms: 131_000,
  url: 'http://127.0.0.1:30000',
  health_url: 'http://127.0.0.1:30000/health',
  ...overrides,
});
