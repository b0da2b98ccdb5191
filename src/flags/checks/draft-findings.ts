// Preflight's look inside a local EAGLE-3 draft folder: the drafter's tensor names and config.json checked
// against the loader of the engine release that will run it (headers and config.json only, never tensor data).
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { Finding } from '../../events.ts';
import type { HostRunner } from '../../hosts/types.ts';
import type { ArgparseResult } from '../argparse/parse.ts';
import type { EngineName } from '../schema/schema.ts';

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
  const { draftSupportOf } = await import('../../engines/index.ts');
  // Only engines with an EAGLE-3 loader description have drafts to check.
  const support = draftSupportOf(engine);
  if (support === null) return [];
  const use = support.draftFolder(parsed);
  // Remote hosts will read the headers over SSH; until then only a local folder is checked.
  if (use === null || host.name !== 'local') return [];
  const dir = expand(use.path, cwd);
  const { localReader } = await import('../../ckpt/folder.ts');
  if ((await localReader.kind(dir)) !== 'dir') return [];
  // Drafters saved as pytorch_model.bin have no header to read; the check is for safetensors folders.
  if (!(await localReader.list(dir)).some((name) => name.endsWith('.safetensors'))) return [];
  const { checkDraft } = await import('../../ckpt/check-draft.ts');
  const version = engineVersion ?? support.unknownVersion.version;
  const assumed =
    engineVersion === null && support.unknownVersion.note !== null ? ` (${support.unknownVersion.note})` : '';
  const at = (severity: Finding['severity'], code: string, message: string): Finding => ({
    severity,
    code,
    index: use.index,
    arg: use.arg,
    message,
    suggestions: [],
  });
  try {
    const check = await checkDraft(
      dir,
      support.loader(version),
      engineVersion === null ? 'unknown' : 'detected',
    );
    // The advice is a command to run, not a spelling to swap in: it goes into the message.
    return check.findings.map((f) =>
      at(
        f.severity,
        f.code,
        `draft model ${use.path}: ${f.message}${assumed}${f.suggestions.length === 0 ? '' : `; fix: ${f.suggestions.join(', ')}`}`,
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
      ),
    ];
  }
};
