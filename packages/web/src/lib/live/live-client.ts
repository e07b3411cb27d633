import {
  LIVE_PROTOCOL_DELTAS,
  LIVE_PROTOCOL_PARAM,
  liveMessageSchema,
  type ClientLiveMessage,
  type LiveMessage,
} from '@berth/contracts';
import { noteReached } from '../last-reached';
import { safeParseWith } from '../schema-check';

export type LiveStatus = 'connecting' | 'connected' | 'disconnected' | 'error';

/** Reconnect and liveness constants, as the spec's client has them. */
export const RECONNECT_BASE_MS = 3000;
export const RECONNECT_FACTOR = 1.5;
export const RECONNECT_CAP_MS = 30_000;
export const RECONNECT_MAX_ATTEMPTS = 10;
export const PING_INTERVAL_MS = 30_000;
export const PONG_TIMEOUT_MS = 5000;

/** Delay before reconnect attempt `attempt` (0-based): 3000, 4500, 6750, … capped at 30000. */
export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT_CAP_MS, RECONNECT_BASE_MS * RECONNECT_FACTOR ** attempt);
}

/** The part of WebSocket the client uses, so tests can hand in a fake. */
export interface SocketLike {
  onopen: ((ev: Event) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  send(data: string): void;
  close(): void;
}

export interface LiveClientOptions {
  url: () => string;
  onMessage: (message: LiveMessage) => void;
  onStatus: (status: LiveStatus) => void;
  createSocket?: (url: string) => SocketLike;
  log?: Pick<Console, 'warn' | 'error'>;
}

/**
 * The URL of the live channel on this page's host: wss when the page is https, the protocol
 * with containers_update as deltas (without it the server sends the spec's full messages), and
 * whether container sparklines are wanted from the start.
 */
export function liveUrl(
  location: Pick<Location, 'protocol' | 'host'> = window.location,
  containerSparklines = true,
): string {
  let query = `?${LIVE_PROTOCOL_PARAM}=${LIVE_PROTOCOL_DELTAS}`;
  if (!containerSparklines) query += '&sparklines=0';
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/${query}`;
}

/**
 * The browser end of the live channel: connects, pings every 30 s and reconnects when a
 * pong is 5 s late, and after a close retries with exponential backoff (10 attempts).
 */
export class LiveClient {
  private socket: SocketLike | null = null;
  private attempts = 0;
  private stopped = true;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private pongTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly log: Pick<Console, 'warn' | 'error'>;

  constructor(private readonly options: LiveClientOptions) {
    this.log = options.log ?? console;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.attempts = 0;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.stopPing();
    const socket = this.socket;
    this.socket = null;
    if (socket !== null) {
      socket.onclose = null;
      socket.close();
    }
    this.options.onStatus('disconnected');
  }

  /** Sends when connected; a message while disconnected is dropped (a reconnect starts full). */
  send(message: ClientLiveMessage): void {
    try {
      this.socket?.send(JSON.stringify(message));
    } catch {
      // not open yet or closing: the next connection starts with a full state anyway
    }
  }

  private connect(): void {
    this.options.onStatus('connecting');
    const create = this.options.createSocket ?? ((url: string) => new WebSocket(url));
    const socket = create(this.options.url());
    this.socket = socket;
    socket.onopen = () => {
      this.attempts = 0;
      this.options.onStatus('connected');
      this.startPing();
    };
    socket.onmessage = (ev) => {
      noteReached(); // for the offline screen's "last reached" (pongs included)
      this.receive(ev.data);
    };
    socket.onerror = () => this.options.onStatus('error');
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.stopPing();
      this.options.onStatus('disconnected');
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.attempts >= RECONNECT_MAX_ATTEMPTS) return;
    const delay = reconnectDelay(this.attempts++);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private startPing(): void {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      this.socket?.send(JSON.stringify({ type: 'ping' }));
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => this.socket?.close(), PONG_TIMEOUT_MS);
    }, PING_INTERVAL_MS);
  }

  private stopPing(): void {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
  }

  private receive(data: unknown): void {
    let raw: unknown;
    try {
      raw = JSON.parse(String(data));
    } catch {
      this.log.error('live: malformed message ignored');
      return;
    }
    const parsed = safeParseWith(liveMessageSchema, raw);
    if (!parsed.success) {
      const type = (raw as { type?: unknown } | null)?.type;
      if (typeof type === 'string' && !knownTypes().has(type))
        this.log.warn(`live: unknown message type ${type}`);
      else this.log.error('live: malformed message ignored');
      return;
    }
    if (parsed.data.type === 'pong') clearTimeout(this.pongTimer);
    this.options.onMessage(parsed.data);
  }
}

let known: Set<string> | undefined;
/**
 * The message types the contracts define. Built when first needed: reading the schema builds
 * it (contracts' lazySchema), which at module load cost the first render ~20 ms.
 */
const knownTypes = () =>
  (known ??= new Set<string>(liveMessageSchema.options.map((o) => o.shape.type.value)));
