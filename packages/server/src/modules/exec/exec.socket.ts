import { EXEC_CLOSE, EXEC_PATH, type ExecServerMessage, type UserRole } from '@berth/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { clientOf } from '../auth/index.js';
import type { ExecSession } from './exec-session.js';
import { ExecRefusal, ExecService, type ExecCaller } from './exec.service.js';

/** How long the browser has to send its `start` after the socket opened. */
const START_WITHIN_MS = 15_000;

export interface ExecChannelOptions {
  exec: ExecService;
  /**
   * The signed-in user of the upgrade request (the session cookie, as the live channel reads
   * it) and the hosts they reach, or a reason to refuse.
   */
  authorize: (
    request: FastifyRequest,
  ) => Promise<
    | { username: string; role: UserRole; reachesHost: (hostId: string) => boolean }
    | { refused: string }
  >;
}

/**
 * The container shell's WebSocket, beside the live channel (whose registration brings the
 * WebSocket plugin, and whose origin check covers every upgrade): one socket, one session.
 * `?host=<id>&container=<id>`; then the browser's `start` message, input and resizes.
 */
export function registerExecChannel(app: FastifyInstance, opts: ExecChannelOptions): void {
  app.addHook('preClose', (done) => {
    opts.exec.closeAll().then(
      () => done(),
      () => done(),
    );
  });
  app.get(EXEC_PATH, { websocket: true }, (socket: WebSocket, request: FastifyRequest) => {
    handle(socket, request, opts).catch((err: unknown) => {
      request.log.warn({ err }, 'a container shell socket failed');
      refuse(socket, 'The shell could not start', EXEC_CLOSE.failed);
    });
  });
}

async function handle(socket: WebSocket, request: FastifyRequest, opts: ExecChannelOptions) {
  // Messages may arrive while the session is checked: they wait, in order, for it.
  const early: unknown[] = [];
  let session: ExecSession | null = null;
  let onFirst: ((raw: unknown) => void) | null = null;
  // Set by the close listener while this function awaits (an object: TS cannot see that).
  const socketState = { gone: false };
  const isGone = () => socketState.gone;
  socket.on('message', (data: RawData, isBinary: boolean) => {
    const raw = parse(data, isBinary);
    if (onFirst !== null) {
      const first = onFirst;
      onFirst = null;
      first(raw);
    } else if (session === null) early.push(raw);
    else route(session, raw, socket);
  });
  socket.once('close', () => {
    socketState.gone = true;
    onFirst?.(null);
    // A dropped socket ends the session; the process is killed (exec-session.ts).
    session?.finish('closed').catch(() => undefined);
  });

  const who = await opts.authorize(request);
  if ('refused' in who) {
    refuse(socket, who.refused, EXEC_CLOSE.refused);
    return;
  }
  const query = request.query as Record<string, unknown>;
  const hostId = typeof query.host === 'string' ? query.host : '';
  const containerId = typeof query.container === 'string' ? query.container : '';
  if (hostId === '' || containerId === '') {
    refuse(socket, 'host: Required; container: Required', EXEC_CLOSE.refused);
    return;
  }
  const client = clientOf(request);
  const caller: ExecCaller = { ...who, address: client.address, userAgent: client.userAgent };
  let target;
  try {
    target = opts.exec.target(caller, hostId, containerId);
  } catch (err) {
    if (err instanceof ExecRefusal) {
      refuse(socket, err.message, EXEC_CLOSE.refused);
      return;
    }
    throw err;
  }
  const first =
    early.length > 0
      ? early.shift()
      : await new Promise<unknown>((resolve) => {
          const timer = setTimeout(() => resolve(null), START_WITHIN_MS);
          onFirst = (raw) => {
            clearTimeout(timer);
            resolve(raw);
          };
        });
  if (isGone()) return;
  if (first === null) {
    refuse(socket, 'No start message came', EXEC_CLOSE.refused);
    return;
  }
  const peer = {
    send: (message: ExecServerMessage) => send(socket, message),
    sendOutput: (chunk: Buffer, done: () => void) => {
      if (socket.readyState !== socket.OPEN) {
        done();
        return;
      }
      socket.send(chunk, { binary: true }, () => done());
    },
    close: () => {
      if (socket.readyState === socket.OPEN) socket.close(EXEC_CLOSE.normal);
    },
  };
  const started = await opts.exec.start(caller, target, first, peer);
  if (started === null) return;
  session = started;
  if (isGone()) {
    await started.finish('closed');
    return;
  }
  for (const raw of early.splice(0)) route(started, raw, socket);
}

function route(session: ExecSession, raw: unknown, socket: WebSocket): void {
  const message = ExecService.control(raw);
  if (message === null) {
    send(socket, { type: 'error', detail: 'message: not understood (input or resize expected)' });
    return;
  }
  if (message.type === 'input') session.write(message.data);
  else if (message.type === 'resize')
    session.resize(message.cols, message.rows).catch(() => undefined);
}

function parse(data: RawData, isBinary: boolean): unknown {
  const bytes = Array.isArray(data)
    ? Buffer.concat(data)
    : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data);
  // Binary messages are raw input (a paste of bytes); text ones are JSON.
  if (isBinary) return { type: 'input', data: bytes.toString('utf8') };
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return { type: 'malformed' };
  }
}

function send(socket: WebSocket, message: ExecServerMessage): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

function refuse(socket: WebSocket, detail: string, code: number): void {
  send(socket, { type: 'error', detail });
  if (socket.readyState === socket.OPEN) socket.close(code);
}
