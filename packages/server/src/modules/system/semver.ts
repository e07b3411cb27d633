import semver from 'semver';

/**
 * -1, 0 or 1 by semver precedence (build metadata ignored, a leading `v` allowed); null when
 * either is not a semantic version.
 */
export function compareSemver(a: string, b: string): number | null {
  const x = semver.parse(a);
  const y = semver.parse(b);
  if (x === null || y === null) return null;
  return semver.compare(x, y);
}

/** Whether `candidate` is a newer version than `current` (false when either does not parse). */
export function isNewerVersion(candidate: string, current: string): boolean {
  return (compareSemver(candidate, current) ?? 0) > 0;
}
