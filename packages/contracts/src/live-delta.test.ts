import { containerKeyOf } from './index.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Container } from './containers.js';
import type { Sparklines } from './hosts.js';
import {
  applyContainersUpdate,
  containersUpdateSchema,
  encodeContainersUpdate,
  type LiveContainersState,
} from './live-delta.js';

/** The item at `i`, which the test knows is there. */
function at<T>(xs: readonly T[], i: number): T {
  const x = xs[i];
  if (x === undefined) throw new Error(`no item ${i}`);
  return x;
}

/** A value the test knows is there. */
function must<T>(x: T | null | undefined): T {
  if (x === null || x === undefined) throw new Error('missing value');
  return x;
}

const HOSTS = ['h1', 'host-two'];
const IDS = ['aaaaaaaaaaaa', 'bbbbbbbbbbbb', 'cccccccccccc', 'dddddddddddd', 'eeeeeeeeeeee'];

function container(
  host: string,
  id: string,
  v: { state: Container['state']; cpu: number | null; tag: string; port: number },
): Container {
  return {
    host_id: host,
    host_name: host.toUpperCase(),
    id,
    short_id: id,
    name: `c-${id.slice(0, 3)}`,
    image: 'busybox',
    state: v.state,
    status: v.state === 'running' ? 'Up 2 minutes' : 'Exited (0)',
    health: null,
    exit_code: null,
    created: '2026-01-01T00:00:00Z',
    started_at: null,
    restart_policy: 'no',
    ports: [`${v.port}/tcp`],
    volumes: [],
    env: {},
    labels: { a: v.tag },
    tags: [v.tag],
    auto_restart: false,
    desired_state: 'unspecified',
    web_ui_url: null,
    auto_update_enabled: false,
    floating_tag_mode: 'exact',
    cpu_percent: v.cpu,
    memory_usage: v.cpu === null ? null : 1000,
    memory_limit: v.cpu === null ? null : 2000,
    memory_percent: v.cpu === null ? null : 50,
    network_rx: null,
    network_tx: null,
    net_bytes_per_sec: v.cpu,
  };
}

const series = fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 6 });
const sparks = fc.record({ cpu: series, mem: series, net: series });
const variant = fc.record({
  state: fc.constantFrom<Container['state']>('running', 'exited'),
  cpu: fc.option(fc.integer({ min: 0, max: 400 }).map((n) => n / 10)),
  tag: fc.constantFrom('x', 'y'),
  port: fc.constantFrom(80, 443),
});

/** A state: some of the possible containers, with their variant and maybe sparklines. */
const state = fc
  .record({
    present: fc.subarray(HOSTS.flatMap((h) => IDS.map((id) => [h, id] as const))),
    variants: fc.array(variant, { minLength: 10, maxLength: 10 }),
    sparks: fc.array(fc.option(sparks), { minLength: 10, maxLength: 10 }),
    hostSparks: fc.dictionary(fc.constantFrom(...HOSTS), sparks),
  })
  .map(({ present, variants, sparks: sp, hostSparks }) => {
    const containers = present.map(([h, id], i) => container(h, id, at(variants, i % 10)));
    const container_sparklines: Record<string, Sparklines> = {};
    present.forEach(([h, id], i) => {
      const s = sp[i % 10];
      if (s) container_sparklines[`${h}:${id}`] = s;
    });
    return { containers, container_sparklines, host_sparklines: hostSparks };
  });

/** The next state of a series: a few points pushed onto a window of at most 6. */
function slide(s: Sparklines, pushed: number[]): Sparklines {
  const win = (a: number[]) => [...a, ...pushed].slice(-6);
  return { cpu: win(s.cpu), mem: win(s.mem), net: win(s.net) };
}

const withSeq = (s: Omit<LiveContainersState, 'seq' | 'host_metrics'>, seq: number) => ({
  ...s,
  seq,
  host_metrics: {},
});
const byKey = (cs: Container[]) =>
  [...cs].sort((a, b) => containerKeyOf(a).localeCompare(containerKeyOf(b)));
/** Through JSON and the schema, as the browser receives it. */
const wire = (msg: ReturnType<typeof encodeContainersUpdate>) =>
  containersUpdateSchema.parse(JSON.parse(JSON.stringify(msg)));

describe('containers_update deltas', () => {
  it('full, then deltas, rebuild every state exactly', () => {
    fc.assert(
      fc.property(
        fc.array(state, { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 3 }),
        (states, pushed) => {
          let server: LiveContainersState | null = null;
          let browser: LiveContainersState | null = null;
          states.forEach((raw, i) => {
            // Sometimes the sparklines slide as they do on a stats tick.
            const s =
              i > 0 && pushed.length > 0 && server !== null
                ? {
                    ...raw,
                    container_sparklines: Object.fromEntries(
                      Object.entries(server.container_sparklines).map(([k, v]) => [
                        k,
                        slide(v, pushed),
                      ]),
                    ),
                  }
                : raw;
            const next = withSeq(s, i + 1);
            browser = applyContainersUpdate(browser, wire(encodeContainersUpdate(server, next)));
            server = next;
            expect(browser).not.toBeNull();
            expect(byKey(must(browser).containers)).toEqual(byKey(next.containers));
            expect(must(browser).container_sparklines).toEqual(next.container_sparklines);
            expect(must(browser).host_sparklines).toEqual(next.host_sparklines);
          });
        },
      ),
      {
        // Found by fast-check: a series that shrank without new points was not sent.
        examples: [
          [
            [
              {
                containers: [],
                container_sparklines: {},
                host_sparklines: { 'host-two': { cpu: [], mem: [], net: [0] } },
              },
              {
                containers: [],
                container_sparklines: {},
                host_sparklines: { 'host-two': { cpu: [], mem: [], net: [] } },
              },
            ],
            [],
          ],
        ],
      },
    );
  });

  it('a delta that does not follow the state held is a gap; a full state recovers', () => {
    fc.assert(
      fc.property(state, state, state, (a, b, c) => {
        const s1 = withSeq(a, 1);
        const s2 = withSeq(b, 2);
        const s3 = withSeq(c, 3);
        const held = applyContainersUpdate(null, wire(encodeContainersUpdate(null, s1)));
        // Message 2 is lost: 3 does not apply to 1.
        expect(applyContainersUpdate(held, wire(encodeContainersUpdate(s2, s3)))).toBeNull();
        // Nor does any delta to a browser without a state.
        expect(applyContainersUpdate(null, wire(encodeContainersUpdate(s1, s2)))).toBeNull();
        const recovered = applyContainersUpdate(held, wire(encodeContainersUpdate(null, s3)));
        expect(byKey(must(recovered).containers)).toEqual(byKey(s3.containers));
      }),
    );
  });

  it('sends unchanged containers not at all, and keeps them the same objects', () => {
    const cs = IDS.map((id) =>
      container('h1', id, { state: 'running', cpu: 1, tag: 'x', port: 80 }),
    );
    const s1 = withSeq({ containers: cs, container_sparklines: {}, host_sparklines: {} }, 1);
    const moved = { ...at(cs, 1), cpu_percent: 2 };
    const stopped = { ...at(cs, 2), state: 'exited' as const, status: 'Exited (0)' };
    const s2 = withSeq(
      {
        containers: [at(cs, 0), moved, stopped, at(cs, 3), at(cs, 4)],
        container_sparklines: {},
        host_sparklines: {},
      },
      2,
    );
    const msg = encodeContainersUpdate(s1, s2);
    expect(msg.containers).toEqual([]);
    expect(msg.changed).toEqual([
      { key: 'h1:cccccccccccc', fields: { state: 'exited', status: 'Exited (0)' } },
    ]);
    expect(msg.stats).toEqual({ h1: [['bbbbbbbbbbbb', 2, 1000, 2000, 50, null, null, 1]] });
    const browser = applyContainersUpdate(
      applyContainersUpdate(null, encodeContainersUpdate(null, s1)),
      msg,
    );
    expect(must(browser).containers[0]).toBe(cs[0]);
    expect(at(must(browser).containers, 2).state).toBe('exited');
  });

  it('moves sliding windows of sparklines by their newest points, growing or full', () => {
    const series = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
    const sparks = (from: number, n: number): Sparklines => ({
      cpu: series(from, n),
      mem: series(from + 100, n),
      net: series(from + 200, n),
    });
    const states = [sparks(0, 3), sparks(0, 5), sparks(1, 5), sparks(3, 5), sparks(4, 4)].map(
      (s, i) =>
        withSeq({ containers: [], container_sparklines: { 'h1:a': s }, host_sparklines: {} }, i),
    );
    let browser = applyContainersUpdate(null, wire(encodeContainersUpdate(null, at(states, 0))));
    for (let i = 1; i < states.length; i++) {
      const msg = wire(encodeContainersUpdate(at(states, i - 1), at(states, i)));
      expect(msg.container_sparklines.h1?.set).toEqual({});
      browser = applyContainersUpdate(browser, msg);
      expect(must(browser).container_sparklines).toEqual(at(states, i).container_sparklines);
    }
  });
});
