import { types } from 'node:util';
import { z } from 'zod';

type Schema = z.core.$ZodType;
const isSchema = (value: unknown): value is Schema => value instanceof z.core.$ZodType;

const built = new WeakMap<Schema, Schema>();

/**
 * The schema without the `lazySchema` proxies of the contracts, for zod's JSON Schema
 * conversion. A proxy forwards to the schema it built, whose methods close over that schema,
 * not the proxy: the conversion keys what it has seen by the proxy and then looks the built one
 * up (optional, nullable and default fail with "Cannot set properties of undefined").
 * Each proxy, and each schema holding one, is made anew from its definition; the rest are kept.
 * Only the document uses it: requests and answers are checked with the contracts as they are.
 */
export function builtSchema<T extends Schema>(schema: T): T {
  return rebuild(schema) as T;
}

function rebuild(schema: Schema): Schema {
  const done = built.get(schema);
  if (done !== undefined) return done;
  const def = schema._zod.def as unknown as Record<string, unknown>;
  let changed = types.isProxy(schema);
  const next: Record<string, unknown> = {};
  for (const key of Object.keys(def)) {
    const value = def[key];
    const rebuilt = key === 'checks' ? value : rebuildValue(value);
    if (rebuilt !== value) changed = true;
    next[key] = rebuilt;
  }
  const parent = schema._zod.parent;
  const result = changed ? new schema._zod.constr(next) : schema;
  if (changed && parent !== undefined) result._zod.parent = rebuild(parent);
  built.set(schema, result);
  return result;
}

/** A definition's value: a schema, a list of them (options, items) or a shape. */
function rebuildValue(value: unknown): unknown {
  if (isSchema(value)) return rebuild(value);
  if (Array.isArray(value)) {
    const items = value.map(rebuildValue);
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (value !== null && typeof value === 'object' && Object.values(value).some(isSchema)) {
    const entries = Object.entries(value).map(([k, v]) => [k, rebuildValue(v)] as const);
    return entries.some(([k, v]) => v !== (value as Record<string, unknown>)[k])
      ? Object.fromEntries(entries)
      : value;
  }
  // z.lazy's getter is left alone: the contracts have no recursive schema.
  return value;
}

/** A schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), without its `$schema` line. */
export function jsonSchemaOf(schema: Schema): Record<string, unknown> {
  const json: Record<string, unknown> = {
    ...z.toJSONSchema(builtSchema(schema), { target: 'draft-2020-12', unrepresentable: 'any' }),
  };
  delete json.$schema;
  return json;
}
