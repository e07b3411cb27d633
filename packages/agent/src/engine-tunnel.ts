import {
  constants,
  createServer,
  type IncomingHttpHeaders,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from 'node:http2';
import { connect as connectSocket } from 'node:net';
import type { Duplex } from 'node:stream';
import { serveAgentRequest, type AgentHandlers } from './agent-api.js';
import { describeSocketError } from './engine-socket.js';
import { readOnlyEngine, type ReadOnlyEngine } from './read-only-engine.js';

/** Windows matching Berth's end: a stream Berth does not read holds only its own window. */
const STREAM_WINDOW = 256 * 1024;
const CONNECTION_WINDOW = 64 * 1024 * 1024;
/** The local engine socket answers in microseconds; a dead one must not hold a stream. */
const ENGINE_CONNECT_TIMEOUT_MS = 10_000;

export interface EngineTunnelOptions {
  /** The local engine's unix socket. */
  socketPath: string;
  /** A stream that could not be served (no engine). */
  onStreamError?: (message: string) => void;
  /** Requests to the agent itself (any method but CONNECT), by `METHOD path`. */
  handlers?: AgentHandlers;
  /** Only GET and HEAD reach the engine; every other request answers 403 (read-only-engine.ts). */
  readOnly?: boolean;
}

/**
 * The agent's end of its connection to Berth: an HTTP/2 server session over `connection`.
 * Berth opens one CONNECT stream per engine connection; each is piped, byte for byte, into a
 * new connection to the local engine socket. HTTP/2's per-stream flow control holds back a
 * stream Berth reads slowly (a followed log) without holding back any other.
 */
export function serveEngine(connection: Duplex, options: EngineTunnelOptions): ServerHttp2Session {
  const server = createServer({
    settings: { initialWindowSize: STREAM_WINDOW, enablePush: false },
  });
  let session: ServerHttp2Session | undefined;
  server.once('session', (s) => {
    session = s;
    s.once('connect', () => s.setLocalWindowSize(CONNECTION_WINDOW));
    // A failed session closes; the connection's owner hears of it through the socket.
    s.on('error', () => undefined);
  });
  const reads = options.readOnly ? readOnlyEngine(options.socketPath) : null;
  server.on('stream', (stream, headers) => {
    forward(stream, headers, options, reads);
  });
  server.emit('connection', connection);
  if (session === undefined) throw new Error('HTTP/2 session did not start');
  session.once('close', () => reads?.close());
  return session;
}

function forward(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  options: EngineTunnelOptions,
  reads: ReadOnlyEngine | null,
): void {
  stream.on('error', () => undefined); // a reset by Berth ends the pipe below, nothing more
  if (headers[':method'] !== 'CONNECT') {
    serveAgentRequest(stream, headers, options.handlers ?? new Map());
    return;
  }
  if (reads !== null) {
    stream.respond({ ':status': 200 });
    reads.serve(stream);
    return;
  }
  const engine = connectSocket(options.socketPath);
  engine.setTimeout(ENGINE_CONNECT_TIMEOUT_MS, () =>
    engine.destroy(new Error(`No answer from ${options.socketPath}`)),
  );
  engine.once('connect', () => {
    engine.setTimeout(0);
    if (stream.closed) {
      engine.destroy();
      return;
    }
    stream.respond({ ':status': 200 });
    stream.pipe(engine);
    engine.pipe(stream);
  });
  engine.once('error', (err) => {
    options.onStreamError?.(describeSocketError(err, options.socketPath));
    if (stream.closed) return;
    if (stream.headersSent) stream.close(constants.NGHTTP2_INTERNAL_ERROR);
    else stream.respond({ ':status': 502 }, { endStream: true });
  });
  stream.once('close', () => engine.destroy());
}
