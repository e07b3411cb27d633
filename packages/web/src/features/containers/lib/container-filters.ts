import { containerKeyOf } from '@berth/contracts';
import type { Container } from '@berth/contracts';

export type Toggle = 'enabled' | 'disabled';
export type StateFilter = 'running' | 'stopped';
export type DesiredFilter = 'should_run' | 'on_demand' | 'unspecified';

/** The table's filters, kept in the query string so a link reopens the same view. */
export interface ContainerFilters {
  hosts: string[];
  states: StateFilter[];
  autoRestart: Toggle | null;
  autoUpdate: Toggle | null;
  healthCheck: Toggle | null;
  updates: boolean;
  desired: DesiredFilter[];
}

export const NO_FILTERS: ContainerFilters = {
  hosts: [],
  states: [],
  autoRestart: null,
  autoUpdate: null,
  healthCheck: null,
  updates: false,
  desired: [],
};

const list = (value: string | null) =>
  value === null
    ? []
    : value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
const oneOf =
  <T extends string>(values: readonly T[]) =>
  (v: string): v is T =>
    (values as readonly string[]).includes(v);
const toggle = (value: string | null): Toggle | null =>
  value === 'enabled' || value === 'disabled' ? value : null;

/**
 * Reads the filters from the query string; values outside the listed ones are dropped.
 * Entry links `state=paused` (shown as stopped), `hostId=` and `host=` are understood.
 */
export function readFilters(params: URLSearchParams): ContainerFilters {
  const states = list(params.get('state')).map((s) =>
    s === 'paused' || s === 'exited' ? 'stopped' : s,
  );
  return {
    hosts: [...new Set([...list(params.get('host')), ...list(params.get('hostId'))])],
    states: [...new Set(states.filter(oneOf(['running', 'stopped'] as const)))],
    autoRestart: toggle(params.get('policy_auto_restart')),
    autoUpdate: toggle(params.get('policy_auto_update')),
    healthCheck: toggle(params.get('policy_health_check')),
    updates: params.get('updates') === 'true',
    desired: [
      ...new Set(
        list(params.get('desired_state')).filter(
          oneOf(['should_run', 'on_demand', 'unspecified'] as const),
        ),
      ),
    ],
  };
}

/** Writes the filters back, keeping unrelated parameters (containerId) and dropping hostId. */
export function writeFilters(params: URLSearchParams, f: ContainerFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | null) => {
    if (value === null || value === '') next.delete(key);
    else next.set(key, value);
  };
  next.delete('hostId');
  set('host', f.hosts.join(','));
  set('state', f.states.join(','));
  set('policy_auto_restart', f.autoRestart);
  set('policy_auto_update', f.autoUpdate);
  set('policy_health_check', f.healthCheck);
  set('updates', f.updates ? 'true' : null);
  set('desired_state', f.desired.join(','));
  return next;
}

export const hasFilters = (f: ContainerFilters) =>
  f.hosts.length > 0 ||
  f.states.length > 0 ||
  f.autoRestart !== null ||
  f.autoUpdate !== null ||
  f.healthCheck !== null ||
  f.updates ||
  f.desired.length > 0;

/** Running is running, everything else counts as stopped. */
export const stateGroup = (c: Container): StateFilter =>
  c.state === 'running' ? 'running' : 'stopped';

export interface FilterContext {
  /** Composite keys of containers with an update waiting. */
  withUpdates: ReadonlySet<string>;
  /** Composite keys of containers whose HTTP health check is enabled. */
  withHealthCheck?: ReadonlySet<string>;
}

/** Containers passing every filter and the search text (name, image, host name, tags). */
export function applyFilters(
  containers: readonly Container[],
  f: ContainerFilters,
  search: string,
  ctx: FilterContext,
): Container[] {
  const q = search.trim().toLowerCase();
  // The same list when nothing filters it: a live message then hands the table the list it has.
  if (q === '' && !hasFilters(f)) return containers as Container[];
  return containers.filter((c) => {
    if (f.hosts.length > 0 && !f.hosts.includes(c.host_id)) return false;
    if (f.states.length > 0 && !f.states.includes(stateGroup(c))) return false;
    if (f.autoRestart !== null && c.auto_restart !== (f.autoRestart === 'enabled')) return false;
    if (f.autoUpdate !== null && c.auto_update_enabled !== (f.autoUpdate === 'enabled'))
      return false;
    if (f.healthCheck !== null) {
      const on = ctx.withHealthCheck?.has(containerKeyOf(c)) ?? false;
      if (on !== (f.healthCheck === 'enabled')) return false;
    }
    if (f.updates && !ctx.withUpdates.has(containerKeyOf(c))) return false;
    if (f.desired.length > 0 && !f.desired.includes(c.desired_state)) return false;
    return q === '' || searchText(c).includes(q);
  });
}

/** Between the fields of a search text: a search box's single line cannot hold it. */
const FIELD_BREAK = '\n';
const searchTexts = new WeakMap<Container, string>();

/**
 * What a search looks in (name, image, host, tags), lowercased once per record: each keystroke
 * lowercased every field of every container again. Records are replaced when they change, so
 * the text of a record never goes stale.
 */
function searchText(c: Container): string {
  let text = searchTexts.get(c);
  if (text === undefined) {
    text = [c.name, c.image, c.host_name, ...c.tags].join(FIELD_BREAK).toLowerCase();
    searchTexts.set(c, text);
  }
  return text;
}
