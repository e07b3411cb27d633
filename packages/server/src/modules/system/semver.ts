/** A parsed semantic version (https://semver.org), build metadata dropped. */
interface SemVer {
  core: [number, number, number];
  pre: string[];
}

const PATTERN = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseSemver(text: string): SemVer | null {
  const m = PATTERN.exec(text.trim());
  if (m === null) return null;
  return {
    core: [Number(m[1]), Number(m[2]), Number(m[3])],
    pre: m[4] === undefined ? [] : m[4].split('.'),
  };
}

function comparePre(a: string[], b: string[]): number {
  // A release sorts after its pre-releases.
  if (a.length === 0 || b.length === 0) return Math.sign(b.length - a.length);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) {
      const d = Number(x) - Number(y);
      if (d !== 0) return Math.sign(d);
    } else if (xn !== yn) {
      return xn ? -1 : 1;
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

/** -1, 0 or 1 by semver precedence; null when either is not a semantic version. */
export function compareSemver(a: string, b: string): number | null {
  const x = parseSemver(a);
  const y = parseSemver(b);
  if (x === null || y === null) return null;
  for (let i = 0; i < 3; i++) {
    const d = x.core[i]! - y.core[i]!;
    if (d !== 0) return Math.sign(d);
  }
  return comparePre(x.pre, y.pre);
}

/** Whether `candidate` is a newer version than `current` (false when either does not parse). */
export function isNewerVersion(candidate: string, current: string): boolean {
  return (compareSemver(candidate, current) ?? 0) > 0;
}
