// The releases vigil has rules for, per engine: its bundled flag tables, its catalogues, and `main`. An
// `--engine-version` must name one of them (checked before anything starts), so a typo never silently picks the
// wrong generation of rules.
import { UsageError } from '../errors.ts';
import { compareVersions } from '../flags/schema/versions.ts';
import { catalogueVersions } from './catalogue.ts';
import { getEngine, isEngineId, NAMED_ENGINES } from './index.ts';
import type { EngineId } from './types.ts';

// Oldest first, `main` last.
const byRelease = (a: string, b: string): number =>
  a === 'main' ? 1 : b === 'main' ? -1 : compareVersions(a, b);

/** The releases of one engine whose rules vigil knows, oldest first (`main` last); empty for the generic engine. */
export const knownReleases = (engine: EngineId): string[] => {
  if (engine === 'generic') return [];
  const spec = getEngine(engine);
  const versions = new Set([...(spec.flags?.bundled ?? []), ...catalogueVersions(engine), 'main']);
  return [...versions].sort(byRelease);
};

const listing = (engines: readonly EngineId[]): string =>
  engines
    .filter((engine) => engine !== 'generic')
    .map((engine) => `${getEngine(engine).label} ${knownReleases(engine).join(', ')}`)
    .join('; ');

/**
 * Checks an `--engine-version` against the releases vigil knows for the engine (for `auto`, or a name that is no
 * engine, which its own option check reports: for any engine) and returns it; throws a UsageError naming them.
 */
export const checkEngineVersion = (engine: string, version: string, option = '--engine-version'): string => {
  const text = version.trim();
  const named = isEngineId(engine) ? engine : 'auto';
  const engines = named === 'auto' ? NAMED_ENGINES.map((spec) => spec.id) : [named];
  if (engine === 'generic') {
    throw new UsageError(`${option} needs a named engine: the generic engine has no releases`, {
      option,
      hint: `add --engine ${NAMED_ENGINES.map((spec) => spec.id).join('|')}, or leave ${option} out`,
    });
  }
  if (engines.some((id) => knownReleases(id).includes(text))) return text;
  const which = named === 'auto' ? 'any engine' : getEngine(named).label;
  throw new UsageError(
    `${option} ${JSON.stringify(version)}: vigil has no rules for that release of ${which}`,
    {
      option,
      hint: `known releases: ${listing(engines)} (for a release in between, give the nearest older one)`,
    },
  );
};

/** The release to use for an engine, when the caller named one that this engine knows; null otherwise. */
export const releaseFor = (engine: EngineId, version: string | null | undefined): string | null =>
  version === null || version === undefined || !knownReleases(engine).includes(version) ? null : version;
