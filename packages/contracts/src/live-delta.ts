import { z } from 'zod';
import { containerKey, containerKeyOf, parseContainerKey, SHORT_ID_LENGTH } from './common.js';
import { containerSchema, type Container } from './containers.js';
import { hostStatsSchema, sparklinesSchema, type HostStats, type Sparklines } from './hosts.js';
import { lazySchema } from './lazy-schema.js';

// containers_update as deltas (docs/decisions/010). The first message a browser gets after it
// connects, or after it asked for one because it missed a message, is `full`; every later one
// carries only what changed since the message before it (`seq` - 1). Both ends hold the same
// `LiveContainersState`: the server encodes the difference of two states, the browser applies
// it to the one it has, and a message whose `seq` does not follow is a gap.

/** Fields of a container that change on every stats pass, sent as compact rows. */
export const CONTAINER_STAT_FIELDS = [
  'cpu_percent',
  'memory_usage',
  'memory_limit',
  'memory_percent',
  'network_rx',
  'network_tx',
  'net_bytes_per_sec',
] as const satisfies readonly (keyof Container)[];
type StatField = (typeof CONTAINER_STAT_FIELDS)[number];

const stat = lazySchema(() => z.number().nullable());
/** [short id, ...CONTAINER_STAT_FIELDS in order]. */
const statsRowSchema = lazySchema(() =>
  z.tuple([z.string(), stat, stat, stat, stat, stat, stat, stat]),
);
type StatsRow = z.infer<typeof statsRowSchema>;

/**
 * Changes to a set of sparklines: `tails` appends the newest points to a series (then keeps the
 * last `length`), `set` replaces or adds whole series, `removed` drops them.
 */
const seriesDeltaSchema = lazySchema(() =>
  z.object({
    tails: z.array(
      z.tuple([
        z.string(),
        z.number(),
        z.array(z.number()),
        z.array(z.number()),
        z.array(z.number()),
      ]),
    ),
    set: z.record(z.string(), sparklinesSchema),
    removed: z.array(z.string()),
  }),
);
export type SeriesDelta = z.infer<typeof seriesDeltaSchema>;

export const containersUpdateSchema = lazySchema(() =>
  z.object({
    seq: z.number().int(),
    /** True: `containers` is every container, and the sparklines are all `set`. */
    full: z.boolean(),
    /** Full: every container. Delta: containers added since the previous message. */
    containers: z.array(containerSchema),
    /** Keys (host_id:short_id) of containers gone. */
    removed: z.array(z.string()),
    /** Containers whose fields other than stats changed, with those fields only. */
    changed: z.array(z.object({ key: z.string(), fields: containerSchema.partial() })),
    /** Stats rows of the containers whose stats changed, by host id. */
    stats: z.record(z.string(), z.array(statsRowSchema)),
    /** Every reachable host's aggregates (a few per host: always whole). */
    host_metrics: z.record(z.string(), hostStatsSchema),
    host_sparklines: seriesDeltaSchema,
    /** By host id, then short container id. */
    container_sparklines: z.record(z.string(), seriesDeltaSchema),
    timestamp: z.string(),
  }),
);
export type ContainersUpdate = z.infer<typeof containersUpdateSchema>;

/** What both ends know after a containers_update. */
export interface LiveContainersState {
  seq: number;
  containers: Container[];
  host_metrics: Record<string, HostStats>;
  host_sparklines: Record<string, Sparklines>;
  /** By container key, as the web cache keeps them. */
  container_sparklines: Record<string, Sparklines>;
}

/** What a delta does to one host's containers, by short id. */
interface Touched {
  removed: Set<string>;
  changed: Map<string, ContainersUpdate['changed'][number]['fields']>;
  stats: Map<string, StatsRow>;
}

/** [host id, short id] of a container key; a key that is not one names no container. */
function splitKey(key: string): [string, string] {
  const parsed = parseContainerKey(key);
  return parsed === null ? ['', key] : [parsed.hostId, parsed.containerId];
}
const STAT_SET = new Set<string>(CONTAINER_STAT_FIELDS);

function statsRow(c: Container): StatsRow {
  return [
    c.id,
    c.cpu_percent,
    c.memory_usage,
    c.memory_limit,
    c.memory_percent,
    c.network_rx,
    c.network_tx,
    c.net_bytes_per_sec,
  ];
}

const sameStats = (a: Container, b: Container) => CONTAINER_STAT_FIELDS.every((f) => a[f] === b[f]);

const same = (a: unknown, b: unknown) =>
  a === b ||
  (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null
    ? JSON.stringify(a) === JSON.stringify(b)
    : false);

function sameSeries(a: number[], aFrom: number, b: number[], bFrom: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[aFrom + i] !== b[bFrom + i]) return false;
  return true;
}

/** How many points were appended to `prev` to give `next` (a sliding window), or -1. */
function appended(prev: number[], next: number[]): number {
  for (let added = 0; added <= Math.min(4, next.length); added++) {
    const kept = next.length - added;
    if (kept > prev.length) continue;
    if (sameSeries(prev, prev.length - kept, next, 0, kept)) return added;
  }
  return -1;
}

const tail = (values: number[], n: number) => (n === 0 ? [] : values.slice(-n));

/**
 * The last `length` points of `prev` followed by `added`: a browser does this for every
 * running container's three series on every message. A slice of what stays, then the few new
 * points pushed, is the fastest and makes the least garbage (a spread then a slice made two
 * arrays of each; bench/containers).
 */
function appendWindow(prev: number[], added: number[], length: number): number[] {
  const drop = Math.max(0, prev.length + added.length - length);
  const out = drop < prev.length ? prev.slice(drop) : [];
  for (let i = Math.max(0, drop - prev.length); i < added.length; i++) out.push(added[i] as number);
  return out;
}

function encodeSeries(
  prev: Record<string, Sparklines> | undefined,
  next: Record<string, Sparklines>,
  full: boolean,
): SeriesDelta {
  const out: SeriesDelta = { tails: [], set: {}, removed: [] };
  for (const [key, s] of Object.entries(next)) {
    const p = full ? undefined : prev?.[key];
    if (p === undefined) {
      out.set[key] = s;
      continue;
    }
    // Series pushed together (one length for all three) travel as their newest points.
    const n =
      s.cpu.length === s.mem.length && s.mem.length === s.net.length ? appended(p.cpu, s.cpu) : -1;
    if (n >= 0 && appended(p.mem, s.mem) === n && appended(p.net, s.net) === n) {
      // Nothing appended can still be a window that shrank (a series cut back): send that too.
      const resized =
        s.cpu.length !== p.cpu.length ||
        s.mem.length !== p.mem.length ||
        s.net.length !== p.net.length;
      if (n > 0 || resized)
        out.tails.push([key, s.cpu.length, tail(s.cpu, n), tail(s.mem, n), tail(s.net, n)]);
    } else out.set[key] = s;
  }
  if (!full && prev !== undefined)
    for (const key of Object.keys(prev)) if (!(key in next)) out.removed.push(key);
  return out;
}

function applySeries(
  current: Record<string, Sparklines>,
  delta: SeriesDelta,
): Record<string, Sparklines> {
  if (delta.tails.length === 0 && delta.removed.length === 0 && Object.keys(delta.set).length === 0)
    return current;
  // One copy per message (a spread is the engine's fast path), then only what changed.
  let out: Record<string, Sparklines> = { ...current };
  if (delta.removed.length > 0) {
    const gone = new Set(delta.removed);
    out = Object.fromEntries(Object.entries(out).filter(([key]) => !gone.has(key)));
  }
  Object.assign(out, delta.set);
  for (const [key, length, cpu, mem, net] of delta.tails) {
    const p = out[key];
    if (p === undefined) continue;
    out[key] = {
      cpu: appendWindow(p.cpu, cpu, length),
      mem: appendWindow(p.mem, mem, length),
      net: appendWindow(p.net, net, length),
    };
  }
  return out;
}

/** Container sparklines grouped by host, so rows name containers by short id only. */
function byHost(sparklines: Record<string, Sparklines>): Map<string, Record<string, Sparklines>> {
  const out = new Map<string, Record<string, Sparklines>>();
  for (const [key, s] of Object.entries(sparklines)) {
    const [host, id] = splitKey(key);
    let group = out.get(host);
    if (group === undefined) out.set(host, (group = {}));
    group[id] = s;
  }
  return out;
}

/**
 * The same update for a browser that shows no container sparklines: it holds none, so it
 * gets none (its state's `container_sparklines` stays empty).
 */
export function withoutContainerSparklines(update: ContainersUpdate): ContainersUpdate {
  return { ...update, container_sparklines: {} };
}

/**
 * The containers_update that takes a browser from `prev` to `next`; with `prev` null, the
 * full state. `next.seq` is the message's sequence number.
 */
export function encodeContainersUpdate(
  prev: LiveContainersState | null,
  next: LiveContainersState,
  timestamp = new Date().toISOString(),
): ContainersUpdate {
  const full = prev === null;
  const msg: ContainersUpdate = {
    seq: next.seq,
    full,
    containers: [],
    removed: [],
    changed: [],
    stats: {},
    host_metrics: next.host_metrics,
    host_sparklines: encodeSeries(prev?.host_sparklines, next.host_sparklines, full),
    container_sparklines: {},
    timestamp,
  };
  if (full) msg.containers = next.containers;
  else {
    const before = new Map(prev.containers.map((c) => [containerKeyOf(c), c]));
    for (const c of next.containers) {
      const key = containerKeyOf(c);
      const p = before.get(key);
      before.delete(key);
      if (p === undefined) {
        msg.containers.push(c);
        continue;
      }
      if (p === c) continue;
      let fields: Partial<Container> | null = null;
      for (const f of Object.keys(c) as (keyof Container)[]) {
        if (STAT_SET.has(f) || same(p[f], c[f])) continue;
        (fields ??= {} as Record<string, unknown>)[f] = c[f] as never;
      }
      if (fields !== null) msg.changed.push({ key, fields });
      if (!sameStats(p, c)) (msg.stats[c.host_id] ??= []).push(statsRow(c));
    }
    msg.removed = [...before.keys()];
  }
  const prevSparks = full
    ? new Map<string, Record<string, Sparklines>>()
    : byHost(prev.container_sparklines);
  const nextSparks = byHost(next.container_sparklines);
  for (const host of new Set([...prevSparks.keys(), ...nextSparks.keys()])) {
    const d = encodeSeries(prevSparks.get(host), nextSparks.get(host) ?? {}, full);
    if (d.tails.length > 0 || d.removed.length > 0 || Object.keys(d.set).length > 0)
      msg.container_sparklines[host] = d;
  }
  return msg;
}

/**
 * The state after `msg`, or null when `msg` cannot be applied to `current` (a delta without
 * the state before it): the caller then asks for a full state. Unchanged containers and
 * series stay the same objects, so memoised views of them do not re-render.
 */
export function applyContainersUpdate(
  current: LiveContainersState | null,
  msg: ContainersUpdate,
): LiveContainersState | null {
  if (msg.full) {
    const sparks: Record<string, Sparklines> = {};
    for (const [host, d] of Object.entries(msg.container_sparklines))
      for (const [id, s] of Object.entries(d.set)) sparks[containerKey(host, id)] = s;
    return {
      seq: msg.seq,
      containers: msg.containers,
      host_metrics: msg.host_metrics,
      host_sparklines: applySeries({}, msg.host_sparklines),
      container_sparklines: sparks,
    };
  }
  if (current === null || msg.seq !== current.seq + 1) return null;
  let containers = current.containers;
  const touched =
    msg.removed.length + msg.changed.length + msg.containers.length + Object.keys(msg.stats).length;
  if (touched > 0) {
    // By host, then short id: most containers are untouched, and a host lookup tells so
    // without building their keys (a browser applies this every 2 s to every container).
    const byHost = new Map<string, Touched>();
    const of = (host: string) => {
      let t = byHost.get(host);
      if (t === undefined)
        byHost.set(host, (t = { removed: new Set(), changed: new Map(), stats: new Map() }));
      return t;
    };
    for (const key of msg.removed) {
      const [host, id] = splitKey(key);
      of(host).removed.add(id);
    }
    for (const { key, fields } of msg.changed) {
      const [host, id] = splitKey(key);
      of(host).changed.set(id, fields);
    }
    for (const [host, rows] of Object.entries(msg.stats))
      for (const row of rows) of(host).stats.set(row[0], row);
    containers = [];
    for (const c of current.containers) {
      const t = byHost.get(c.host_id);
      if (t === undefined) {
        containers.push(c);
        continue;
      }
      const id = c.id.length > SHORT_ID_LENGTH ? c.id.slice(0, SHORT_ID_LENGTH) : c.id;
      if (t.removed.has(id)) continue;
      const fields = t.changed.get(id);
      const row = t.stats.get(id);
      if (fields === undefined && row === undefined) {
        containers.push(c);
        continue;
      }
      const next = { ...c, ...fields } as Container;
      if (row !== undefined)
        CONTAINER_STAT_FIELDS.forEach((f: StatField, i) => (next[f] = row[i + 1] as number | null));
      containers.push(next);
    }
    containers.push(...msg.containers);
  }
  // Every host's series changes in one pass: one copy of the record, not one per host.
  const sparks: SeriesDelta = { tails: [], set: {}, removed: [] };
  for (const [host, d] of Object.entries(msg.container_sparklines)) {
    for (const [id, ...rest] of d.tails) sparks.tails.push([containerKey(host, id), ...rest]);
    for (const [id, s] of Object.entries(d.set)) sparks.set[containerKey(host, id)] = s;
    for (const id of d.removed) sparks.removed.push(containerKey(host, id));
  }
  const container_sparklines = applySeries(current.container_sparklines, sparks);
  return {
    seq: msg.seq,
    containers,
    host_metrics: msg.host_metrics,
    host_sparklines: applySeries(current.host_sparklines, msg.host_sparklines),
    container_sparklines,
  };
}
