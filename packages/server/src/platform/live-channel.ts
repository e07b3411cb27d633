import {
  clientLiveMessageSchema,
  LIVE_PROTOCOL_DELTAS,
  liveChannelQuerySchema,
  liveProtocolOf,
  type ClientLiveMessage,
  type LiveMessageOf,
  type SpecLiveMessage,
} from '@berth/contracts';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData } from 'ws';
import { POLICY_VIOLATION, type HostTags, type LiveClient, type LiveHub } from './live-hub.js';

const HEARTBEAT_MS = 30_000;
/** How soon a socket notices that its session expired or was deleted. */
const SESSION_CHECK_MS = 60_000;
const MAX_MESSAGE_BYTES = 4096;
/**
 * permessage-deflate at zlib level 1 for messages above 1 KB: ~80 % fewer bytes for ~0.5 ms of
 * CPU per message and browser (bench/ws-deflate); pings and small messages go as they are.
 * docs/decisions/010-speed-first-screen-deltas-compression.md
 */
const LIVE_DEFLATE = { threshold: 1024, zlibDeflateOptions: { level: 1 } };

export interface LiveChannelOptions {
  hub: LiveHub;
  /**
   * Resolves the signed-in session of the upgrade request (its key, user and the host tags
   * that user reaches, null for every host), or a reason to refuse.
   */
  authorize: (
    request: FastifyRequest,
  ) => Promise<{ sessionKey: string; userId: number; hostTags: HostTags } | { refused: string }>;
  /** False once a session has expired or been deleted: its sockets are then closed. */
  isSessionAlive: (sessionKey: string) => Promise<boolean>;
  /**
   * The snapshot sent to a client right after it connects, in its protocol's shape, of the
   * hosts its scope reaches (read when the snapshot is made: the scope may change meanwhile).
   */
  initialState: (
    client: Pick<LiveClient, 'protocol' | 'scope'>,
  ) => Promise<LiveMessageOf<'initial_state'> | SpecLiveMessage>;
  /**
   * The full containers_update in the client's form (protocol, with container sparklines or
   * without) and scope: sent first on connect, and again when a client asks, starts showing
   * sparklines or its scope changes.
   */
  containersFull: (
    client: Pick<LiveClient, 'protocol' | 'containerSparklines' | 'scope'>,
  ) => LiveMessageOf<'containers_update'> | SpecLiveMessage;
}

/**
 * The WebSocket at /ws/ (and /ws): session required, ping → pong, the full containers_update
 * and initial_state on connect, each in the shapes of the protocol the client asked for.
 */
export async function registerLiveChannel(app: FastifyInstance, opts: LiveChannelOptions) {
  // Before the plugin's own preClose (which closes with no code): at a stop the browser gets
  // 1001 going away and reconnects to the next instance.
  app.addHook('preClose', (done) => {
    opts.hub.closeAll();
    done();
  });
  await app.register(websocket, {
    options: { maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: LIVE_DEFLATE },
  });
  const { hub } = opts;
  const heartbeat = setInterval(() => hub.sweep(), HEARTBEAT_MS);
  heartbeat.unref();
  const sessionCheck = setInterval(() => {
    hub.closeEndedSessions(opts.isSessionAlive).catch((err: unknown) => {
      app.log.warn({ err }, 'checking the sessions of live sockets failed');
    });
  }, SESSION_CHECK_MS);
  sessionCheck.unref();
  /** Full containers, then initial_state: on connect, and again when the client's reach changes. */
  const sendState = async (client: LiveClient) => {
    hub.sendTo(client.socket, opts.containersFull(client));
    hub.sendTo(client.socket, await opts.initialState(client));
  };
  // A user's scope changed with its sockets open: they show the new scope at once, with no
  // reconnect; the browser takes both messages as it does on connect.
  const stopRescope = hub.onRescope((client) => {
    sendState(client).catch((err: unknown) => {
      app.log.warn({ err }, 'sending a live client its state in a new scope failed');
    });
  });
  app.addHook('onClose', () => {
    clearInterval(heartbeat);
    clearInterval(sessionCheck);
    stopRescope();
  });

  const handler = async (socket: import('ws').WebSocket, request: FastifyRequest) => {
    const verdict = await opts.authorize(request);
    if ('refused' in verdict) {
      socket.close(POLICY_VIOLATION, verdict.refused);
      return;
    }
    // An unknown protocol or a malformed query gets the spec's shapes, never a closed socket.
    const protocol = liveProtocolOf(request.query);
    const query = liveChannelQuerySchema.safeParse(request.query);
    const client = hub.add(socket, verdict.sessionKey, {
      protocol,
      containerSparklines: protocol !== LIVE_PROTOCOL_DELTAS || query.data?.sparklines !== '0',
      userId: verdict.userId,
      hostTags: verdict.hostTags,
    });
    // The full state at once, before the first await: no delta can reach this socket before it.
    const state = sendState(client);
    socket.on('message', (raw: RawData) => {
      const message = clientMessage(raw);
      if (message?.type === 'ping') hub.sendTo(socket, { type: 'pong' });
      else if (message?.type === 'containers_resync')
        hub.sendTo(socket, opts.containersFull(client));
      else if (
        message?.type === 'container_sparklines' &&
        client.protocol === LIVE_PROTOCOL_DELTAS
      ) {
        const wasShown = client.containerSparklines;
        client.containerSparklines = message.shown;
        // The browser has none to apply the next tails to: it gets them whole.
        if (message.shown && !wasShown) hub.sendTo(socket, opts.containersFull(client));
      }
    });
    await state;
  };
  app.get('/ws', { websocket: true }, handler);
  app.get('/ws/', { websocket: true }, handler);
}

function clientMessage(raw: RawData): ClientLiveMessage | null {
  try {
    const text = Array.isArray(raw)
      ? Buffer.concat(raw).toString()
      : Buffer.from(raw instanceof ArrayBuffer ? new Uint8Array(raw) : raw).toString();
    return clientLiveMessageSchema.safeParse(JSON.parse(text)).data ?? null;
  } catch {
    return null; // malformed messages are ignored
  }
}
