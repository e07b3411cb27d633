import RE2 from 're2';
import { badRequest } from '../../platform/http-errors.js';

/** Longer regular expressions are refused: the search box is for filters, not programs. */
export const MAX_REGEX_LENGTH = 256;
/** The trigram index cannot look up anything shorter. */
export const MIN_INDEXED_LENGTH = 3;

const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|]/;

/**
 * Regex search is used when the text has regex syntax and parses as a JavaScript regular
 * expression; anything else (plain words, `a[b`) is a substring search.
 */
export function searchMode(search: string): 'regex' | 'text' {
  if (!REGEX_SYNTAX.test(search)) return 'text';
  try {
    new RegExp(search, 'i');
    return 'regex';
  } catch {
    return 'text';
  }
}

/**
 * Checks that RE2 (linear time, no backtracking) accepts a pattern that parsed as a regex.
 * A valid pattern RE2 cannot run (backreferences, lookarounds) or that compiles to too large
 * a program is refused with 400 rather than silently searched as text: the user meant a regex.
 */
export function assertRunnableRegex(pattern: string): void {
  if (pattern.length > MAX_REGEX_LENGTH)
    throw badRequest(
      `search: Regular expression is too long (at most ${MAX_REGEX_LENGTH} characters)`,
    );
  try {
    new RE2(pattern, 'i');
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    if (/too large|too big|memory/i.test(text))
      throw badRequest('search: Regular expression is too complex');
    throw badRequest(`search: Invalid regular expression: ${text}`);
  }
}

/**
 * True when a match in one field is sure to match the fields joined by newlines in multiline
 * mode, so that test can rule rows out first. `\A`, `\z` and inline flags anchor or fold
 * differently there.
 */
export const joinedTextTestable = (pattern: string) => !/\\[Az]|\(\?/.test(pattern);

/** An FTS5 phrase for the text: quoted, with quotes doubled, so no user text is FTS syntax. */
export const ftsPhrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** True when the trigram index can answer a substring search for this text. */
export const indexable = (text: string) =>
  text.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '_').length >= MIN_INDEXED_LENGTH;

/**
 * The longest run of plain characters every match must contain, or null. Cheap and
 * conservative: any top-level alternation gives up, groups, classes and escapes like \d end a
 * run, and an optional character is dropped. Only ASCII runs are returned so the index's case
 * folding agrees with the regex's.
 */
export function requiredLiteral(pattern: string): string | null {
  const runs: string[] = [];
  let run = '';
  const endRun = () => {
    runs.push(run);
    run = '';
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern.charAt(i);
    if (c === '|') return null;
    if (c === '(' || c === '[') {
      const end = c === '(' ? closingParen(pattern, i) : closingBracket(pattern, i);
      if (end < 0) return null;
      endRun();
      i = skipQuantifier(pattern, end + 1);
      continue;
    }
    let literal: string | null = null;
    let next = i + 1;
    if (c === '\\') {
      const e = pattern.charAt(i + 1);
      literal = /[A-Za-z0-9]/.test(e) || e === '' ? null : e;
      next = i + 2;
    } else if (!'.^$*+?{}'.includes(c)) literal = c;
    if (literal === null) {
      endRun();
      i = skipQuantifier(pattern, next);
      continue;
    }
    const q = quantifierAt(pattern, next);
    if (q === null) return null;
    if (q.min === 0) endRun();
    else {
      run += literal.repeat(Math.min(q.min, 64));
      if (q.exact !== true) endRun();
    }
    i = q.end;
  }
  endRun();
  const best = runs.reduce((a, b) => (b.length > a.length ? b : a), '');
  return best.length >= MIN_INDEXED_LENGTH && /^[\x20-\x7e]+$/.test(best) ? best : null;
}

interface Quantifier {
  min: number;
  /** True when the atom repeats exactly `min` times, so a run may go on after it. */
  exact?: boolean;
  end: number;
}

/** The quantifier at `i` (none means exactly once); null when `{` is not a quantifier. */
function quantifierAt(p: string, i: number): Quantifier | null {
  const c = p.charAt(i);
  const lazy = (end: number) => (p.charAt(end) === '?' ? end + 1 : end);
  if (c === '?' || c === '*') return { min: 0, end: lazy(i + 1) };
  if (c === '+') return { min: 1, end: lazy(i + 1) };
  if (c !== '{') return { min: 1, exact: true, end: i };
  const m = /^\{(\d+)(,\d*)?\}/.exec(p.slice(i));
  if (m === null) return null;
  return { min: Number(m[1]), exact: m[2] === undefined, end: lazy(i + m[0].length) };
}

const skipQuantifier = (p: string, i: number) => quantifierAt(p, i)?.end ?? p.length;

function closingParen(p: string, start: number): number {
  let depth = 0;
  for (let i = start; i < p.length; i++) {
    const c = p.charAt(i);
    if (c === '\\') i++;
    else if (c === '[') {
      i = closingBracket(p, i);
      if (i < 0) return -1;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

function closingBracket(p: string, start: number): number {
  let i = start + 1;
  if (p.charAt(i) === '^') i++;
  if (p.charAt(i) === ']') i++;
  for (; i < p.length; i++) {
    const c = p.charAt(i);
    if (c === '\\') i++;
    else if (c === ']') return i;
  }
  return -1;
}
