import type { ServerHttp2Session } from 'node:http2';
import WebSocket from 'ws';
import type { AgentHandlers } from './agent-api.js';
import { serveEngine } from './engine-tunnel.js';
import { retryAfterDelayMs } from './retry-after.js';
import { webSocketBytes } from './websocket-bytes.js';
import { describeConnectError } from './tls.js';

export interface ConnectOptions {
  /** Berth's connect endpoint, `wss://…/api/agents/connect` (ws:// for tests and loopback). */
  url: string;
  /** Credentials travel in headers only, never in the URL. */
  headers: Record<string, string>;
  /** The local engine's unix socket. */
  socketPath: string;
  /** How long the WebSocket handshake may take. */
  handshakeTimeoutMs?: number;
  /** The CAs Berth's certificate is checked against (wss://); Node's own store otherwise. */
  ca?: string[];
  /** Engine requests other than reads answer 403 (BERTH_AGENT_READ_ONLY). */
  readOnly?: boolean;
  onStreamError?: (message: string) => void;
  /** What the agent answers Berth's requests to itself with (see agent-api.ts). */
  handlers?: AgentHandlers;
}

export interface AgentConnection {
  socket: WebSocket;
  session: ServerHttp2Session;
  /** Settles with the close code and reason once the connection is gone. */
  closed: Promise<{ code: number; reason: string }>;
}

/** A refused or failed handshake, with Berth's status when it answered one. */
export class ConnectError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** How long Berth asked the agent to wait (a 429's Retry-After); undefined: its own backoff. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/**
 * Dials Berth and serves its engine requests over the one WebSocket: the socket's bytes
 * are an HTTP/2 session in which Berth is the client. Resolves once the socket is open.
 */
export function connectToBerth(options: ConnectOptions): Promise<AgentConnection> {
  const socket = new WebSocket(options.url, {
    headers: options.headers,
    handshakeTimeout: options.handshakeTimeoutMs ?? 10_000,
    perMessageDeflate: false,
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      const retryAfterMs = retryAfterDelayMs(res.headers['retry-after']) ?? undefined;
      socket.terminate();
      reject(new ConnectError(`Berth refused the connection (${status})`, status, retryAfterMs));
    });
    socket.once('error', (err) => reject(new ConnectError(describeConnectError(err))));
    socket.once('open', () => {
      const stream = webSocketBytes(socket);
      stream.on('error', () => undefined); // the socket's close is the one report
      const session = serveEngine(stream, {
        socketPath: options.socketPath,
        ...(options.onStreamError ? { onStreamError: options.onStreamError } : {}),
        ...(options.handlers ? { handlers: options.handlers } : {}),
        ...(options.readOnly ? { readOnly: true } : {}),
      });
      // The socket's stream only ends when it closes: the session and every engine
      // connection piped through it go with it, whatever a reconnect brings next.
      socket.once('close', () => session.destroy());
      resolve({ socket, session, closed });
    });
  });
}
