import type { z } from 'zod';

/**
 * A fast yes/no check of plain data against a contracts schema, built once per schema from
 * its definition (closures, no code generation: the CSP forbids it, and so zod runs without
 * its compiled parsers here). zod itself took 110-215 ms of the dashboard's first render to
 * check 1,000 containers; for data that passes, the answer is the same and the data is taken
 * as it came. Anything the check does not cover exactly (transforms, defaults, string
 * formats, unknown keys zod would strip or refuse) makes it give up, and zod parses as before,
 * with its messages for whatever is wrong.
 */
type Check = (value: unknown) => boolean;

/** What a schema's definition looks like from here: only the fields this file reads. */
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  check?: string;
  format?: string;
  innerType?: Schema;
  element?: Schema;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  options?: Schema[];
  discriminator?: string;
  items?: Schema[];
  rest?: Schema | null;
  keyType?: Schema;
  valueType?: Schema;
  entries?: Record<string, unknown>;
  values?: unknown[];
}
interface CheckDef {
  check: string;
  format?: string;
  value?: unknown;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
  length?: number;
  pattern?: unknown;
}
interface Schema {
  _zod: { def: Def };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const hasLength = (v: unknown): v is { length: number } =>
  typeof v === 'string' || Array.isArray(v);

/** One of zod's checks (bounds, lengths, integers, patterns), or null for one not covered. */
function compileRule(rule: CheckDef): Check | null {
  switch (rule.check) {
    case 'number_format':
      return rule.format === 'safeint'
        ? (v) => typeof v === 'number' && Number.isSafeInteger(v)
        : null;
    case 'greater_than': {
      const { value: bound, inclusive } = rule;
      if (typeof bound !== 'number') return null;
      return inclusive
        ? (v) => typeof v === 'number' && v >= bound
        : (v) => typeof v === 'number' && v > bound;
    }
    case 'less_than': {
      const { value: bound, inclusive } = rule;
      if (typeof bound !== 'number') return null;
      return inclusive
        ? (v) => typeof v === 'number' && v <= bound
        : (v) => typeof v === 'number' && v < bound;
    }
    case 'min_length': {
      const min = rule.minimum ?? 0;
      return (v) => hasLength(v) && v.length >= min;
    }
    case 'max_length': {
      const max = rule.maximum ?? Infinity;
      return (v) => hasLength(v) && v.length <= max;
    }
    case 'length_equals': {
      const length = rule.length;
      return (v) => hasLength(v) && v.length === length;
    }
    case 'string_format': {
      // `.regex()` (a container's composite key): tested from the start, as zod tests it.
      const pattern = rule.pattern;
      if (rule.format !== 'regex' || !(pattern instanceof RegExp)) return null;
      return (v) => {
        if (typeof v !== 'string') return false;
        pattern.lastIndex = 0;
        return pattern.test(v);
      };
    }
    default:
      return null;
  }
}

/** The schema's own checks joined to its type check; null when one is not covered. */
function withRules(def: Def, typeCheck: Check): Check | null {
  const rules: Check[] = [];
  // A schema that is itself a check (z.int()) carries it in its own definition.
  if (def.check !== undefined) {
    const own = compileRule(def as CheckDef);
    if (own === null) return null;
    rules.push(own);
  } else if (def.format !== undefined) return null;
  for (const c of def.checks ?? []) {
    const rule = compileRule(c._zod.def);
    if (rule === null) return null;
    rules.push(rule);
  }
  if (rules.length === 0) return typeCheck;
  return (v) => typeCheck(v) && rules.every((rule) => rule(v));
}

function compileObject(def: Def): Check | null {
  const fields: [string, Check, boolean][] = [];
  for (const [key, schema] of Object.entries(def.shape ?? {})) {
    const check = compile(schema);
    if (check === null) return null;
    fields.push([key, check, schema._zod.def.type === 'optional']);
  }
  // Unknown keys: zod strips them (object) or refuses them (strictObject); either way its
  // answer is not the data as it came. A loose object keeps them.
  const catchall = def.catchall?._zod.def.type;
  const keepsUnknown = catchall === 'unknown' || catchall === 'any';
  if (def.catchall !== undefined && !keepsUnknown) {
    if (catchall !== 'never') return null;
  }
  // Parallel arrays and counted loops: this runs for every field of every container of a
  // 1,000-container answer while the page starts, before V8 has optimised it, where a for-of
  // with destructuring costs several times as much.
  const keys = fields.map(([key]) => key);
  const checks = fields.map(([, check]) => check);
  const optionals = fields.map(([, , optional]) => optional);
  const count = keys.length;
  return (v) => {
    if (!isRecord(v)) return false;
    let present = 0;
    for (let i = 0; i < count; i++) {
      const key = keys[i] as string;
      const field = v[key];
      if (field === undefined && !(key in v)) {
        if (optionals[i] === true || (checks[i] as Check)(undefined)) continue;
        return false;
      }
      if (!(checks[i] as Check)(field)) return false;
      present++;
    }
    if (keepsUnknown) return true;
    // No unknown keys when the object has as many keys as the known ones it holds (the data
    // comes from JSON.parse: its keys are its own and enumerable, so Object.keys lists them).
    return Object.keys(v).length === present;
  };
}

function compileUnion(def: Def): Check | null {
  const options = (def.options ?? []).map(compile);
  if (options.some((o) => o === null)) return null;
  const checks = options as Check[];
  const key = def.discriminator;
  if (key === undefined) return (v) => checks.some((check) => check(v));
  // A discriminated union: the option whose literal matches, as zod picks it.
  const byValue = new Map<unknown, Check>();
  for (const [i, schema] of (def.options ?? []).entries()) {
    const tag = schema._zod.def.shape?.[key]?._zod.def;
    const check = checks[i];
    if (tag?.type !== 'literal' || check === undefined) return null;
    for (const value of tag.values ?? []) byValue.set(value, check);
  }
  return (v) => isRecord(v) && (byValue.get(v[key])?.(v) ?? false);
}

function compileTuple(def: Def): Check | null {
  const items = (def.items ?? []).map(compile);
  const rest = def.rest === null || def.rest === undefined ? null : compile(def.rest);
  if (items.some((i) => i === null) || (def.rest && rest === null)) return null;
  const checks = items as Check[];
  return (v) =>
    Array.isArray(v) &&
    (rest === null ? v.length === checks.length : v.length >= checks.length) &&
    v.every((item, i) => (checks[i] ?? rest)?.(item) ?? false);
}

function compileType(def: Def): Check | null {
  switch (def.type) {
    case 'string':
      return withRules(def, (v) => typeof v === 'string');
    case 'number':
      return withRules(def, (v) => typeof v === 'number' && Number.isFinite(v));
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'null':
      return (v) => v === null;
    case 'unknown':
    case 'any':
      return () => true;
    case 'literal': {
      const values = new Set(def.values);
      return (v) => values.has(v);
    }
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (v) => values.has(v);
    }
    case 'nullable': {
      const inner = def.innerType && compile(def.innerType);
      return inner ? (v) => v === null || inner(v) : null;
    }
    case 'optional': {
      const inner = def.innerType && compile(def.innerType);
      return inner ? (v) => v === undefined || inner(v) : null;
    }
    case 'array': {
      const element = def.element && compile(def.element);
      return element ? withRules(def, (v) => Array.isArray(v) && v.every(element)) : null;
    }
    case 'record': {
      const key = def.keyType && compile(def.keyType);
      const value = def.valueType && compile(def.valueType);
      if (!key || !value || def.keyType?._zod.def.type !== 'string') return null;
      return (v) => {
        if (!isRecord(v)) return false;
        for (const k in v) if (!key(k) || !value(v[k])) return false;
        return true;
      };
    }
    case 'object':
      return compileObject(def);
    case 'union':
      return compileUnion(def);
    case 'tuple':
      return compileTuple(def);
    default:
      return null; // transforms, defaults, pipes, lazy, dates…: zod's to answer
  }
}

const compiled = new WeakMap<object, Check | null>();

function compile(schema: Schema): Check | null {
  if (compiled.has(schema)) return compiled.get(schema) ?? null;
  // A schema met again while compiling (a cycle) is left to zod.
  compiled.set(schema, null);
  const check = compileType(schema._zod.def);
  compiled.set(schema, check);
  return check;
}

/** `schema.safeParse(data)`, taking the data as it came when the fast check passes it. */
export function safeParseWith<S extends z.ZodType>(
  schema: S,
  data: unknown,
): z.ZodSafeParseResult<z.output<S>> {
  const check = compile(schema);
  return check !== null && check(data)
    ? { success: true, data: data as z.output<S> }
    : schema.safeParse(data);
}

/** Whether the fast check covers the schema (tests: the hot answers must not fall back). */
export const fastCheckCovers = (schema: z.ZodType): boolean => compile(schema) !== null;
