import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import { Duplex } from 'node:stream';
import { AGENT_API_MAX_BODY_BYTES, type AgentCapability } from '@berth/contracts';
import { EngineError } from './engine-errors.js';

/**
 * Per-stream window: how much of one stream's answer may wait unread in Berth before the agent
 * stops reading that stream from its engine. The connection's window is much larger, so a
 * log stream nobody reads holds only its own window and never starves a stop.
 */
export const TUNNEL_STREAM_WINDOW = 256 * 1024;
export const TUNNEL_CONNECTION_WINDOW = 64 * 1024 * 1024;

/** The wording a caller sees when the agent's connection is gone. */
export const AGENT_NOT_CONNECTED = 'The agent is not connected';

/** Opens one connection to an engine that no address reaches, as a socket for an http agent. */
export type EngineDialer = () => Duplex;

export interface AgentTunnel {
  /** One HTTP/1.1 connection to the agent's engine, carried by a new HTTP/2 stream. */
  dial: EngineDialer;
  /**
   * A request to the agent itself (its paths are AGENT_API_PATHS): JSON in, JSON out. Fails
   * with an EngineError carrying the agent's `detail`, or "The agent is not connected".
   */
  request: (call: AgentCall) => Promise<unknown>;
  /** Settles once the connection under the tunnel is gone, whoever closed it. */
  closed: Promise<void>;
  close(): void;
  /** What the agent announced it runs next to its engine when it connected. */
  capabilities: readonly AgentCapability[];
}

export interface AgentCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** The whole call, answer read included. */
  timeoutMs: number;
}

/** An agent's answer that is not a 200: its status and its words. */
export class AgentCallError extends EngineError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Berth's end of an agent's connection: an HTTP/2 client session over `connection` (the
 * WebSocket's byte stream). Every engine connection is a CONNECT stream the agent pipes into
 * its local engine socket, so the bytes on it are the Engine API's own HTTP/1.1 and every
 * bound above (timeouts, caps, parsing) is the one the unix, TCP and TLS transports use.
 */
export function openAgentTunnel(
  connection: Duplex,
  capabilities: readonly AgentCapability[] = [],
  /** The session failed (the agent sent what is not HTTP/2, or broke its rules): for the log. */
  onError: (err: Error) => void = () => undefined,
): AgentTunnel {
  const session = connect('http://berth-agent', {
    createConnection: () => connection,
    settings: { initialWindowSize: TUNNEL_STREAM_WINDOW, enablePush: false },
  });
  session.once('connect', () => session.setLocalWindowSize(TUNNEL_CONNECTION_WINDOW));
  // A failed session closes; the streams on it fail on their own and callers hear of it there.
  session.on('error', onError);
  const closed = new Promise<void>((resolve) => session.once('close', resolve));
  // A WebSocket's stream only ends when the socket closes: either way the session is over.
  connection.once('end', () => session.destroy());
  connection.once('close', () => session.destroy());
  return {
    dial: () => new TunnelSocket(openStream(session)),
    request: (call) => requestAgent(session, call),
    closed,
    capabilities,
    close: () => {
      session.close();
      connection.destroy();
    },
  };
}

function requestAgent(session: ClientHttp2Session, call: AgentCall): Promise<unknown> {
  if (session.closed || session.destroyed)
    return Promise.reject(new EngineError(AGENT_NOT_CONNECTED));
  return new Promise((resolve, reject) => {
    let stream: ClientHttp2Stream;
    try {
      stream = session.request({
        ':method': call.method,
        ':path': call.path,
        'content-type': 'application/json',
      });
    } catch {
      reject(new EngineError(AGENT_NOT_CONNECTED));
      return;
    }
    const fail = (err: Error) => {
      reject(err);
      if (!stream.closed) stream.close(constants.NGHTTP2_CANCEL);
    };
    stream.setTimeout(call.timeoutMs, () =>
      fail(new EngineError(`The agent did not answer within ${call.timeoutMs} ms`)),
    );
    let status = 0;
    const chunks: Buffer[] = [];
    let size = 0;
    stream.once('response', (headers) => (status = Number(headers[':status'])));
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > AGENT_API_MAX_BODY_BYTES) fail(new EngineError('The agent answered too much'));
      else chunks.push(chunk);
    });
    stream.once('error', () => fail(new EngineError(AGENT_NOT_CONNECTED)));
    stream.once('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        fail(new EngineError('The agent answered something other than JSON'));
        return;
      }
      if (status === 200) resolve(body);
      else {
        const detail = (body as { detail?: unknown } | null)?.detail;
        fail(
          new AgentCallError(
            status,
            typeof detail === 'string' ? detail : `Agent answered ${status}`,
          ),
        );
      }
    });
    stream.end(call.body === undefined ? undefined : JSON.stringify(call.body));
  });
}

/** A connection that fails at once, as a call to an agent that is not connected does. */
export const agentNotConnected = (): Duplex =>
  new TunnelSocket(new EngineError(AGENT_NOT_CONNECTED));

function openStream(session: ClientHttp2Session): ClientHttp2Stream | EngineError {
  if (session.closed || session.destroyed) return new EngineError(AGENT_NOT_CONNECTED);
  try {
    return session.request(
      { ':method': 'CONNECT', ':authority': 'engine:0' },
      { endStream: false },
    );
  } catch {
    return new EngineError(AGENT_NOT_CONNECTED);
  }
}

/**
 * One tunnelled engine connection, shaped like the net.Socket Node's http client expects:
 * it is `connecting` until the agent answers the CONNECT (the guarded agent's connect timer
 * runs until then), and pauses its stream while the reader is behind, which lets HTTP/2's
 * flow control hold back the agent for this stream alone.
 */
class TunnelSocket extends Duplex {
  connecting = true;
  timeout = 0;
  private readonly stream: ClientHttp2Stream | null;

  constructor(stream: ClientHttp2Stream | EngineError) {
    super({ allowHalfOpen: false });
    if (stream instanceof EngineError) {
      this.stream = null;
      process.nextTick(() => this.destroy(stream));
      return;
    }
    this.stream = stream;
    const connected = () => {
      if (!this.connecting) return;
      this.connecting = false;
      this.emit('connect');
    };
    stream.once('response', (headers) => {
      const status = headers[':status'];
      if (status !== 200) {
        this.destroy(new EngineError(`The agent could not reach its engine (${status})`));
        return;
      }
      connected();
    });
    stream.on('data', (chunk: Buffer) => {
      // Node may hand over the first bytes before it emits 'response' (seen with a fast
      // engine under load). The agent sends bytes only after its 200, so they mean connected;
      // an answer read before 'connect' made the request guard arm its first-byte timer after
      // the answer, and that cut every long stream (events, followed logs) after its timeout.
      connected();
      if (!this.push(chunk)) stream.pause();
    });
    stream.once('end', () => this.push(null));
    stream.once('error', (err: Error) => this.destroy(err));
    stream.once('close', () => {
      if (stream.rstCode !== constants.NGHTTP2_NO_ERROR && !this.destroyed)
        this.destroy(new EngineError(AGENT_NOT_CONNECTED));
    });
  }

  override _read(): void {
    this.stream?.resume();
  }

  override _write(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: (err?: Error | null) => void,
  ): void {
    if (this.stream === null) done(new EngineError(AGENT_NOT_CONNECTED));
    else this.stream.write(chunk, done);
  }

  override _final(done: (err?: Error) => void): void {
    if (this.stream === null) done();
    else this.stream.end(() => done());
  }

  override _destroy(err: Error | null, done: (err: Error | null) => void): void {
    const stream = this.stream;
    // A stream of a session already gone has nothing to cancel (closing it then trips Node).
    if (stream !== null && !stream.closed && !stream.destroyed) {
      if (stream.session === undefined || stream.session.destroyed) stream.destroy();
      else stream.close(constants.NGHTTP2_CANCEL);
    }
    done(err);
  }

  // What Node's http client and keep-alive agent call on their sockets; a stream has no
  // TCP options, and its idle timer is the HTTP/2 stream's.
  setKeepAlive(): this {
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  setTimeout(ms: number, onTimeout?: () => void): this {
    this.timeout = ms;
    this.stream?.setTimeout(ms, () => this.emit('timeout'));
    if (onTimeout !== undefined) this.once('timeout', onTimeout);
    return this;
  }
}
