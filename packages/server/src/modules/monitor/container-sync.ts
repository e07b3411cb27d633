import { SHORT_ID_LENGTH, type ContainerState } from '@berth/contracts';
import { openEngine, type Engine } from '../../docker/index.js';
import type { HostStatsCollector } from '../stats/index.js';
import type { ContainerPicture } from './container-picture.js';
import { driftRecords, engineEventRecord } from './container-records.js';
import type { KnownContainer } from './container-states.store.js';
import { fromInspect, type EngineContainer } from './engine-container.js';
import { describeEngineEvent, type EngineEvent, type EventMeaning } from './engine-events.js';
import type { SupervisedHost, SupervisorContext } from './supervisor-context.js';

const INSPECT_CONCURRENCY = 8;
/** How long the newest event time may wait in a burst before it is stored. */
const EVENT_TIME_SAVE_MS = 1000;

/** Whether the connection a piece of work belongs to is still the supervisor's current one. */
type StillCurrent = () => boolean;

/**
 * Keeps one engine's ContainerPicture true to the engine: applies its events and, at each
 * connect, a full list-and-inspect (resync). Both run in one queue, one at a time. A resync
 * that ran beside an event would replace the picture with a list taken before that event:
 * a container created and started meanwhile vanished (or kept the state it had when
 * listed) until its next event, which for a long-running container may never come.
 */
export class ContainerSync {
  private queue: Promise<void> = Promise.resolve();
  private synced = false;
  private lastSavedEventAt = 0;
  private pendingSave: NodeJS.Timeout | null = null;
  /** Events up to this time came before the current stream opened (see streamOpening). */
  private replayedUpTo: number | null = null;
  /**
   * The time of the newest event applied per container (short id). Within one stream,
   * events of different containers may come out of time order; one that is older than what
   * a container already showed still goes in the log, but its state does not win.
   */
  private readonly appliedAt = new Map<string, number>();
  /**
   * Containers as stored before this process (or last left by a replayed event) that are not
   * in the picture: after a restart, what the first catch-up's events changed them from.
   */
  private readonly known = new Map<string, KnownContainer>();
  /** The stored states are this engine's (false once the endpoint changed). */
  private storedAreOurs = true;
  /** Containers whose stored state is behind the picture. */
  private readonly unsaved = new Set<string>();

  constructor(
    /** The host as it is now (its endpoint may change; lastEventAt is written here). */
    private readonly host: () => SupervisedHost,
    private readonly picture: ContainerPicture,
    private readonly stats: HostStatsCollector,
    private readonly ctx: SupervisorContext,
    /** The connected engine, or null before the first connect. */
    private readonly engine: () => Engine | null,
  ) {}

  /**
   * Called as an event stream opens. The engine replays `since` by whole seconds, so what it
   * sends up to the newest event seen before is a replay. After that the newest time seen is
   * no filter: concurrent operations stamp their events before they publish them, so one
   * stream may deliver them slightly out of time order, each once (two parallel test runs
   * on one engine lost a container that way).
   */
  streamOpening(): void {
    this.replayedUpTo = this.host().lastEventAt;
  }

  /** Applies an engine event after everything queued before it. */
  event(current: StillCurrent, ev: EngineEvent): void {
    this.serially(async () => {
      if (current()) await this.apply(ev);
    }).catch((err: unknown) =>
      this.ctx.log.warn({ err, host: this.host().name }, 'engine event failed'),
    );
  }

  /**
   * Lists and inspects every container after the events queued so far; events that arrive
   * meanwhile wait and are applied on top. After a reconnect, differences become events.
   */
  resync(current: StillCurrent, engine: Engine): Promise<void> {
    return this.serially(() => this.relist(current, engine));
  }

  /**
   * After a gap (a cut, Berth's restart): the list, then the engine's events from `gapFrom` up
   * to its clock after the list, applied on the picture from before the gap (after a restart,
   * the stored states). Each change of the gap is then logged once, from the state it left:
   * events replayed before the list left a window between the replay's end and the list
   * whose changes the list logged as drift and the live stream logged again, and after a
   * restart there was no state to start from. What the events do not explain is drift (an
   * engine restart loses its event history).
   */
  catchUp(
    current: StillCurrent,
    engine: Engine,
    gapFrom: number,
    gapEvents: (until: number) => Promise<EngineEvent[]>,
  ): Promise<void> {
    return this.serially(async () => {
      if (!this.synced && this.storedAreOurs && this.known.size === 0) await this.loadKnown();
      const fresh = await this.listed(engine);
      if (!current()) return;
      const clock = Date.parse((await engine.info()).SystemTime ?? '') / 1000;
      // Without the engine's clock (NaN) `until` could lie ahead of it and hold the call open.
      const gap = Math.floor(gapFrom) <= clock ? await gapEvents(clock) : [];
      const touched = new Set<string>();
      for (const ev of gap) {
        if (!current()) return;
        if (await this.apply(ev)) touched.add(ev.Actor.ID.slice(0, SHORT_ID_LENGTH));
      }
      if (!current()) return;
      // Before the gap: the picture once synced, the stored states after a restart.
      const before = [...this.known, ...this.picture.entries()].filter(([id]) => !touched.has(id));
      for (const record of driftRecords(this.host(), before, fresh)) await this.ctx.record(record);
      // A container an event touched is as the events left it (inspected after the list).
      for (const id of touched) fresh.delete(id);
      this.commit(
        current,
        fresh,
        [...touched].map((id) => this.picture.get(id)),
      );
    });
  }

  /** A new endpoint: the next resync is a first one again (no drift to report). */
  reset(): void {
    this.picture.clear();
    this.appliedAt.clear();
    this.known.clear();
    this.unsaved.clear();
    this.storedAreOurs = false;
    this.synced = false;
  }

  /** Runs `task` when the queue is free; the queue goes on whatever it does. */
  private serially(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Applies one event; false when it was not for this picture (seen before, not followed). */
  private async apply(ev: EngineEvent): Promise<boolean> {
    const host = this.host();
    const at = ev.timeNano / 1e9;
    if (this.replayedUpTo !== null && at <= this.replayedUpTo) return false; // seen before
    if (host.lastEventAt === null || at > host.lastEventAt) host.lastEventAt = at;
    const id = ev.Actor.ID.slice(0, SHORT_ID_LENGTH);
    const old = this.picture.get(id);
    const was = old ?? this.known.get(id);
    const name = (ev.Actor.Attributes.name ?? was?.name ?? id).replace(/^\//, '');
    const meaning = describeEngineEvent(ev, name);
    if (meaning === null) return false;
    const late = ev.timeNano < (this.appliedAt.get(id) ?? 0);
    if (!late) this.appliedAt.set(id, ev.timeNano);
    this.unsaved.add(id);
    if (ev.Action === 'destroy') {
      this.picture.delete(id);
      this.known.delete(id);
      this.stats.forget(id);
      this.appliedAt.delete(id);
    } else {
      const fresh = await this.inspect(ev.Actor.ID);
      const base = fresh ?? old;
      if (base !== undefined) {
        this.picture.set(late ? base : this.withEventState(base, ev, meaning, was?.state));
        this.known.delete(id);
      } else if (!late) {
        // Gone before it could be inspected (removed later in a replayed gap): as events say.
        const state = meaning.newState ?? was?.state;
        if (state !== undefined) this.known.set(id, { name, state });
      }
    }
    const now = this.picture.get(id) ?? this.known.get(id);
    const newState = ev.Action === 'destroy' ? 'removed' : (now?.state ?? null);
    await this.ctx.record(
      engineEventRecord(host, ev, meaning, {
        id,
        name,
        oldState: was?.state ?? null,
        newState,
      }),
    );
    this.ctx.containersChanged(host.id);
    const after = this.picture.get(id);
    this.ctx.containerEvent({
      hostId: host.id,
      action: ev.Action,
      containerId: id,
      name,
      container: after === undefined ? null : this.picture.snapshotOf(after),
      signal: ev.Action === 'kill' ? (ev.Actor.Attributes.signal ?? null) : null,
    });
    await this.rememberEventTime(at);
    return true;
  }

  /**
   * The container as an event leaves it. Only events that decide a state change it: inspect
   * may already see a later one.
   */
  private withEventState(
    base: Readonly<EngineContainer>,
    ev: EngineEvent,
    meaning: EventMeaning,
    oldState: ContainerState | undefined,
  ): EngineContainer {
    const next = { ...base, state: meaning.newState ?? oldState ?? base.state };
    if (ev.Action === 'die')
      next.exitCode = Number(ev.Actor.Attributes.exitCode ?? next.exitCode ?? 0);
    return next;
  }

  /**
   * Stores the newest event's time, from which a reconnect (or a restart) replays what it
   * missed, with the states of the containers changed since the last save (what that replay
   * starts from). At most once a second in a burst, but the burst's last event is always
   * stored within a second: had it not been, a restart replayed it and recorded it twice.
   */
  private async rememberEventTime(at: number): Promise<void> {
    if (at - this.lastSavedEventAt >= 1) {
      this.cancelPendingSave();
      await this.persist(at);
      return;
    }
    this.pendingSave ??= setTimeout(() => {
      this.pendingSave = null;
      this.flushEventTime().catch((err: unknown) =>
        this.ctx.log.warn({ err, host: this.host().name }, 'saving the last event time failed'),
      );
    }, EVENT_TIME_SAVE_MS);
  }

  /** Stores the newest event time now if it is not stored yet (on stop, and after a burst). */
  flushEventTime(): Promise<void> {
    this.cancelPendingSave();
    const at = this.host().lastEventAt;
    const newer = at !== null && at > this.lastSavedEventAt;
    if (!newer && this.unsaved.size === 0) return Promise.resolve();
    return this.persist(newer ? at : null);
  }

  /** The changed containers' states first: a replay from `at` must find them as of `at`. */
  private async persist(at: number | null): Promise<void> {
    if (at !== null) this.lastSavedEventAt = at;
    const changes = new Map<string, KnownContainer | null>();
    for (const id of this.unsaved) changes.set(id, this.knownOf(id) ?? null);
    this.unsaved.clear();
    if (changes.size > 0) await this.ctx.containerStates.save(this.host().id, changes);
    if (at !== null) await this.ctx.saveFacts(this.host().id, { last_event_at: at });
  }

  private knownOf(id: string): KnownContainer | undefined {
    const c = this.picture.get(id) ?? this.known.get(id);
    return c === undefined ? undefined : { name: c.name, state: c.state };
  }

  private async loadKnown(): Promise<void> {
    try {
      for (const [id, c] of await this.ctx.containerStates.load(this.host().id))
        this.known.set(id, c);
    } catch (err) {
      // Without them the gap's events are logged without the state they left, as before.
      this.ctx.log.warn(
        { err, host: this.host().name },
        'reading the last container states failed',
      );
    }
  }

  private cancelPendingSave(): void {
    if (this.pendingSave !== null) clearTimeout(this.pendingSave);
    this.pendingSave = null;
  }

  private async relist(current: StillCurrent, engine: Engine): Promise<void> {
    const fresh = await this.listed(engine);
    if (!current()) return;
    if (this.synced) {
      for (const record of driftRecords(this.host(), this.picture.entries(), fresh))
        await this.ctx.record(record);
    }
    this.commit(current, fresh, []);
  }

  /** Every container the engine lists, inspected. */
  private async listed(engine: Engine): Promise<Map<string, Readonly<EngineContainer>>> {
    const listed = await engine.listContainers();
    const fresh = new Map<string, Readonly<EngineContainer>>();
    const queue = listed.map((c) => c.Id);
    const worker = async () => {
      for (let full = queue.shift(); full !== undefined; full = queue.shift()) {
        const c = await this.inspect(full);
        if (c !== null) fresh.set(c.id, Object.freeze(c));
      }
    };
    await Promise.all(Array.from({ length: INSPECT_CONCURRENCY }, worker));
    return fresh;
  }

  /** The picture becomes the list (with `kept` on top), and is stored as it is. */
  private commit(
    current: StillCurrent,
    fresh: Map<string, Readonly<EngineContainer>>,
    kept: (Readonly<EngineContainer> | undefined)[],
  ): void {
    if (!current()) return;
    const host = this.host();
    this.picture.clear();
    for (const c of fresh.values()) this.picture.set(c);
    for (const c of kept) if (c !== undefined) this.picture.set(c);
    for (const id of this.appliedAt.keys())
      if (this.picture.get(id) === undefined) this.appliedAt.delete(id);
    this.known.clear();
    this.unsaved.clear();
    this.synced = true;
    this.storedAreOurs = true;
    this.ctx.containersChanged(host.id);
    const all = new Map<string, KnownContainer>();
    for (const [id, c] of this.picture.entries()) all.set(id, { name: c.name, state: c.state });
    // With the time they are as of (a host that never had an event has none stored yet, and
    // a restart then had nothing to replay from).
    this.ctx.containerStates
      .replace(host.id, all)
      .then(() => this.flushEventTime())
      .catch((err: unknown) =>
        this.ctx.log.warn({ err, host: host.name }, 'storing the container states failed'),
      );
  }

  private async inspect(fullId: string): Promise<EngineContainer | null> {
    try {
      return fromInspect(
        await (this.engine() ?? openEngine(this.host().endpoint)).inspectContainer(fullId),
      );
    } catch {
      return null; // removed in the meantime
    }
  }
}
