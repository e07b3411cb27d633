import type { EngineTarget } from './hosts.service.js';
import type { HostRow } from './hosts.store.js';

/** A registered host as other modules see it when it comes, changes or goes: no secrets. */
export interface RegisteredHost {
  id: string;
  name: string;
  url: string;
  tags: readonly string[];
}

/** What the hosts module announces the moment it happens (after the store has it). */
export interface HostEventMap {
  /** `target` is how to reach its engine, TLS material unsealed: for the monitor alone. */
  hostAdded: { host: RegisteredHost; target: EngineTarget };
  /** Name, URL, certificates, description or tags changed; `previous` is how it was. */
  hostChanged: { host: RegisteredHost; previous: RegisteredHost; target: EngineTarget };
  hostRemoved: { host: RegisteredHost };
}

export type HostEvent = keyof HostEventMap;
export type HostListener<E extends HostEvent> = (payload: HostEventMap[E]) => void;

/** The subscription side of the hosts module, for modules that follow hosts as they change. */
export interface HostEvents {
  on<E extends HostEvent>(event: E, listener: HostListener<E>): () => void;
}

export const tagsOf = (row: HostRow): string[] => JSON.parse(row.tags) as string[];

export const registeredHost = (row: HostRow): RegisteredHost => ({
  id: row.id,
  name: row.name,
  url: row.url,
  tags: tagsOf(row),
});
