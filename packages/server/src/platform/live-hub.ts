import type { LiveMessage, LiveProtocol, SpecLiveMessage } from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';

/** A browser connection: its socket, the session it was opened with, and what it shows. */
export interface LiveClient {
  socket: WebSocket;
  sessionKey: string;
  alive: boolean;
  /** The message shapes it asked for when it connected (docs/decisions/015). */
  protocol: LiveProtocol;
  /** Whether it shows container sparklines now (protocol 2 leaves them out if not). */
  containerSparklines: boolean;
}

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

  constructor(private readonly log: FastifyBaseLogger) {}

  get connectionCount(): number {
    return this.clients.size;
  }

  publish(message: LiveMessage): void {
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
    for (const client of this.clients) this.sendRaw(client, payload);
  }

  /**
   * Publishes a message that clients get in different forms (by protocol, with or without
   * container sparklines): `formOf` names a client's form, `build` makes it. Each form is built
   * and serialised once, and only if a client gets it.
   */
  publishByForm<F extends string>(
    formOf: (client: LiveClient) => F,
    build: (form: F) => LiveMessage | SpecLiveMessage,
  ): void {
    const texts = new Map<F, string>();
    for (const client of this.clients) {
      const form = formOf(client);
      let payload = texts.get(form);
      if (payload === undefined) texts.set(form, (payload = JSON.stringify(build(form))));
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
    options: { protocol: LiveProtocol; containerSparklines: boolean },
  ): LiveClient {
    const client: LiveClient = { socket, sessionKey, alive: true, ...options };
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
