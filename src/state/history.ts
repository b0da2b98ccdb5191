// Start history for the ETA: each successful start of a profile (engine, model, key flags, host) stores its phase
// durations; the next start of the same profile estimates what is left from the median of earlier ones.
// No history, no ETA: an estimate is never invented.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PHASE_IDS, type PhaseId } from '../events.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { stateDir } from './dir.ts';

/** What makes two starts comparable. */
export interface StartProfile {
  /** A stable hash of the parts below. */
  key: string;
  /** For people: `sglang Qwen3-14B tp=8 @ gpu-host`. */
  label: string;
}

export interface PhaseDuration {
  name: PhaseId;
  ms: number;
}

export interface RecordedStart {
  /** ISO time the start finished. */
  at: string;
  phases: PhaseDuration[];
}

export interface Eta {
  ms: number;
  /** How the estimate was made, e.g. "median of 3 earlier starts". */
  basis: string;
}

interface HistoryFile {
  version: 1;
  profiles: Record<string, { label: string; starts: RecordedStart[] }>;
}

/** Starts kept per profile, and profiles kept in all (the least recently used go first). */
const MAX_STARTS = 10;
const MAX_PROFILES = 200;
const FILE_NAME = 'history.json';

// Flags that change how long a start takes; the rest (ports, API keys, log levels) do not make a new profile.
const KEY_FLAGS = new Set([
  '--tp',
  '--tp-size',
  '--tensor-parallel-size',
  '-tp',
  '--pp-size',
  '--pipeline-parallel-size',
  '--dp',
  '--dp-size',
  '--data-parallel-size',
  '--ep-size',
  '--nnodes',
  '--quantization',
  '-q',
  '--dtype',
  '--kv-cache-dtype',
  '--load-format',
  '--speculative-algorithm',
  '--speculative-draft-model-path',
  '--speculative-model',
  '--speculative-config',
  '--context-length',
  '--max-model-len',
  '--mem-fraction-static',
  '--gpu-memory-utilization',
  '--cuda-graph-max-bs',
  '--disable-cuda-graph',
  '--enable-torch-compile',
  '--enforce-eager',
  '--compilation-config',
  '-O',
]);

const MODEL_FLAGS = new Set(['--model-path', '--model', '--model-id']);

export interface ProfileInput {
  engine: string;
  /** The server's argv (after the entrypoint or whole; only model and key flags are read). */
  argv: readonly string[];
  /** `local` or the ssh host. */
  host: string;
}

// Reads the model and the start-time-relevant flags out of a server command.
export const profileOf = (input: ProfileInput): StartProfile => {
  let model: string | null = null;
  const flags: string[] = [];
  const argv = input.argv;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const name = (eq === -1 ? arg : arg.slice(0, eq)).replaceAll('_', '-');
    const inline = eq === -1 ? null : arg.slice(eq + 1);
    const next = argv[i + 1];
    const value = inline ?? (next !== undefined && !next.startsWith('-') ? next : null);
    if (MODEL_FLAGS.has(name) && value !== null) model = value;
    else if (KEY_FLAGS.has(name)) flags.push(value === null ? name : `${name}=${value}`);
    else if (arg === 'serve' && next !== undefined && !next.startsWith('-')) model = next;
    if (inline === null && value !== null && (MODEL_FLAGS.has(name) || KEY_FLAGS.has(name))) i++;
  }
  flags.sort();
  const parts = [input.engine, model ?? '?', ...flags, `@${input.host}`];
  const key = createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16);
  return { key, label: parts.join(' ') };
};

export interface HistoryOptions {
  /** The state directory; defaults to `stateDir()`. */
  dir?: string;
}

const historyPath = (options: HistoryOptions): string => join(options.dir ?? stateDir(), FILE_NAME);

const isPhase = (value: unknown): value is PhaseId => (PHASE_IDS as readonly unknown[]).includes(value);

// Reads the history file; a missing or unreadable file is an empty history (the ETA is only a nicety).
const readHistory = async (options: HistoryOptions): Promise<HistoryFile> => {
  const empty: HistoryFile = { version: 1, profiles: {} };
  const text = await readFile(historyPath(options), 'utf8').catch(() => null);
  if (text === null) return empty;
  try {
    const parsed = JSON.parse(text) as Partial<HistoryFile>;
    if (parsed.version !== 1 || typeof parsed.profiles !== 'object') return empty;
    return { version: 1, profiles: parsed.profiles };
  } catch {
    return empty;
  }
};

// The earlier successful starts of a profile, oldest first; empty without history.
export const loadStarts = async (
  profile: StartProfile,
  options: HistoryOptions = {},
): Promise<RecordedStart[]> => {
  const history = await readHistory(options);
  const starts = history.profiles[profile.key]?.starts ?? [];
  return starts.filter(
    (start) =>
      Array.isArray(start.phases) && start.phases.every((p) => isPhase(p.name) && Number.isFinite(p.ms)),
  );
};

// Stores the phase durations of a successful start (atomic rewrite, mode 0600).
export const recordStart = async (
  profile: StartProfile,
  phases: readonly PhaseDuration[],
  options: HistoryOptions & { now?: Date } = {},
): Promise<void> => {
  if (phases.length === 0) return;
  const history = await readHistory(options);
  const entry = history.profiles[profile.key] ?? { label: profile.label, starts: [] };
  entry.label = profile.label;
  entry.starts = [
    ...entry.starts,
    {
      at: (options.now ?? new Date()).toISOString(),
      phases: phases.map((p) => ({ name: p.name, ms: Math.round(p.ms) })),
    },
  ].slice(-MAX_STARTS);
  // Re-insert so the most recently used profile is last; drop the oldest beyond the limit.
  const { [profile.key]: _previous, ...others } = history.profiles;
  const kept = Object.entries(others).slice(-(MAX_PROFILES - 1));
  const profiles = Object.fromEntries([...kept, [profile.key, entry]]);
  await writeFileAtomic(historyPath(options), `${JSON.stringify({ version: 1, profiles }, null, 1)}\n`, {
    mode: 0o600,
  });
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

// Estimates the time left from earlier starts: for each start that went through `currentPhase`, the rest of that
// phase (its duration minus the time already spent in it, at least 0) plus every later phase; the median of those.
// Null without an earlier start through this phase.
export const estimateRemaining = (
  starts: readonly RecordedStart[],
  currentPhase: PhaseId | null,
  elapsedInPhaseMs: number,
): Eta | null => {
  const remaining: number[] = [];
  for (const start of starts) {
    const index = currentPhase === null ? 0 : start.phases.findIndex((phase) => phase.name === currentPhase);
    if (index === -1 || start.phases.length === 0) continue;
    const current = start.phases[index]?.ms ?? 0;
    const later = start.phases.slice(index + 1).reduce((sum, phase) => sum + phase.ms, 0);
    remaining.push(Math.max(0, current - elapsedInPhaseMs) + later);
  }
  if (remaining.length === 0) return null;
  const count = remaining.length;
  return {
    ms: Math.round(median(remaining)),
    basis: `median of ${count} earlier start${count === 1 ? '' : 's'}`,
  };
};
