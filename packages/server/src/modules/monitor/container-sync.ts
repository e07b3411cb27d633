import { openEngine, type Engine } from '../../docker/index.js';
import type { HostStatsCollector } from '../stats/index.js';
import type { ContainerPicture } from './container-picture.js';
import { driftRecords, engineEventRecord } from './container-records.js';
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
    this.serially(() => (current() ? this.apply(ev) : Promise.resolve())).catch((err: unknown) =>
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

  /** A new endpoint: the next resync is a first one again (no drift to report). */
  reset(): void {
    this.picture.clear();
    this.appliedAt.clear();
    this.synced = false;
  }

  /** Runs `task` when the queue is free; the queue goes on whatever it does. */
  private serially(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async apply(ev: EngineEvent): Promise<void> {
    const host = this.host();
    const at = ev.timeNano / 1e9;
    if (this.replayedUpTo !== null && at <= this.replayedUpTo) return; // replayed: seen before
    if (host.lastEventAt === null || at > host.lastEventAt) host.lastEventAt = at;
    const id = ev.Actor.ID.slice(0, 12);
    const old = this.picture.get(id);
    const name = (ev.Actor.Attributes.name ?? old?.name ?? id).replace(/^\//, '');
    const meaning = describeEngineEvent(ev, name);
    if (meaning === null) return;
    const late = ev.timeNano < (this.appliedAt.get(id) ?? 0);
    if (!late) this.appliedAt.set(id, ev.timeNano);
    if (ev.Action === 'destroy') {
      this.picture.delete(id);
      this.stats.forget(id);
      this.appliedAt.delete(id);
    } else {
      const fresh = await this.inspect(ev.Actor.ID);
      const base = fresh ?? old;
      if (base !== undefined)
        this.picture.set(late ? base : this.withEventState(base, ev, meaning, old));
    }
    const newState = ev.Action === 'destroy' ? 'removed' : (this.picture.get(id)?.state ?? null);
    await this.ctx.record(
      engineEventRecord(host, ev, meaning, {
        id,
        name,
        oldState: old?.state ?? null,
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
  }

  /**
   * The container as an event leaves it. Only events that decide a state change it: inspect
   * may already see a later one.
   */
  private withEventState(
    base: Readonly<EngineContainer>,
    ev: EngineEvent,
    meaning: EventMeaning,
    old: Readonly<EngineContainer> | undefined,
  ): EngineContainer {
    const next = { ...base, state: meaning.newState ?? old?.state ?? base.state };
    if (ev.Action === 'die')
      next.exitCode = Number(ev.Actor.Attributes.exitCode ?? next.exitCode ?? 0);
    return next;
  }

  /**
   * Stores the newest event's time, from which a reconnect (or a restart) replays what it
   * missed. At most once a second in a burst, but the burst's last event is always stored
   * within a second: had it not been, a restart replayed it and recorded it twice.
   */
  private async rememberEventTime(at: number): Promise<void> {
    if (at - this.lastSavedEventAt >= 1) {
      this.cancelPendingSave();
      await this.saveEventTime(at);
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
    return at !== null && at > this.lastSavedEventAt ? this.saveEventTime(at) : Promise.resolve();
  }

  private saveEventTime(at: number): Promise<void> {
    this.lastSavedEventAt = at;
    return this.ctx.saveFacts(this.host().id, { last_event_at: at });
  }

  private cancelPendingSave(): void {
    if (this.pendingSave !== null) clearTimeout(this.pendingSave);
    this.pendingSave = null;
  }

  private async relist(current: StillCurrent, engine: Engine): Promise<void> {
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
    if (!current()) return;
    const host = this.host();
    if (this.synced) {
      for (const record of driftRecords(host, this.picture.entries(), fresh))
        await this.ctx.record(record);
    }
    this.picture.clear();
    for (const c of fresh.values()) this.picture.set(c);
    for (const id of this.appliedAt.keys()) if (!fresh.has(id)) this.appliedAt.delete(id);
    this.synced = true;
    this.ctx.containersChanged(host.id);
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
