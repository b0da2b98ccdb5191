// Failure signatures shared by every engine: signals, with or without a traceback.
import type { Signature } from '../facts.ts';
import { explainSignal, signalNumber } from '../signals.ts';
import {
  named,
  CRASH_SIGNALS,
  TRANSLATED_SIGNALS,
  TRANSLATED_SIGNAL_NAMES,
  TRANSLATED_SIGNAL_REPORT,
  SHELL_KILLED,
} from './shared.ts';

export const KILLED_SIGNATURES: readonly Signature[] = [
  // --- killed: signals, with or without a traceback.
  {
    id: 'shell-killed',
    class: 'killed',
    weight: 40,
    consequence: true,
    needles: ['Killed'],
    pattern: SHELL_KILLED,
    facts: () => ({ signal: 9 }),
    summary: (_f, c) => `the server was killed with SIGKILL (signal 9); ${explainSignal(9, c.phase)}`,
  },
  {
    // Ray's word for an actor (an engine or a worker) whose process vanished: SIGKILL, often the OOM killer.
    id: 'ray-worker-died',
    class: 'killed',
    weight: 39,
    consequence: true,
    needles: ['worker process has died', 'Worker unexpectedly exits'],
    pattern:
      /The actor is dead because its worker process has died|Worker unexpectedly exits with a connection error code/,
    samples: [
      'The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file.',
    ],
    summary: (_f, c) =>
      `Ray reported that the server's process died without an error of its own; ${explainSignal(9, c.phase)}`,
  },
  {
    // Ray's memory monitor killing a task or actor as the host's RAM runs out (`ray.exceptions.OutOfMemoryError: Task
    // was killed due to the node running low on memory.`): SIGKILL from Ray, not the GPU's memory.
    id: 'ray-memory-monitor-kill',
    class: 'killed',
    weight: 97,
    needles: ['running low on memory'],
    pattern: /\b(?:Task|Actor|Worker) was killed due to the node running low on memory\b/,
    samples: ['ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.'],
    facts: () => ({ signal: 9, kind: 'host-oom' }),
    summary: () =>
      "Ray's memory monitor killed a worker (SIGKILL) because the host ran low on RAM (not GPU memory): give the node more memory, or keep less in host memory (swap space, CPU offload) and run fewer processes on it",
  },
  {
    id: 'exit-code-signal',
    class: 'killed',
    weight: 40,
    // After an error, the signal is the launcher ending its process tree (SGLang's SIGQUIT, -3), not the cause.
    consequence: true,
    // A start that went on past it lost no process of its own to it (a probe's child, `Check failed with … -6.`).
    untilNextPhase: true,
    needles: ['xit code', 'xitcode', 'xited with code'],
    // Also a launcher's report of its server process: `Server process exited with code -9.`
    pattern: /(?:[Ee]xit ?code|exited with code)\s*[:=]?\s*(-\d+|1(?:29|[3-8]\d|9[0-2]))\b/,
    samples: ['Exception: Server process exited with code -9. Check server logs for errors.'],
    facts: (m) => {
      const code = Number(m[1]);
      return { signal: code < 0 ? -code : code - 128 };
    },
    summary: (f, c) =>
      `the server was killed by ${named(f.signal)}; ${explainSignal(f.signal ?? 0, c.phase)}`,
  },
  {
    // A child process the start waits on (a model inspection, a compile step) ended by a stop or kill signal: the
    // process tree was stopped or killed from outside (a job's time limit, the OOM killer), whatever the parent then
    // makes of it. A crash signal (SIGSEGV, SIGABRT) is the child's own failure and is left to the parent's report;
    // Ctrl-C's SIGINT is a stop asked for (src/diagnose/engine-lines.ts).
    id: 'child-killed',
    class: 'killed',
    weight: 101,
    needles: ['died with <Signals.'],
    pattern: /CalledProcessError: Command .* died with <Signals\.(SIGKILL|SIGTERM): \d+>/,
    samples: [
      "subprocess.CalledProcessError: Command '['/venv/bin/python', '-m', 'server.inspect']' died with <Signals.SIGTERM: 15>.",
    ],
    facts: (m) => ({ signal: signalNumber(m[1] ?? '') ?? 15 }),
    summary: (f, c) =>
      `a process the start waited on died from ${named(f.signal)}; ${explainSignal(f.signal ?? 0, c.phase)}`,
  },
  {
    id: 'signal-number',
    class: 'killed',
    weight: 40,
    // Also torch elastic's exception for a signal its agent received (`SignalException: Process 416 got signal: 15`).
    needles: ['ignal'],
    samples: [
      'torch.distributed.elastic.multiprocessing.api.SignalException: Process 416 got signal: 15',
      'Shard process was signaled to shutdown with signal 9',
    ],
    pattern:
      /(?:signaled to shutdown with|(?:killed|terminated|stopped) by|received|got) signal:? (\d+)|[Ss]ignal (\d+) \(SIG\w+\) received|<Signals\.(SIG[A-Z]+): (\d+)>/,
    facts: (m) => ({ signal: Number(m[1] ?? m[2] ?? m[4] ?? signalNumber(m[3] ?? '') ?? 0) }),
    summary: (f, c) => `the server died from ${named(f.signal)}; ${explainSignal(f.signal ?? 0, c.phase)}`,
  },
  {
    // ROCm's runtime aborts the process when a kernel touches memory it does not own (CUDA raises an error instead).
    id: 'gpu-memory-fault',
    class: 'killed',
    weight: 41,
    needles: ['Memory access fault by GPU'],
    pattern: /Memory access fault by GPU (node-\d+)?.*?(?:Reason: (.+))?$/,
    samples: [
      'Memory access fault by GPU node-1 (Agent handle: 0x3d1bda20) on address 0x7fa18d83f000. Reason: Page not present or supervisor privilege.',
    ],
    facts: (m) => ({ signal: 6, kind: 'gpu-fault', value: m[2] ?? '' }),
    summary: (f) =>
      `a GPU memory access fault aborted the server (SIGABRT)${f.value ? `: ${f.value}` : ''}; a kernel read or wrote memory it does not own`,
  },
  {
    // ROCm's runtime aborts the process on a hardware exception it cannot recover from (`HW Exception by GPU node-1
    // (Agent handle: 0x…) reason :GPU Hang`): a kernel that never finished, or a GPU fault.
    id: 'gpu-hw-exception',
    class: 'killed',
    weight: 41,
    needles: ['HW Exception by GPU'],
    pattern: /HW Exception by GPU (?:node-\d+)?.*?reason ?:\s*(.+)$/,
    samples: ['HW Exception by GPU node-1 (Agent handle: 0x2f0fbb70) reason :GPU Hang'],
    facts: (m) => ({ signal: 6, kind: 'gpu-fault', value: m[1] ?? '' }),
    summary: (f) =>
      `the GPU runtime aborted the server (SIGABRT) on a hardware exception: ${f.value ?? ''}; a kernel hung or faulted on the GPU`,
  },
  {
    // Python's faulthandler reporting SIGABRT (`Fatal Python error: Aborted`): a native library aborted the process,
    // often right after saying why (`terminate called after throwing …`, a HIP loader error), which then explains it.
    id: 'python-fatal-abort',
    class: 'killed',
    weight: 40,
    consequence: true,
    needles: ['Fatal Python error: Aborted'],
    pattern: /^Fatal Python error: Aborted$/,
    samples: ['Fatal Python error: Aborted'],
    facts: () => ({ signal: 6 }),
    summary: (f, c) => `the server crashed with ${named(f.signal)}; ${explainSignal(f.signal ?? 0, c.phase)}`,
  },
  {
    id: 'native-crash',
    class: 'killed',
    weight: 40,
    // `Segfault encountered` is the banner of native stack printers that GPU shims and extensions install; `*** SIGBUS
    // received at time=…` is abseil's failure signal handler; `Quit (core dumped)` is a shell reporting SIGQUIT.
    needles: [
      'Segmen',
      'Segfault',
      'rror',
      'Illega',
      'Aborted',
      'core dumped',
      'Floating point',
      'received at time',
    ],
    pattern:
      /Segmentation fault|Segfault encountered|Bus error|Illegal instruction|Aborted \(core dumped\)|Quit \(core dumped\)|Floating point exception|\b(SIG[A-Z]+) received at time=/,
    facts: (m) => ({
      signal: m[1] !== undefined ? (signalNumber(m[1]) ?? 0) : (CRASH_SIGNALS[m[0].split(' ')[0] ?? ''] ?? 0),
    }),
    summary: (f, c) => `the server crashed with ${named(f.signal)}; ${explainSignal(f.signal ?? 0, c.phase)}`,
  },
  {
    // The same reports from a shell running in another language: glibc's translated signal names (zh_CN here, the
    // locale most often met in these logs): `段错误 (核心已转储)` is `Segmentation fault (core dumped)`.
    id: 'native-crash-translated',
    class: 'killed',
    weight: 40,
    needles: TRANSLATED_SIGNAL_NAMES,
    pattern: TRANSLATED_SIGNAL_REPORT,
    samples: ['段错误 (核心已转储)', '/bin/bash: 行 1: 118001 已杀死 python3 -m server'],
    facts: (m) => ({ signal: TRANSLATED_SIGNALS[m[1] ?? ''] ?? 0 }),
    summary: (f, c) =>
      `the server was killed by ${named(f.signal)}; ${explainSignal(f.signal ?? 0, c.phase)}`,
  },
];
