import type { FloatingTagMode } from '@berth/contracts';
import semver from 'semver';

/**
 * Image tags read as versions, so that "a newer tag" means the same thing an operator means:
 * `v1.2.3`, `1.25.3-alpine`, `16-bookworm`, `4.0.1-ls123` (linuxserver build numbers),
 * `20240115` / `2024-01-15` (dates), `1.0.0-rc1` (pre-releases). Two tags are comparable only
 * when they share a scheme: same prefix (`v`, `version-`), same variant (`-alpine3.19` only
 * moves to `-alpine3.19`). The number of version parts may differ: a missing part counts as 0,
 * so `1.0` is older than `1.0.1` and the same version as `1.0.0`. Anything else (`latest`,
 * `stable`, `mainline`) is not a version at all.
 */
export interface TagVersion {
  tag: string;
  scheme: 'semver' | 'date';
  /** Text before the first digit: '', 'v', 'version-', 'RELEASE.'. */
  prefix: string;
  nums: number[];
  /** alpha/beta/rc/... part, or null for a release. */
  pre: string | null;
  /** What the variant must equal: 'alpine3.19', 'bookworm', ''. */
  variant: string;
  /** linuxserver `-ls123` and similar build counters; compared after the version. */
  build: number | null;
}

const PRE =
  /^(alpha|beta|rc|pre|preview|dev|snapshot|nightly|canary|next|edge|b|a|m)[.-]?\d*(\.\d+)*$/i;
const BUILD = /^(ls|r|build)(\d+)$/i;
/** A commit hash baked into a tag (plex `-c29d4c0c8-`): changes every release, never a variant. */
const HASH = /^(?=.*\d)(?=.*[a-f])[0-9a-f]{7,40}$/;
const DATE =
  /^(\D*?)((?:19|20)\d{2})(-?)(0[1-9]|1[0-2])\3(0[1-9]|[12]\d|3[01])(?:[T_.-]?([01]\d|2[0-3])[-:]?([0-5]\d)(?:[-:]?([0-5]\d))?Z?)?(?:[-_](.+))?$/;
const MAX_PARTS = 4;

export function parseTag(tag: string): TagVersion | null {
  if (tag.length === 0 || tag.length > 128) return null;
  // Compact or dashed dates: 20240115, 2024-01-15, RELEASE.2024-01-15T10-00-00Z.
  const date = DATE.exec(tag);
  if (date !== null && (date[3] === '-' || /^\D*\d{8}/.test(tag))) {
    const nums = [2, 4, 5, 6, 7, 8].map((i) => Number(date[i] ?? 0));
    const split = splitSuffix(date[9] ?? '');
    if (split === null) return null;
    // The form is part of the scheme: 20240115 and 2024-01-15 are different tag series.
    const form = `${date[1] ?? ''}\u0000${date[3] ?? ''}${date[6] === undefined ? '' : 'T'}`;
    return { tag, scheme: 'date', prefix: form, nums, ...split };
  }
  const m = /^([A-Za-z_-]*?[._-]?)(\d+(?:\.\d+)*)(?:[-_+.]?(.*))?$/.exec(tag);
  if (m === null) return null;
  const prefix = m[1] ?? '';
  if (
    prefix !== '' &&
    !/^(v|version-|release-|r)$/i.test(prefix) &&
    !/^[A-Za-z]+[._-]$/.test(prefix)
  )
    return null;
  const parts = (m[2] ?? '').split('.');
  if (parts.length > MAX_PARTS) return null;
  // An eight-digit-plus number that is not a date (a build id) or a huge major is no semver.
  if (parts.some((p) => p.length > 9)) return null;
  const nums = parts.map(Number);
  const split = splitSuffix(m[3] ?? '');
  if (split === null) return null;
  return { tag, scheme: 'semver', prefix, nums, ...split };
}

/** `alpine3.19`, `rc1`, `ls123`, `rc1-alpine`, `c29d4c0c8-ls199` → pre, variant, build. */
function splitSuffix(suffix: string): Pick<TagVersion, 'pre' | 'variant' | 'build'> | null {
  if (suffix === '') return { pre: null, variant: '', build: null };
  let pre: string | null = null;
  let build: number | null = null;
  const variant: string[] = [];
  for (const seg of suffix.split(/[-_]/)) {
    if (seg === '') return null;
    const b = BUILD.exec(seg);
    if (b !== null && build === null && /^ls/i.test(seg)) {
      build = Number(b[2]);
      continue;
    }
    if (pre === null && variant.length === 0 && build === null && PRE.test(seg)) {
      pre = seg.toLowerCase();
      continue;
    }
    if (HASH.test(seg)) continue;
    variant.push(seg);
  }
  return { pre, variant: variant.join('-'), build };
}

/** Whether two tags may be compared at all. */
export function sameScheme(a: TagVersion, b: TagVersion): boolean {
  return (
    a.scheme === b.scheme &&
    a.prefix === b.prefix &&
    a.variant === b.variant &&
    (a.build === null) === (b.build === null)
  );
}

/**
 * A tag's numbers as a semver version: the first three are major.minor.patch (missing ones 0),
 * any further ones (a fourth part, a date's time of day) build identifiers, which
 * `semver.compareBuild` orders numerically after the rest. `len` pads both sides alike.
 */
function toSemVer(nums: readonly number[], len: number): semver.SemVer {
  const parts = Array.from({ length: Math.max(len, 3) }, (_, i) => nums[i] ?? 0);
  const build = parts.slice(3);
  return new semver.SemVer(
    parts.slice(0, 3).join('.') + (build.length > 0 ? `+${build.join('.')}` : ''),
  );
}

/** Orders two lists of version numbers, a missing part counting as 0. */
function compareNums(a: readonly number[], b: readonly number[]): number {
  const len = Math.max(a.length, b.length);
  return semver.compareBuild(toSemVer(a, len), toSemVer(b, len));
}

/** rc2 > rc1, rc1 > beta9, numeric parts compared as numbers. */
function comparePre(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1; // a release is newer than its pre-releases
  if (b === null) return -1;
  const rank = (s: string) =>
    [
      'dev',
      'snapshot',
      'nightly',
      'canary',
      'edge',
      'a',
      'alpha',
      'b',
      'beta',
      'm',
      'pre',
      'preview',
      'next',
      'rc',
    ].indexOf(/^[a-z]+/.exec(s)?.[0] ?? '');
  const r = rank(a) - rank(b);
  if (r !== 0) return r;
  // The counters (rc2, beta.1.3) as semver build identifiers, compared as numbers, a missing
  // one counting as 0; each written as the number it reads as (rc01 is rc1), never in exponent
  // form, so a long run of digits stays a valid identifier.
  const num = (s: string) => (s.match(/\d+/g) ?? []).map((d) => BigInt(Number(d)).toString());
  const x = num(a);
  const y = num(b);
  const counters = (c: string[]) =>
    `0.0.0+${Array.from({ length: Math.max(x.length, y.length, 1) }, (_, i) => c[i] ?? '0').join('.')}`;
  return semver.compareBuild(counters(x), counters(y));
}

/** Orders two versions of the same scheme. */
export function compareVersions(a: TagVersion, b: TagVersion): number {
  return compareNums(a.nums, b.nums) || comparePre(a.pre, b.pre) || (a.build ?? 0) - (b.build ?? 0);
}

/**
 * How many leading parts must stay equal in a mode, a missing part counting as 0 (`1.0` in
 * patch mode moves within 1.0.*, `16` within 16.0.*). Date tags only move in latest.
 */
function fixedParts(mode: FloatingTagMode, v: TagVersion): number {
  if (v.scheme === 'date') return mode === 'latest' ? 0 : v.nums.length;
  switch (mode) {
    case 'exact':
      return v.nums.length;
    case 'patch':
      return 2;
    case 'minor':
      return 1;
    case 'latest':
      return 0;
  }
}

/**
 * Between two tags of the same version (`17` and `17.0`), the one written like the current
 * tag, then the longer one: the choice never depends on the registry's order.
 */
function preferShape(a: TagVersion, b: TagVersion, cur: TagVersion): number {
  const distance = (v: TagVersion) => Math.abs(v.nums.length - cur.nums.length);
  return distance(b) - distance(a) || a.nums.length - b.nums.length;
}

/**
 * The newest tag in `tags` the mode allows for `current`, or null. Never a lower tag, never
 * one of another scheme or variant, and pre-releases only when the current tag is one.
 * patch keeps major.minor (`1.0` may become `1.0.1`); minor keeps the major (`1.0` may become
 * `1.1.0`); latest may move anything.
 */
export function newestTag(
  current: string,
  tags: readonly string[],
  mode: FloatingTagMode,
): string | null {
  if (mode === 'exact') return null;
  const cur = parseTag(current);
  if (cur === null) return null;
  const fixed = fixedParts(mode, cur);
  let best: TagVersion | null = null;
  for (const tag of tags) {
    if (tag === current) continue;
    const v = parseTag(tag);
    if (v === null || !sameScheme(cur, v)) continue;
    if (v.pre !== null && cur.pre === null) continue;
    if (compareNums(v.nums.slice(0, fixed), cur.nums.slice(0, fixed)) !== 0) continue;
    if (compareVersions(v, cur) <= 0) continue;
    if (best === null || (compareVersions(v, best) || preferShape(v, best, cur)) > 0) best = v;
  }
  return best?.tag ?? null;
}
