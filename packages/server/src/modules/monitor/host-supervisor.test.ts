import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContainerDetails, EngineEvent, EngineEventHandlers } from '../../docker/index.js';
import type { StatsSource } from '../stats/index.js';
import { waitFor } from '../../test/wait.js';
import { HostSupervisor } from './host-supervisor.js';
import type { SupervisorContext } from './supervisor-context.js';

/**
 * A scripted engine behind the docker module, so the test decides when the container list
 * answers relative to the event stream (a real engine is too quick to catch in between).
 */
const engine = vi.hoisted(() => ({
  /** Inspect answers by full id: what the engine holds now. */
  containers: new Map<string, unknown>(),
  /** Resolves the pending GET /containers/json with the ids the engine had when asked. */
  answerList: null as ((ids: string[]) => void) | null,
  events: null as EngineEventHandlers | null,
  /** The handlers of the last finite events call (`until`: a reconnect's replay). */
  replay: null as EngineEventHandlers | null,
  /** How long an inspect takes to answer; it answers with the state it was asked in. */
  inspectDelayMs: 0,
}));

vi.mock('../../docker/index.js', async (original) => ({
  ...(await original<typeof import('../../docker/index.js')>()),
  openEngine: () => ({
    info: () =>
      Promise.resolve({ NCPU: 2, MemTotal: 2 ** 30, SystemTime: new Date().toISOString() }),
    version: () => Promise.resolve({ Version: '27.0.0' }),
    ping: () => Promise.resolve(),
    listContainers: () =>
      new Promise<{ Id: string }[]>((resolve) => {
        engine.answerList = (ids) => resolve(ids.map((Id) => ({ Id })));
      }),
    inspectContainer: (id: string) => {
      const info = engine.containers.get(id);
      return new Promise((resolve, reject) =>
        setTimeout(
          () => (info === undefined ? reject(new Error('no such container')) : resolve(info)),
          engine.inspectDelayMs,
        ),
      );
    },
    events: (query: { until?: number }, handlers: EngineEventHandlers) => {
      if (query.until === undefined) engine.events = handlers;
      else engine.replay = handlers;
      return Promise.resolve({ close: () => undefined, droppedLines: 0 });
    },
  }),
}));

const inspectOf = (id: string, name: string, status: string) =>
  ({
    Id: id,
    Name: `/${name}`,
    Created: new Date().toISOString(),
    State: {
      Status: status,
      Pid: status === 'running' ? 4242 : 0,
      ExitCode: 0,
      StartedAt: new Date().toISOString(),
      FinishedAt: '0001-01-01T00:00:00Z',
    },
    Config: { Image: 'busybox', Env: [], Labels: {} },
    HostConfig: { RestartPolicy: { Name: 'no' } },
    NetworkSettings: { Ports: {} },
    Mounts: [],
  }) as unknown as ContainerDetails;

let nano = 0;
/** An engine event stamped now (or `atMs`), each at least a millisecond after the last. */
const event = (action: string, id: string, name: string, atMs?: number): EngineEvent => {
  const at = atMs === undefined ? (nano = Math.max(nano + 1e6, Date.now() * 1e6)) : atMs * 1e6;
  return {
    Type: 'container',
    Action: action,
    Actor: { ID: id, Attributes: { name } },
    time: Math.floor(at / 1e9),
    timeNano: at,
  };
};

const log = { warn: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;
let sup: HostSupervisor | undefined;
afterEach(() => {
  sup?.stop();
  engine.containers.clear();
  engine.answerList = null;
  engine.events = null;
  engine.replay = null;
  engine.inspectDelayMs = 0;
});

function supervise() {
  const seen: string[] = [];
  const savedEventTimes: number[] = [];
  /** The log's container entries, as `name: type old>new`. */
  const records: string[] = [];
  const ctx: SupervisorContext = {
    log,
    statsSource: {} as StatsSource,
    timeoutMs: () => 5000,
    record: (r) => {
      if (r.container_name)
        records.push(`${r.container_name}: ${r.event_type} ${r.old_state}>${r.new_state}`);
      return Promise.resolve();
    },
    saveFacts: (_id, facts) => {
      if (facts.last_event_at !== undefined) savedEventTimes.push(facts.last_event_at);
      return Promise.resolve();
    },
    containersChanged: () => undefined,
    statusChanged: () => undefined,
    containerEvent: (ev) => seen.push(ev.action),
  };
  // A TEST-NET address: no local engine process to ask about its start.
  const target = {
    id: 'h1',
    name: 'edge',
    endpoint: { url: 'tcp://192.0.2.1:2375' },
    lastEventAt: null,
  };
  sup = new HostSupervisor(target, ctx);
  sup.start();
  return { sup, seen, savedEventTimes, records };
}

describe('HostSupervisor: events against the first list', () => {
  it('keeps a container created and started while the list was in flight', async () => {
    const { sup, seen } = supervise();
    await waitFor('the list asked for', () => engine.answerList !== null, 5000, 5);
    // `docker run` after the engine wrote its (empty) list, before Berth read it.
    const id = 'b'.repeat(64);
    engine.containers.set(id, inspectOf(id, 'busy', 'running'));
    engine.events?.onEvent(event('create', id, 'busy'));
    engine.events?.onEvent(event('start', id, 'busy'));
    await new Promise((r) => setTimeout(r, 50));
    engine.answerList?.([]);
    await waitFor('online', () => sup.status === 'online', 5000, 5);
    await waitFor('both events applied', () => seen.length === 2, 5000, 5);
    expect(sup.containers.get(id)?.state).toBe('running');
  });

  it('keeps the state of an event that came after the list was inspected (not the stale inspect)', async () => {
    const { sup, seen } = supervise();
    const id = 'c'.repeat(64);
    engine.containers.set(id, inspectOf(id, 'later', 'created'));
    await waitFor('the list asked for', () => engine.answerList !== null, 5000, 5);
    // The resync's inspect sees it created and answers late; it starts meanwhile.
    engine.inspectDelayMs = 200;
    engine.answerList?.([id]);
    await new Promise((r) => setTimeout(r, 20));
    engine.inspectDelayMs = 0;
    engine.containers.set(id, inspectOf(id, 'later', 'running'));
    engine.events?.onEvent(event('start', id, 'later'));
    await waitFor('online', () => sup.status === 'online', 5000, 5);
    await waitFor('the start applied', () => seen.length === 1, 5000, 5);
    expect(sup.containers.get(id)?.state).toBe('running');
  });
});

describe('HostSupervisor: one event stream', () => {
  /** A supervised engine that listed no containers and is online, its events open. */
  const onlineWithNoContainers = async () => {
    const supervised = supervise();
    await waitFor('the list asked for', () => engine.answerList !== null, 5000, 5);
    engine.answerList?.([]);
    await waitFor('online', () => supervised.sup.status === 'online', 5000, 5);
    return supervised;
  };
  /** Publishes two events in the reverse of their time order, and waits for both. */
  const publishLaterFirst = async (seen: string[], earlier: EngineEvent, later: EngineEvent) => {
    engine.events?.onEvent(later);
    engine.events?.onEvent(earlier);
    await waitFor('both applied', () => seen.length === 2, 5000, 5);
  };

  it('applies events that arrive slightly out of time order, as concurrent operations send them', async () => {
    const { sup, seen } = await onlineWithNoContainers();
    const [first, second] = ['f'.repeat(64), '9'.repeat(64)];
    engine.containers.set(first, inspectOf(first, 'first', 'running'));
    engine.containers.set(second, inspectOf(second, 'second', 'created'));
    // Two `docker run`s at once: the engine stamps both, then publishes the later one first.
    const earlier = event('create', second, 'second');
    await publishLaterFirst(seen, earlier, event('start', first, 'first'));
    expect(sup.containers.get(second)?.state).toBe('created');
  });

  it("does not let a container's older event, arriving late, undo its newer state", async () => {
    const { sup, seen } = await onlineWithNoContainers();
    const id = 'a'.repeat(64);
    engine.containers.set(id, inspectOf(id, 'web', 'running'));
    const created = event('create', id, 'web');
    await publishLaterFirst(seen, created, event('start', id, 'web'));
    expect(sup.containers.get(id)?.state).toBe('running');
  });
});

describe('HostSupervisor: where a new host starts', () => {
  it('ignores what the engine replays from before Berth reached it', async () => {
    const before = Date.now() - 1;
    const { sup, seen } = supervise();
    await waitFor('the list asked for', () => engine.answerList !== null, 5000, 5);
    const id = 'e'.repeat(64);
    engine.containers.set(id, inspectOf(id, 'neighbour', 'exited'));
    // The engine replays `since` by whole seconds: a neighbour's exit just before we connected.
    engine.events?.onEvent(event('die', id, 'neighbour', before));
    engine.events?.onEvent(event('start', id, 'neighbour'));
    engine.answerList?.([]);
    await waitFor('online', () => sup.status === 'online', 5000, 5);
    await waitFor('the start applied', () => seen.length === 1, 5000, 5);
    expect(seen).toEqual(['start']);
  });
});

describe('HostSupervisor: where a restart picks up', () => {
  it("stores a burst's last event time within a second, and at stop", async () => {
    const { sup, seen, savedEventTimes } = supervise();
    await waitFor('the list asked for', () => engine.answerList !== null, 5000, 5);
    engine.answerList?.([]);
    await waitFor('online', () => sup.status === 'online', 5000, 5);
    const id = 'd'.repeat(64);
    engine.containers.set(id, inspectOf(id, 'burst', 'exited'));
    // kill, die and stop within a millisecond of each other, as `docker stop` sends them.
    for (const action of ['kill', 'die', 'stop'])
      engine.events?.onEvent(event(action, id, 'burst'));
    await waitFor('the burst applied', () => seen.length === 3, 5000, 5);
    const last = nano / 1e9;
    expect(savedEventTimes).toHaveLength(1);
    // Before: only the first was stored, and a restart replayed (and recorded) the other two.
    await waitFor('the last one stored', () => savedEventTimes.at(-1) === last, 3000, 20);

    engine.events?.onEvent(event('start', id, 'burst'));
    engine.events?.onEvent(event('die', id, 'burst'));
    await waitFor('both applied', () => seen.length === 5, 5000, 5);
    sup.stop();
    await waitFor('stored at stop', () => savedEventTimes.at(-1) === nano / 1e9, 500, 5);
  });
});

describe('HostSupervisor: a reconnect after a gap', () => {
  it("applies the gap's events before the relist, so a change in the gap is logged once", async () => {
    const { sup, records } = supervise();
    const id = '7'.repeat(64);
    engine.containers.set(id, inspectOf(id, 'gap', 'running'));
    await waitFor('the list asked for', () => engine.answerList !== null, 5000, 5);
    engine.answerList?.([id]);
    Object.assign(engine, { answerList: null }); // so the next list is told apart
    await waitFor('online', () => sup.status === 'online', 5000, 5);
    const live = engine.events;
    // The stream breaks; the container exits before Berth is back.
    live?.onError(new Error('cut'));
    engine.containers.set(id, inspectOf(id, 'gap', 'exited'));
    await waitFor('the gap replayed', () => engine.replay !== null, 5000, 5);
    // Once its events arrived after the relist: drift, then the die with a wrong old state.
    await new Promise((r) => setTimeout(r, 50));
    expect(engine.answerList).toBeNull();
    engine.replay?.onEvent(event('die', id, 'gap'));
    engine.replay?.onEnd();
    await waitFor('the list asked for', () => engine.answerList !== null, 5000, 5);
    expect(engine.events).toBe(live); // the live stream opens after the relist
    engine.answerList?.([id]);
    await waitFor('online', () => sup.status === 'online', 5000, 5);
    expect(engine.events).not.toBe(live);
    expect(records).toEqual(['gap: died running>exited']);
  });
});
