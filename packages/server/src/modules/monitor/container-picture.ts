import { SHORT_ID_LENGTH } from '@berth/contracts';
import type { EngineContainer } from './engine-container.js';
import type { ContainerSnapshot } from './fleet.js';

/**
 * One engine's containers as the monitor last saw them. Entries are frozen and replaced,
 * never changed, so a snapshot handed out stays true to the moment it was taken.
 */
export class ContainerPicture {
  private readonly byId = new Map<string, Readonly<EngineContainer>>();

  constructor(private readonly host: () => { id: string; name: string }) {}

  /** By short or full id. */
  get(id: string): Readonly<EngineContainer> | undefined {
    return this.byId.get(id.slice(0, SHORT_ID_LENGTH));
  }

  set(c: EngineContainer): Readonly<EngineContainer> {
    const frozen = Object.isFrozen(c) ? c : Object.freeze(c);
    this.byId.set(c.id, frozen);
    return frozen;
  }

  delete(id: string): void {
    this.byId.delete(id.slice(0, SHORT_ID_LENGTH));
  }

  clear(): void {
    this.byId.clear();
  }

  /** Iterate, do not keep: the picture moves on. */
  values(): IterableIterator<Readonly<EngineContainer>> {
    return this.byId.values();
  }

  entries(): IterableIterator<[string, Readonly<EngineContainer>]> {
    return this.byId.entries();
  }

  snapshot(id: string): ContainerSnapshot | undefined {
    const c = this.get(id);
    return c === undefined ? undefined : this.snapshotOf(c);
  }

  snapshotByName(name: string): ContainerSnapshot | undefined {
    for (const c of this.byId.values()) if (c.name === name) return this.snapshotOf(c);
    return undefined;
  }

  snapshots(): ContainerSnapshot[] {
    return [...this.byId.values()].map((c) => this.snapshotOf(c));
  }

  snapshotOf(c: Readonly<EngineContainer>): ContainerSnapshot {
    const { id, name } = this.host();
    return Object.freeze({ ...c, hostId: id, hostName: name });
  }
}
