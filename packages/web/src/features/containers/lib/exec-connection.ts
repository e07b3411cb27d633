import {
  EXEC_INPUT_CHUNK,
  EXEC_PATH,
  execServerMessageSchema,
  type ExecClientMessage,
  type ExecServerMessage,
} from '@berth/contracts';

/** Where a shell session stands, as the tab shows it. */
export type ExecStatus =
  | { kind: 'idle' }
  | { kind: 'connecting' }
  | { kind: 'open'; command: string[]; idleMinutes: number }
  | { kind: 'ended'; detail: string; failed: boolean };

export interface ExecConnectionHandlers {
  /** The terminal's bytes, as they came. */
  onOutput: (bytes: Uint8Array) => void;
  onStatus: (status: ExecStatus) => void;
  /** A message the server refused while the session goes on. */
  onNotice: (detail: string) => void;
}

export interface ExecTarget {
  hostId: string;
  containerId: string;
  command: string;
  user: string;
  cols: number;
  rows: number;
}

/**
 * One container shell session over its own WebSocket (same origin: the session cookie goes
 * with it). Input goes in pieces the server takes; a socket that closes without the server's
 * word (network, server stop) is reported as a lost connection.
 */
export class ExecConnection {
  private readonly socket: WebSocket;
  private settled = false;
  private started = false;

  constructor(target: ExecTarget, handlers: ExecConnectionHandlers) {
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    const query = new URLSearchParams({ host: target.hostId, container: target.containerId });
    this.socket = new WebSocket(`${scheme}://${window.location.host}${EXEC_PATH}?${query}`);
    this.socket.binaryType = 'arraybuffer';
    handlers.onStatus({ kind: 'connecting' });
    this.socket.onopen = () => {
      this.send({
        type: 'start',
        command: target.command,
        user: target.user,
        cols: target.cols,
        rows: target.rows,
      });
    };
    this.socket.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
      if (typeof event.data !== 'string') {
        handlers.onOutput(new Uint8Array(event.data));
        return;
      }
      const message = parse(event.data);
      if (message === null) return;
      if (message.type === 'started')
        handlers.onStatus({
          kind: 'open',
          command: message.command,
          idleMinutes: message.idle_minutes,
        });
      else if (message.type === 'ended') {
        this.settled = true;
        handlers.onStatus({ kind: 'ended', detail: message.detail, failed: false });
      } else if (message.type === 'error') {
        // A refused start closes the socket; a refused later message leaves the session on.
        if (this.started) handlers.onNotice(message.detail);
        else {
          this.settled = true;
          handlers.onStatus({ kind: 'ended', detail: message.detail, failed: true });
        }
      }
      if (message.type === 'started') this.started = true;
    };
    this.socket.onclose = () => {
      if (this.settled) return;
      this.settled = true;
      handlers.onStatus({
        kind: 'ended',
        detail: 'The connection to Berth was lost; the shell was ended',
        failed: true,
      });
    };
  }

  /** What the user typed or pasted; a long paste goes in several messages. */
  input(data: string): void {
    for (let i = 0; i < data.length; i += EXEC_INPUT_CHUNK)
      this.send({ type: 'input', data: data.slice(i, i + EXEC_INPUT_CHUNK) });
  }

  resize(cols: number, rows: number): void {
    this.send({ type: 'resize', cols, rows });
  }

  /** Ends the session: the server kills the shell when its socket closes. */
  close(): void {
    this.settled = true;
    if (
      this.socket.readyState === WebSocket.CONNECTING ||
      this.socket.readyState === WebSocket.OPEN
    )
      this.socket.close(1000);
  }

  private send(message: ExecClientMessage): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }
}

function parse(text: string): ExecServerMessage | null {
  try {
    return execServerMessageSchema.safeParse(JSON.parse(text)).data ?? null;
  } catch {
    return null;
  }
}
