import {
  Agent as HttpAgent,
  type ClientRequest,
  type ClientRequestArgs,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import { inspect } from 'node:util';
import type { EngineDialer } from './agent-tunnel.js';
import { EngineError } from './engine-errors.js';

// `addRequest` is how Node's http client hands a request to its agent; it is stable but
// missing from @types/node. Hooking it gives the agent the request, not only the socket.
declare module 'node:http' {
  interface Agent {
    addRequest(req: ClientRequest, options: object): void;
  }
}

/** Bounds on one engine request; every call gets all of them (streams skip the answer caps). */
export interface EngineLimits {
  /** TCP (and TLS handshake) or unix socket connect. */
  connectTimeoutMs: number;
  /** From the connected request until the response headers. */
  firstByteTimeoutMs: number;
  /** Silence allowed inside a buffered answer once its headers came. */
  idleTimeoutMs: number;
  /** Largest buffered (non-streaming) answer body. */
  maxAnswerBytes: number;
}

/** Wording of the limits, shared with the tests and the event stream. */
export const silentEngineMessage = (ms: number) =>
  `Engine did not answer within ${Math.round(ms / 1000)} s`;
export const ANSWER_TOO_LARGE = 'Engine answer too large';

/** A connect that did not complete: described like the OS's own ETIMEDOUT. */
class ConnectTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
}

/**
 * Arms the timers of one request: connect, then first byte (response headers or an
 * upgrade), then for buffered answers an idle timer and the body cap. Failing destroys
 * the request with the reason, which docker-modem passes to the caller.
 */
function guardRequest(req: ClientRequest, limits: EngineLimits, buffered: boolean): void {
  const timers = new Set<NodeJS.Timeout>();
  const arm = (ms: number, err: () => Error) => {
    const timer = setTimeout(() => req.destroy(err()), ms);
    timers.add(timer);
    return timer;
  };
  const disarm = (timer: NodeJS.Timeout) => {
    clearTimeout(timer);
    timers.delete(timer);
  };
  const connectTimer = arm(
    limits.connectTimeoutMs,
    () => new ConnectTimeoutError(`Could not connect within ${limits.connectTimeoutMs} ms`),
  );
  let firstByteTimer: NodeJS.Timeout | undefined;
  let hasAnswered = false;
  const connected = () => {
    // A socket may report its connect after the answer came (an agent's tunnel): no timer then.
    if (hasAnswered) return;
    disarm(connectTimer);
    firstByteTimer = arm(
      limits.firstByteTimeoutMs,
      () => new EngineError(silentEngineMessage(limits.firstByteTimeoutMs)),
    );
  };
  req.once('socket', (socket) => {
    if (req.reusedSocket || !socket.connecting) connected();
    else socket.once(socket instanceof TLSSocket ? 'secureConnect' : 'connect', connected);
  });
  const answered = () => {
    hasAnswered = true;
    disarm(connectTimer);
    if (firstByteTimer !== undefined) disarm(firstByteTimer);
  };
  req.once('upgrade', answered);
  req.once('response', (res: IncomingMessage) => {
    answered();
    if (buffered) capAnswer(req, res, limits, arm);
  });
  req.once('close', () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  });
}

/** Counts a buffered answer's bytes as they come; never lets it grow past the cap. */
function capAnswer(
  req: ClientRequest,
  res: IncomingMessage,
  limits: EngineLimits,
  arm: (ms: number, err: () => Error) => NodeJS.Timeout,
): void {
  const tooLarge = () => new EngineError(ANSWER_TOO_LARGE);
  if (Number(res.headers['content-length'] ?? 0) > limits.maxAnswerBytes) {
    req.destroy(tooLarge());
    return;
  }
  const idle = arm(
    limits.idleTimeoutMs,
    () => new EngineError(silentEngineMessage(limits.idleTimeoutMs)),
  );
  let received = 0;
  res.on('data', (chunk: Buffer) => {
    idle.refresh();
    received += chunk.length;
    if (received > limits.maxAnswerBytes) req.destroy(tooLarge());
  });
  // The request carries the error to the caller; this keeps a late one off the process.
  res.on('error', () => undefined);
}

/**
 * An http agent whose requests are guarded by `limits`; with `dial`, its connections are the
 * dialler's (an agent's tunnel) instead of a unix or TCP socket.
 */
export class GuardedHttpAgent extends HttpAgent {
  constructor(
    private readonly limits: EngineLimits,
    private readonly buffered: boolean,
    private readonly dial?: EngineDialer,
  ) {
    super({ keepAlive: true });
  }

  override createConnection(
    options: ClientRequestArgs,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    return this.dial === undefined ? super.createConnection(options, callback) : this.dial();
  }

  /**
   * docker-modem runs `util.inspect(options, { showHidden: true, depth: null })` on every
   * call, debug logging on or not, and the options hold this agent with its sockets: that
   * inspection was most of the server's CPU with fifty engines (bench/dashboard profile).
   */
  [inspect.custom](): string {
    return 'GuardedHttpAgent';
  }

  override addRequest(req: ClientRequest, options: object): void {
    guardRequest(req, this.limits, this.buffered);
    super.addRequest(req, options);
  }
}

/** The https flavour (mutual TLS engines); TLS material comes with each request. */
export class GuardedHttpsAgent extends HttpsAgent {
  constructor(
    private readonly limits: EngineLimits,
    private readonly buffered: boolean,
  ) {
    super({ keepAlive: true });
  }

  /**
   * docker-modem runs `util.inspect(options, { showHidden: true, depth: null })` on every
   * call, debug logging on or not, and the options hold this agent with its sockets: that
   * inspection was most of the server's CPU with fifty engines (bench/dashboard profile).
   */
  [inspect.custom](): string {
    return 'GuardedHttpsAgent';
  }

  override addRequest(req: ClientRequest, options: object): void {
    guardRequest(req, this.limits, this.buffered);
    super.addRequest(req, options);
  }
}
