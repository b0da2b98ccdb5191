// `vigil ckpt check-draft`: does an engine's EAGLE-3 loader read every tensor of this drafter? Names it would
// skip without a word are the dangerous ones: the server starts, serves, and accepts about one token per step.
import { allTensors, readCheckpoint, type CheckpointReader } from './folder.ts';
import type { DraftIssue, DraftLoader, TensorFate } from './draft-loader.ts';
import { detectLayout } from './layout.ts';

export type VersionSource = 'given' | 'detected' | 'newest-bundled' | 'unknown';

export interface DraftCheck {
  dir: string;
  engine: DraftLoader['engine'];
  engine_label: string;
  version: string;
  version_source: VersionSource;
  generation: string;
  layout: string;
  status: 'ok' | 'warnings' | 'errors';
  findings: DraftIssue[];
  tensors: { name: string; fate: TensorFate; param: string | null }[];
}

/** Tensors that belong to the draft network itself: skipping one leaves it untrained. */
const NETWORK_WEIGHT =
  /^(model\.)?(midlayer|layers\.\d+|additional_layers\.\d+|fc|fc_norm\.\d+|norm|lm_head|input_norm)\./;

const listNames = (names: readonly string[]): string =>
  `${names.slice(0, 6).join(', ')}${names.length > 6 ? ` and ${names.length - 6} more` : ''}`;

export const checkDraft = async (
  dir: string,
  loader: DraftLoader,
  versionSource: VersionSource,
  reader?: CheckpointReader,
): Promise<DraftCheck> => {
  const checkpoint = await readCheckpoint(dir, reader);
  const config = checkpoint.config?.json ?? null;
  const names = allTensors(checkpoint).map((t) => t.name);
  const tensors = names.map((name) => {
    const r = loader.resolve(name, config);
    return { name, fate: r.fate, param: r.param };
  });
  const findings: DraftIssue[] = [];
  const skipped = tensors.filter((t) => t.fate === 'skipped').map((t) => t.name);
  const label = `${loader.label} ${loader.version}`;
  const network = skipped.filter((n) => NETWORK_WEIGHT.test(n));
  if (network.length > 0) {
    findings.push({
      severity: 'error',
      code: 'draft-skipped-weights',
      message: `${label}'s EAGLE-3 loader would silently skip ${network.length} draft weight${network.length === 1 ? '' : 's'}: ${listNames(network)}; the server would start and serve with an untrained draft layer (acceptance ≈ 1 token per step)`,
      suggestions: loader.skipAdvice,
    });
  }
  const other = skipped.filter((n) => !NETWORK_WEIGHT.test(n));
  if (other.length > 0) {
    findings.push({
      severity: 'warning',
      code: 'draft-ignored-tensors',
      message: `${label} would silently ignore ${listNames(other)}`,
      suggestions: [],
    });
  }
  const failing = tensors.filter((t) => t.fate === 'fails').map((t) => t.name);
  if (failing.length > 0) {
    findings.push({
      severity: 'error',
      code: 'draft-unknown-weights',
      message: `${label} has no parameter for ${listNames(failing)} and would stop loading the drafter`,
      suggestions: loader.skipAdvice,
    });
  }
  const loaded = new Set(tensors.map((t) => t.param).filter((p): p is string => p !== null));
  const missing = loader.required(config).filter((p) => !loaded.has(p));
  if (missing.length > 0 && network.length === 0) {
    findings.push({
      severity: 'error',
      code: 'draft-missing-weights',
      message: `the drafter has nothing for ${listNames(missing)}: ${label} would leave ${missing.length === 1 ? 'it' : 'them'} at initial values`,
      suggestions: [],
    });
  }
  findings.push(...loader.configIssues(config, names));
  const named = findings.map((f) => ({ ...f, suggestions: f.suggestions.map((s) => s.replace('DIR', dir)) }));
  return {
    dir,
    engine: loader.engine,
    engine_label: loader.label,
    version: loader.version,
    version_source: versionSource,
    generation: loader.generation,
    layout: detectLayout(names, config).layout,
    status: named.some((f) => f.severity === 'error') ? 'errors' : named.length > 0 ? 'warnings' : 'ok',
    findings: named,
    tensors,
  };
};
