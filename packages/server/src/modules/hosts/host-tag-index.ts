import type { HostEvents, RegisteredHost } from './host-events.js';

/**
 * Every host's tags in memory, kept current by the hosts module's own events, so a scope
 * check (is this host in a user's reach?) is a map lookup on every list row and live message.
 */
export class HostTagIndex {
  private readonly tags = new Map<string, readonly string[]>();

  constructor(hosts: readonly RegisteredHost[], events: HostEvents) {
    for (const host of hosts) this.tags.set(host.id, host.tags);
    events.on('hostAdded', ({ host }) => this.tags.set(host.id, host.tags));
    events.on('hostChanged', ({ host }) => this.tags.set(host.id, host.tags));
    events.on('hostRemoved', ({ host }) => this.tags.delete(host.id));
  }

  /** A host's tags; none for a host that is not (or no longer) registered. */
  tagsOf(hostId: string): readonly string[] {
    return this.tags.get(hostId) ?? [];
  }

  /** Every registered host id. */
  hostIds(): string[] {
    return [...this.tags.keys()];
  }
}
