import { containerDiscovery, hostDiscovery } from './discovery.js';
import {
  containerStateTopic,
  differs,
  hostStateTopic,
  meaningfulChange,
  roundCpu,
  roundMemory,
  type ContainerStatePayload,
  type HostStatePayload,
} from './topics.js';

/** What one pass publishes from: the fleet as it is now. */
export interface FleetPicture {
  hosts: { id: string; name: string; status: string; cpu: number | null; mem: number | null }[];
  containers: {
    hostId: string;
    name: string;
    image: string;
    state: ContainerStatePayload['state'];
    health: ContainerStatePayload['health'];
    cpu: number | null;
    memory: number | null;
    updateAvailable: boolean;
  }[];
}

export interface PublishSink {
  publish(topic: string, payload: string, opts: { retain: boolean; qos: 0 | 1 }): void;
}

export interface PublisherOptions {
  prefix: string;
  /** null: discovery off. */
  discoveryPrefix: string | null;
  /** A figure that moved less than meaningfully is still published after this long. */
  staleMs: number;
  /**
   * Messages one pass may hand to the socket; the rest wait for the next pass (`pending`).
   * A first pass over a thousand containers is ten thousand discovery messages, and mqtt.js
   * waits for the socket to drain with one listener per message written meanwhile.
   */
  maxPerPass?: number;
  now?: () => number;
}

/**
 * Publishes on change only: each topic's last payload is kept, and a pass publishes what
 * differs (state and health at once, CPU and memory when they moved meaningfully or have been
 * slightly off for `staleMs`). Topics of containers and hosts that are gone are cleared
 * with an empty retained message, discovery configs too, so Home Assistant drops them.
 */
export class StatePublisher {
  private readonly containers = new Map<string, { payload: ContainerStatePayload; at: number }>();
  private readonly hosts = new Map<string, HostStatePayload>();
  /** Discovery topics published, by the state topic of what they describe. */
  private readonly discovery = new Map<string, string[]>();
  private readonly now: () => number;
  private left = 0;
  /** Whether the last pass left messages for the next one. */
  pending = false;

  constructor(
    private readonly sink: PublishSink,
    private readonly opts: PublisherOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** Forgets what was published: the next pass sends everything (after a reconnect). */
  reset(): void {
    this.containers.clear();
    this.hosts.clear();
    this.discovery.clear();
  }

  /** One pass; answers how many messages it published. */
  pass(picture: FleetPicture): number {
    const { prefix, discoveryPrefix } = this.opts;
    let sent = 0;
    const send = (topic: string, payload: string, qos: 0 | 1 = 0) => {
      this.sink.publish(topic, payload, { retain: true, qos });
      sent++;
      this.left--;
    };
    this.left = this.opts.maxPerPass ?? 800;
    this.pending = false;
    const now = this.now();
    const seen = new Set<string>();
    for (const h of picture.hosts) {
      const topic = hostStateTopic(prefix, h.id);
      seen.add(topic);
      const running = picture.containers.filter((c) => c.hostId === h.id && c.state === 'running');
      const next: HostStatePayload = {
        name: h.name,
        status: h.status,
        cpu_percent: roundCpu(h.cpu),
        memory_percent: roundCpu(h.mem),
        containers_running: running.length,
        containers_total: picture.containers.filter((c) => c.hostId === h.id).length,
      };
      if (discoveryPrefix !== null && !this.discovery.has(topic))
        this.announce(topic, hostDiscovery(discoveryPrefix, prefix, h), send);
      if (differs(this.hosts.get(topic), next) && this.room(1)) {
        send(topic, JSON.stringify(next));
        this.hosts.set(topic, next);
      }
    }
    for (const c of picture.containers) {
      const topic = containerStateTopic(prefix, c.hostId, c.name);
      seen.add(topic);
      const next: ContainerStatePayload = {
        state: c.state,
        health: c.health,
        cpu_percent: c.state === 'running' ? roundCpu(c.cpu) : null,
        memory_bytes: c.state === 'running' ? roundMemory(c.memory) : null,
        update_available: c.updateAvailable,
        image: c.image,
      };
      if (discoveryPrefix !== null && !this.discovery.has(topic))
        this.announce(topic, containerDiscovery(discoveryPrefix, prefix, c), send);
      const last = this.containers.get(topic);
      const due =
        meaningfulChange(last?.payload, next) ||
        (last !== undefined && now - last.at >= this.opts.staleMs && differs(last.payload, next));
      if (due && this.room(1)) {
        send(topic, JSON.stringify(next));
        this.containers.set(topic, { payload: next, at: now });
      }
    }
    this.clearGone(seen, send);
    return sent;
  }

  /** Clears every topic published so far (MQTT turned off or its prefixes changed). */
  clearAll(): number {
    this.left = Number.POSITIVE_INFINITY;
    return this.clearGone(new Set(), (topic, payload, qos) =>
      this.sink.publish(topic, payload, { retain: true, qos: qos ?? 0 }),
    );
  }

  private announce(
    stateTopic: string,
    messages: { topic: string; payload: Record<string, unknown> }[],
    send: (topic: string, payload: string, qos?: 0 | 1) => void,
  ): void {
    if (!this.room(messages.length)) return;
    for (const m of messages) send(m.topic, JSON.stringify(m.payload), 1);
    this.discovery.set(
      stateTopic,
      messages.map((m) => m.topic),
    );
  }

  /** Whether `n` more messages fit in this pass; if not, the rest is left pending. */
  private room(n: number): boolean {
    if (this.left >= n) return true;
    this.pending = true;
    return false;
  }

  private clearGone(
    seen: Set<string>,
    send: (topic: string, payload: string, qos?: 0 | 1) => void,
  ): number {
    let sent = 0;
    const gone = (topic: string) => {
      if (seen.has(topic) || !this.room(1 + (this.discovery.get(topic)?.length ?? 0))) return false;
      send(topic, '', 1);
      sent++;
      for (const d of this.discovery.get(topic) ?? []) {
        send(d, '', 1);
        sent++;
      }
      this.discovery.delete(topic);
      return true;
    };
    for (const topic of [...this.containers.keys()]) if (gone(topic)) this.containers.delete(topic);
    for (const topic of [...this.hosts.keys()]) if (gone(topic)) this.hosts.delete(topic);
    return sent;
  }
}
