// Preflight's look inside a local EAGLE-3 draft folder: the drafter's tensor names and config.json checked
// against the loader of the engine release that will run it (headers and config.json only, never tensor data).
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { Finding } from '../../events.ts';
import type { HostRunner } from '../../hosts/types.ts';
import type { ArgparseResult } from '../argparse/parse.ts';
import type { EngineName } from '../schema/schema.ts';
import { isLocalPath } from './value-checks.ts';

/** The SGLang release assumed when the installed one is unknown: the midlayer-only loader, which every release reads. */
const SGLANG_UNKNOWN_VERSION = '0.5.11';

interface DraftUse {
  path: string;
  index: number;
  arg: string;
}

const lastValue = (parsed: ArgparseResult, dest: string): string | undefined =>
  parsed.options.filter((u) => u.option.dest === dest).at(-1)?.values[0];

// The EAGLE-3 draft folder the command names, if any.
const draftUse = (parsed: ArgparseResult, engine: EngineName): DraftUse | null => {
  if (engine === 'sglang') {
    if (lastValue(parsed, 'speculative_algorithm')?.toUpperCase() !== 'EAGLE3') return null;
    const use = parsed.options.filter((u) => u.option.dest === 'speculative_draft_model_path').at(-1);
    const value = use?.values[0];
    if (use === undefined || value === undefined || !isLocalPath(value)) return null;
    return { path: value, index: use.valueIndexes[0] ?? use.index, arg: value };
  }
  const use = parsed.options.filter((u) => u.option.strings.includes('--speculative-config')).at(-1);
  const text = use?.values[0];
  if (use === undefined || text === undefined) return null;
  try {
    const config = JSON.parse(text) as Record<string, unknown> | null;
    const model = config?.['model'];
    if (config?.['method'] !== 'eagle3' || typeof model !== 'string' || !isLocalPath(model)) return null;
    return { path: model, index: use.valueIndexes[0] ?? use.index, arg: text };
  } catch {
    return null;
  }
};

const expand = (path: string, cwd: string | undefined): string => {
  const home = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
  return isAbsolute(home) ? home : resolve(cwd ?? process.cwd(), home);
};

export const draftFindings = async (
  parsed: ArgparseResult,
  engine: EngineName,
  engineVersion: string | null,
  host: HostRunner,
  cwd?: string,
): Promise<Finding[]> => {
  const use = draftUse(parsed, engine);
  // Remote hosts will read the headers over SSH; until then only a local folder is checked.
  if (use === null || host.name !== 'local') return [];
  const dir = expand(use.path, cwd);
  const { localReader } = await import('../../ckpt/folder.ts');
  if ((await localReader.kind(dir)) !== 'dir') return [];
  const { checkDraft } = await import('../../ckpt/check-draft.ts');
  const { draftLoaderFor } = await import('../../engines/draft-loaders.ts');
  const { NEWEST_BUNDLED } = await import('../schema/bundled.ts');
  const version = engineVersion ?? (engine === 'sglang' ? SGLANG_UNKNOWN_VERSION : NEWEST_BUNDLED.vllm);
  const at = (
    severity: Finding['severity'],
    code: string,
    message: string,
    suggestions: string[],
  ): Finding => ({
    severity,
    code,
    index: use.index,
    arg: use.arg,
    message,
    suggestions,
  });
  try {
    const check = await checkDraft(
      dir,
      draftLoaderFor(engine, version),
      engineVersion === null ? 'unknown' : 'detected',
    );
    const assumed =
      engineVersion === null && engine === 'sglang'
        ? ` (release unknown: checked against the midlayer-only loader that every SGLang release reads)`
        : '';
    // The advice is a command to run, not a spelling to swap in: it goes into the message.
    return check.findings.map((f) =>
      at(
        f.severity,
        f.code,
        `draft model ${use.path}: ${f.message}${assumed}${f.suggestions.length === 0 ? '' : `; fix: ${f.suggestions.join(', ')}`}`,
        [],
      ),
    );
  } catch (error) {
    const { isVigilError } = await import('../../errors.ts');
    if (!isVigilError(error)) throw error;
    return [
      at(
        'error',
        'draft-unreadable',
        `draft model ${use.path}: ${error.message}${error.hint === undefined ? '' : `; ${error.hint}`}`,
        [],
      ),
    ];
  }
};
