// The releases a rule or a flag fact holds for, and the choice of rules for a detected release.
import { compareVersions } from '../flags/schema/versions.ts';

/** An inclusive `since` and an exclusive `until`; either may be absent (open). `main` is newer than any tag. */
export interface Releases {
  since?: string;
  until?: string;
}

const isMain = (version: string): boolean => version === 'main';

// Whether a release falls in a range; an unknown release (null) takes every generation's rules.
export const holdsFor = (releases: Releases | undefined, version: string | null): boolean => {
  if (releases === undefined || version === null) return true;
  if (isMain(version)) return releases.until === undefined;
  if (releases.since !== undefined && !isMain(releases.since) && compareVersions(version, releases.since) < 0)
    return false;
  if (releases.since !== undefined && isMain(releases.since)) return false;
  if (
    releases.until !== undefined &&
    !isMain(releases.until) &&
    compareVersions(version, releases.until) >= 0
  )
    return false;
  return true;
};

// The newest release vigil knows rules for is the version a release newer than all of them is read as: its
// rules are all generations (null), so a renamed line in a release vigil has not seen is still caught.
export const knownRelease = (version: string | null, newest: string): string | null => {
  if (version === null || isMain(version)) return version;
  return compareVersions(version, newest) > 0 ? null : version;
};
