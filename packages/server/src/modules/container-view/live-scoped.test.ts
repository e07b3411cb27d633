import {
  applyContainersUpdate,
  containerKey,
  encodeContainersUpdate,
  type Container,
  type LiveContainersState,
  type Sparklines,
} from '@berth/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { liveScope } from '../../platform/live-scope.js';
import { scopedState, scopedUpdate } from './live-scoped.js';

const HOSTS = ['prod-a', 'prod-b', 'stage-a'];
const TAGS: Record<string, string[]> = {
  'prod-a': ['prod'],
  'prod-b': ['prod'],
  'stage-a': ['staging'],
};
const IDS = ['aaaaaaaaaaaa', 'bbbbbbbbbbbb', 'cccccccccccc'];
const prod = liveScope(new Set(['prod']), (id) => TAGS[id] ?? []);

function container(host: string, id: string, cpu: number, state: Container['state']): Container {
  return {
    host_id: host,
    host_name: host,
    id,
    short_id: id,
    name: `c-${id.slice(0, 3)}`,
    image: 'busybox',
    state,
    status: state,
    health: null,
    exit_code: null,
    created: null,
    started_at: null,
    restart_policy: 'no',
    ports: [],
    volumes: [],
    env: {},
    labels: {},
    tags: [],
    auto_restart: false,
    desired_state: 'unspecified',
    web_ui_url: null,
    auto_update_enabled: false,
    floating_tag_mode: 'exact',
    cpu_percent: cpu,
    memory_usage: 1,
    memory_limit: 2,
    memory_percent: 50,
    network_rx: 0,
    network_tx: 0,
    net_bytes_per_sec: 0,
  };
}

const series = (n: number): Sparklines => ({ cpu: [n, n + 1], mem: [n], net: [n] });

/** A state from which (host, id) pairs are present, with a stat and a state each. */
const stateArb = fc
  .array(
    fc.record({
      host: fc.constantFrom(...HOSTS),
      id: fc.constantFrom(...IDS),
      cpu: fc.integer({ min: 0, max: 3 }),
      running: fc.boolean(),
    }),
    { maxLength: 9 },
  )
  .map((rows) => {
    const seen = new Map<string, Container>();
    for (const r of rows)
      seen.set(
        containerKey(r.host, r.id),
        container(r.host, r.id, r.cpu, r.running ? 'running' : 'exited'),
      );
    const containers = [...seen.values()];
    const hostsShown = [...new Set(containers.map((c) => c.host_id))];
    return (seq: number): LiveContainersState => ({
      seq,
      containers,
      host_metrics: Object.fromEntries(
        hostsShown.map((h) => [
          h,
          { cpu_percent: 1, mem_percent: 2, mem_bytes: 3, net_bytes_per_sec: 4 },
        ]),
      ),
      host_sparklines: Object.fromEntries(hostsShown.map((h, i) => [h, series(i)])),
      container_sparklines: Object.fromEntries(
        containers.map((c) => [containerKey(c.host_id, c.id), series(c.cpu_percent ?? 0)]),
      ),
    });
  });

const byKey = (cs: Container[]) =>
  [...cs].sort((a, b) =>
    containerKey(a.host_id, a.id).localeCompare(containerKey(b.host_id, b.id)),
  );

const hostsIn = (s: LiveContainersState | null) =>
  new Set([
    ...(s?.containers.map((c) => c.host_id) ?? []),
    ...Object.keys(s?.host_metrics ?? {}),
    ...Object.keys(s?.host_sparklines ?? {}),
  ]);

describe('containers_update for a scope', () => {
  it('takes a scoped browser from the scoped state before to the scoped state after', () => {
    fc.assert(
      fc.property(stateArb, stateArb, (before, after) => {
        const prev = before(1);
        const next = after(2);
        const delta = encodeContainersUpdate(prev, next, 't');
        const browser = applyContainersUpdate(
          null,
          encodeContainersUpdate(null, scopedState(prev, prod), 't'),
        );
        const applied = applyContainersUpdate(browser, scopedUpdate(delta, prod));
        const expected = scopedState(next, prod);
        // A delta appends the containers it adds: order aside, the lists are the same.
        expect(byKey(applied?.containers ?? [])).toEqual(byKey(expected.containers));
        expect(applied?.host_metrics).toEqual(expected.host_metrics);
        expect(applied?.host_sparklines).toEqual(expected.host_sparklines);
        expect(applied?.container_sparklines).toEqual(expected.container_sparklines);
        expect([...hostsIn(applied)].every((h) => h.startsWith('prod-'))).toBe(true);
      }),
    );
  });

  it('names no host out of scope anywhere in the message', () => {
    fc.assert(
      fc.property(stateArb, stateArb, (before, after) => {
        const delta = encodeContainersUpdate(before(1), after(2), 't');
        expect(JSON.stringify(scopedUpdate(delta, prod))).not.toContain('stage-a');
        expect(JSON.stringify(scopedState(after(2), prod))).not.toContain('stage-a');
      }),
    );
  });
});
