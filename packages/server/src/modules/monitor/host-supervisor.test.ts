import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContainerDetails, EngineEvent, EngineEventHandlers } from '../../docker/index.js';
import type { StatsSource } from '../stats/index.js';
import { waitFor } from '../../test/wait.js';
import { HostSupervisor } from './host-supervisor.js';
import type { KnownContainer } from './container-states.store.js';
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
  stored.clear();
});

/** The stored containers a restarted Berth reads, by short id. */
const stored = new Map<string, KnownContainer>();

function supervise({ lastEventAt = null as number | null } = {}) {
  const seen: string[] = [];
  /** Writes of stored states and event times, in order (`save id:state`, `time`). */
  const writes: string[] = [];
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
      if (facts.last_event_at !== undefined) {
        savedEventTimes.push(facts.last_event_at);
        writes.push('time');
      }
      return Promise.resolve();
    },
    containerStates: {
      load: () => Promise.resolve(new Map(stored)),
      save: (_id, changes) => {
        for (const [id, c] of changes) writes.push(`save ${id}:${c?.state ?? 'gone'}`);
        return Promise.resolve();
      },
      replace: (_id, all) => {
        writes.push(`replace ${[...all].map(([id, c]) => `${id}:${c.state}`).join(',')}`);
        return Promise.resolve();
      },
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
    lastEventAt,
  };
  sup = new HostSupervisor(target, ctx);
  sup.start();
  return { sup, seen, savedEventTimes, records, writes };
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
    // The first list is stored with the time of the connect: a restart replays from there,
    // even for a host that never had an event.
    await waitFor('the first list stored', () => savedEventTimes.length === 1, 2000, 5);
    const id = 'd'.repeat(64);
    engine.containers.set(id, inspectOf(id, 'burst', 'exited'));
    // kill, die and stop within a millisecond of each other, as `docker stop` sends them.
    for (const action of ['kill', 'die', 'stop'])
      engine.events?.onEvent(event(action, id, 'burst'));
    await waitFor('the burst applied', () => seen.length === 3, 5000, 5);
    const last = nano / 1e9;
    expect(savedEventTimes.length).toBeLessThanOrEqual(2);
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
  /** Online with one running container listed; then its event stream breaks. */
  const cutWithOneRunning = async (id: string, name: string) => {
    const supervised = supervise();
    engine.containers.set(id, inspectOf(id, name, 'running'));
    await waitFor('the list asked for', () => engine.answerList !== null, 5000, 5);
    engine.answerList?.([id]);
    engine.answerList = null; // so the next list is told apart
    await waitFor('online', () => supervised.sup.status === 'online', 5000, 5);
    const live = engine.events;
    live?.onError(new Error('cut'));
    return { ...supervised, live };
  };
  /** Answers the reconnect's list and replay in whatever order it asks for them. */
  const answerReconnect = async (sup: HostSupervisor, ids: string[], gap: EngineEvent[]) => {
    const answered = { list: false, replay: false };
    while (sup.status !== 'online') {
      await waitFor(
        'the list or the replay asked for',
        () =>
          sup.status === 'online' ||
          (!answered.list && engine.answerList !== null) ||
          (!answered.replay && engine.replay !== null),
        5000,
        5,
      );
      if (!answered.list && engine.answerList !== null) {
        answered.list = true;
        engine.answerList(ids);
      } else if (!answered.replay && engine.replay !== null) {
        answered.replay = true;
        for (const ev of gap) engine.replay.onEvent(ev);
        engine.replay.onEnd();
      }
    }
  };
  /** The live stream after the reconnect replays `since` by whole seconds: `again` once more. */
  const replayOnLiveStream = async (live: unknown, again: EngineEvent[]) => {
    await waitFor('the live stream reopened', () => engine.events !== live, 5000, 5);
    for (const ev of again) engine.events?.onEvent(ev);
    await new Promise((r) => setTimeout(r, 100));
  };

  it('logs a change made during the gap once, from the state it left', async () => {
    const id = '7'.repeat(64);
    const { sup, records, live } = await cutWithOneRunning(id, 'gap');
    engine.containers.set(id, inspectOf(id, 'gap', 'exited'));
    const die = event('die', id, 'gap');
    await answerReconnect(sup, [id], [die]);
    await replayOnLiveStream(live, [die]);
    expect(records).toEqual(['gap: died running>exited']);
    expect(sup.containers.get(id)?.state).toBe('exited');
  });

  it('logs a change made between the reconnect reading the clock and the list once', async () => {
    const id = '6'.repeat(64);
    const { sup, records, live } = await cutWithOneRunning(id, 'window');
    // The reconnect has read the engine's clock (info); it replays nothing up to there.
    await waitFor(
      'the list or the replay asked for',
      () => engine.answerList !== null || engine.replay !== null,
      5000,
      5,
    );
    if (engine.answerList === null) {
      engine.replay?.onEnd();
      engine.replay = null;
      await waitFor('the list asked for', () => engine.answerList !== null, 5000, 5);
    }
    // The container exits now, before the list answers.
    engine.containers.set(id, inspectOf(id, 'window', 'exited'));
    const die = event('die', id, 'window');
    // Before: the list logged it as drift, and the live stream's replay logged the die again.
    await answerReconnect(sup, [id], [die]);
    await replayOnLiveStream(live, [die]);
    expect(records).toEqual(['window: died running>exited']);
    expect(sup.containers.get(id)?.state).toBe('exited');
  });

  it('logs what the replayed events do not explain as drift, and keeps what they removed out', async () => {
    const [quiet, gone] = ['5'.repeat(64), '4'.repeat(64)];
    const { sup, records, live } = await cutWithOneRunning(quiet, 'quiet');
    engine.containers.set(quiet, inspectOf(quiet, 'quiet', 'exited')); // its events were lost
    engine.containers.set(gone, inspectOf(gone, 'gone', 'running'));
    const gap = [event('create', gone, 'gone'), event('start', gone, 'gone')];
    // Listed while it still ran; removed before the replay.
    const listed = [quiet, gone];
    const removed = event('destroy', gone, 'gone');
    engine.containers.delete(gone);
    await answerReconnect(sup, listed, [...gap, removed]);
    await replayOnLiveStream(live, []);
    expect(records.sort()).toEqual([
      'gone: created null>created',
      'gone: removed running>removed',
      'gone: started created>running',
      'quiet: state_change running>exited',
    ]);
    expect(sup.containers.get(gone)).toBeUndefined();
  });
});

describe('HostSupervisor: the first connect after a restart', () => {
  it('starts the replayed events from the stored states, and logs unexplained changes', async () => {
    const [kept, quiet] = ['3'.repeat(64), '2'.repeat(64)];
    stored.set(kept.slice(0, 12), { name: 'kept', state: 'running' });
    stored.set(quiet.slice(0, 12), { name: 'quiet', state: 'running' });
    const { sup, records, writes } = supervise({ lastEventAt: Date.now() / 1000 - 5 });
    engine.containers.set(kept, inspectOf(kept, 'kept', 'exited'));
    // Before: `died null>exited`, nothing known of it yet.
    const answered = { list: false, replay: false };
    while (sup.status !== 'online') {
      await waitFor(
        'asked',
        () =>
          sup.status === 'online' ||
          (!answered.list && engine.answerList !== null) ||
          (!answered.replay && engine.replay !== null),
        5000,
        5,
      );
      if (!answered.list && engine.answerList !== null) {
        answered.list = true;
        engine.answerList([kept]); // quiet was removed while Berth was down, its event lost
      } else if (!answered.replay && engine.replay !== null) {
        answered.replay = true;
        engine.replay.onEvent(event('die', kept, 'kept'));
        engine.replay.onEnd();
      }
    }
    expect(records.sort()).toEqual([
      'kept: died running>exited',
      'quiet: state_change running>removed',
    ]);
    await waitFor('stored', () => writes.some((w) => w.startsWith('replace')), 2000, 5);
    expect(writes.filter((w) => w.startsWith('replace'))).toEqual([
      `replace ${kept.slice(0, 12)}:exited`,
    ]);
  });

  it('stores the changed states before the event time they belong to', async () => {
    const { sup, seen, writes } = supervise();
    await waitFor('the list asked for', () => engine.answerList !== null, 5000, 5);
    engine.answerList?.([]);
    await waitFor('online', () => sup.status === 'online', 5000, 5);
    await waitFor('the list stored', () => writes.length === 2, 2000, 5);
    expect(writes).toEqual(['replace ', 'time']);
    const id = '1'.repeat(64);
    engine.containers.set(id, inspectOf(id, 'saved', 'running'));
    engine.events?.onEvent(event('start', id, 'saved'));
    await waitFor('applied', () => seen.length === 1, 5000, 5);
    await waitFor('stored', () => writes.length === 4, 2000, 5);
    expect(writes.slice(2)).toEqual([`save ${id.slice(0, 12)}:running`, 'time']);
  });
});
