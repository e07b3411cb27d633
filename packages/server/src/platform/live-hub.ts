import type { LiveMessage, LiveProtocol, SpecLiveMessage } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { audienceOf, liveScope, scopeGets, type LiveScope } from './live-scope.js';

/** A browser connection: its socket, the session it was opened with, and what it shows. */
export interface LiveClient {
  socket: WebSocket;
  sessionKey: string;
  alive: boolean;
  /** The message shapes it asked for when it connected (docs/decisions/015). */
  protocol: LiveProtocol;
  /** Whether it shows container sparklines now (protocol 2 leaves them out if not). */
  containerSparklines: boolean;
  /** The signed-in user, whose changes of role, tags or state reach its open sockets. */
  userId: number | null;
  /** The hosts its user reaches; null for every host (docs/decisions/034). */
  scope: LiveScope | null;
}

/** A client's host tags as its user has them: null for every host. */
export type HostTags = ReadonlySet<string> | null;

/** A slow browser that falls this far behind is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
export const POLICY_VIOLATION = 1008;
export const GOING_AWAY = 1001;
const CLOSE_GRACE_MS = 1000;

/**
 * Fans live messages out to every connected browser. Domain modules publish typed
 * messages; the hub only serialises them once and sends.
 */
export class LiveHub {
  private readonly clients = new Set<LiveClient>();
  private readonly connectionListeners = new Set<(count: number) => void>();
  /** Server-side listeners (MQTT's alert events): they hear every message, browsers or not. */
  private readonly taps = new Set<(message: LiveMessage) => void>();
  /** Told when a client's reach changed: it needs its state again, in its new scope. */
  private readonly rescopeListeners = new Set<(client: LiveClient) => void>();
  private tagsOf: (hostId: string) => readonly string[] = () => [];

  constructor(private readonly log: FastifyBaseLogger) {}

  get connectionCount(): number {
    return this.clients.size;
  }

  /** Where the hub reads a host's tags to tell whether a scoped client reaches it. */
  useHostTags(tagsOf: (hostId: string) => readonly string[]): void {
    this.tagsOf = tagsOf;
  }

  /** The scope of clients with these tags (null: every host). */
  scopeOf(tags: HostTags): LiveScope | null {
    return tags === null ? null : liveScope(tags, (hostId) => this.tagsOf(hostId));
  }

  /**
   * Sends a message to every client it concerns: one naming a host only to clients whose
   * scope reaches it. `hostIds` names the hosts of a message that carries none itself (a
   * batch job's summary); without them such a message goes to unscoped clients only.
   */
  publish(message: LiveMessage, hostIds?: readonly string[]): void {
    // A failing server-side listener must not keep the message from browsers.
    for (const tap of this.taps) {
      try {
        tap(message);
      } catch (err) {
        this.log.error({ err }, 'live message listener failed');
      }
    }
    if (this.clients.size === 0) return;
    const payload = JSON.stringify(message);
    const audience = hostIds ?? audienceOf(message);
    // One verdict per scope, not per client; unscoped clients cost what they did.
    const verdicts = new Map<string, boolean>();
    for (const client of this.clients) {
      const { scope } = client;
      if (scope !== null) {
        let gets = verdicts.get(scope.key);
        if (gets === undefined) verdicts.set(scope.key, (gets = scopeGets(scope, audience)));
        if (!gets) continue;
      }
      this.sendRaw(client, payload);
    }
  }

  /**
   * Publishes a message that clients get in different forms (by protocol, with or without
   * container sparklines) and scopes (the hosts its user reaches): `formOf` names a client's
   * form, `build` makes it for a scope (null: every host). Each form of each scope is built and
   * serialised once, and only if a client gets it.
   */
  publishByForm<F extends string>(
    formOf: (client: LiveClient) => F,
    build: (form: F, scope: LiveScope | null) => LiveMessage | SpecLiveMessage,
  ): void {
    const texts = new Map<string, string>();
    for (const client of this.clients) {
      const form = formOf(client);
      const { scope } = client;
      const key = scope === null ? form : `${form} ${scope.key}`;
      let payload = texts.get(key);
      if (payload === undefined) texts.set(key, (payload = JSON.stringify(build(form, scope))));
      this.sendRaw(client, payload);
    }
  }

  /** Hears every message given to `publish`; answers how to stop. */
  tap(listener: (message: LiveMessage) => void): () => void {
    this.taps.add(listener);
    return () => this.taps.delete(listener);
  }

  /** Sends to one socket only (initial_state, pong). */
  sendTo(socket: WebSocket, message: LiveMessage | SpecLiveMessage): void {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  }

  add(
    socket: WebSocket,
    sessionKey: string,
    options: {
      protocol: LiveProtocol;
      containerSparklines: boolean;
      userId?: number;
      hostTags?: HostTags;
    },
  ): LiveClient {
    const client: LiveClient = {
      socket,
      sessionKey,
      alive: true,
      protocol: options.protocol,
      containerSparklines: options.containerSparklines,
      userId: options.userId ?? null,
      scope: this.scopeOf(options.hostTags ?? null),
    };
    this.clients.add(client);
    socket.on('pong', () => (client.alive = true));
    socket.on('close', () => {
      this.clients.delete(client);
      this.notifyConnections();
    });
    this.notifyConnections();
    return client;
  }

  /** Closes every socket opened with this session (after logout or a password change). */
  closeSession(sessionKey: string, reason = 'Signed out'): void {
    for (const client of this.clients) {
      if (client.sessionKey === sessionKey) client.socket.close(POLICY_VIOLATION, reason);
    }
  }

  /**
   * A user's role, tags or state changed: its open sockets take the new scope at once (those
   * whose reach changed are told to listeners, which send the state again) and hear that the
   * account changed, or close if the user is gone or disabled.
   */
  userChanged(userId: number, hostTags: HostTags | 'gone'): void {
    for (const client of this.clients) {
      if (client.userId !== userId) continue;
      if (hostTags === 'gone') {
        client.socket.close(POLICY_VIOLATION, 'Account disabled');
        continue;
      }
      this.rescope(client, this.scopeOf(hostTags));
      this.sendTo(client.socket, { type: 'account_changed', data: {} });
    }
  }

  /**
   * Which hosts a tag set reaches changed (a host's tags changed, a host went): every scoped
   * client gets its state again, as its deltas no longer follow from what it holds.
   */
  reachChanged(): void {
    for (const client of this.clients)
      if (client.scope !== null) this.rescope(client, client.scope, true);
  }

  /** Hears a client whose reach changed; answers how to stop. */
  onRescope(listener: (client: LiveClient) => void): () => void {
    this.rescopeListeners.add(listener);
    return () => this.rescopeListeners.delete(listener);
  }

  /** Sets a client's scope; unless `always`, listeners hear only of one that differs. */
  private rescope(client: LiveClient, scope: LiveScope | null, always = false): void {
    if (!always && scope?.key === client.scope?.key) return;
    client.scope = scope;
    for (const listener of this.rescopeListeners) listener(client);
  }

  /**
   * Closes the sockets whose session has ended (expired, deleted) since they connected;
   * each distinct session is asked once.
   */
  async closeEndedSessions(isSessionAlive: (sessionKey: string) => Promise<boolean>) {
    const keys = new Set([...this.clients].map((client) => client.sessionKey));
    for (const key of keys) {
      if (!(await isSessionAlive(key))) this.closeSession(key, 'Session expired');
    }
  }

  /** Protocol-level heartbeat: a socket that missed the previous ping is terminated. */
  sweep(): void {
    for (const client of this.clients) {
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      client.socket.ping();
    }
  }

  /** Lets monitors slow down when no browser is watching. */
  onConnectionCountChange(listener: (count: number) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  /**
   * Going away (1001), so browsers reconnect to the next instance. A socket that has not
   * answered the close within a second is cut: the stop does not wait on a silent peer.
   */
  closeAll(): void {
    const sockets = [...this.clients].map((client) => client.socket);
    for (const socket of sockets) socket.close(GOING_AWAY, 'Server shutting down');
    setTimeout(() => {
      for (const socket of sockets) if (socket.readyState !== socket.CLOSED) socket.terminate();
    }, CLOSE_GRACE_MS).unref();
  }

  private sendRaw(client: LiveClient, payload: string): void {
    const { socket } = client;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.log.warn('dropping a live client that cannot keep up');
      socket.terminate();
      return;
    }
    socket.send(payload);
  }

  private notifyConnections(): void {
    for (const listener of this.connectionListeners) listener(this.clients.size);
  }
}
