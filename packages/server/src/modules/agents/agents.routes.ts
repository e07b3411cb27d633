import {
  AGENT_CAPABILITIES_HEADER,
  AGENT_PROTOCOL_HEADER,
  AGENT_SECRET_HEADER,
  AGENT_TOKEN_HEADER,
  AGENT_VERSION_HEADER,
  agentEnrollPayloadSchema,
  agentEnrollResponseSchema,
  emptyBodySchema,
  enrollmentTokenResponseSchema,
  parseAgentCapabilities,
  rotateAgentSecretResponseSchema,
} from '@berth/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { webSocketBytes } from '@berth/agent/websocket-bytes';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import { openAgentTunnel } from '../../docker/index.js';
import { badRequest, HttpError } from '../../platform/http-errors.js';
import { actorOf } from '../auth/index.js';
import { AgentThrottle } from './agent-throttle.js';
import {
  ALREADY_CONNECTED,
  AgentRefusal,
  type AgentAnnouncement,
  type AgentsService,
} from './agents.service.js';

/** Largest WebSocket message from an agent: HTTP/2 frames, a few of them at a time. */
const MAX_AGENT_MESSAGE_BYTES = 4 * 1024 * 1024;
const POLICY_VIOLATION = 1008;
/**
 * Berth pings each agent this often and cuts one that left a ping unanswered until the next:
 * a dead path is found within two intervals, well inside the 10 s a host may take to show
 * offline, and the agent's reconnect is not refused as a second connection for long.
 */
export const AGENT_PING_MS = 3000;
/** A version longer than this is cut: it is shown, never parsed. */
const MAX_VERSION_LENGTH = 50;

const hostParams = z.strictObject({ id: z.string().min(1).max(100) });

/** Enrollment tokens and secret rotation, for a signed-in operator. */
export function agentsRoutes(app: FastifyInstance, opts: { agents: AgentsService }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/agents/enrollment-tokens',
    {
      schema: {
        body: emptyBodySchema,
        response: { 201: enrollmentTokenResponseSchema },
      },
    },
    async (request, reply) => {
      const token = await opts.agents.createToken({ username: actorOf(request) });
      return reply.code(201).send(token);
    },
  );

  api.post(
    '/hosts/:id/agent/rotate-secret',
    {
      schema: {
        params: hostParams,
        body: emptyBodySchema,
        response: { 200: rotateAgentSecretResponseSchema },
      },
    },
    (request) => opts.agents.rotateSecret(request.params.id, { username: actorOf(request) }),
  );
}

/**
 * What agents call. No session: each route authenticates by a header the agent sends (the
 * enrollment token, then its secret), and carries no cookie, so the origin check has nothing
 * to protect (an agent sends no Origin).
 */
export function agentConnectRoutes(
  app: FastifyInstance,
  opts: { agents: AgentsService; throttle?: AgentThrottle },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { agents } = opts;
  const throttle = opts.throttle ?? new AgentThrottle(app.log);
  /**
   * Runs an enrollment or a connect's check under the address's count of failures: refused
   * credentials and protocols count, an accepted agent or a second copy of a connected one
   * (409: the real agent reconnecting before its old connection is cut) does not.
   */
  const checked = async <T>(
    request: FastifyRequest,
    endpoint: 'enroll' | 'connect',
    check: () => Promise<T>,
  ): Promise<T> => {
    const attempt = throttle.begin(request.ip, endpoint);
    try {
      const result = await check();
      attempt.release();
      return result;
    } catch (err) {
      if (!(err instanceof AgentRefusal) || err.statusCode === 409) attempt.release();
      if (!(err instanceof AgentRefusal)) throw err;
      request.log.warn({ reason: err.reason, status: err.statusCode }, err.message);
      throw new HttpError(err.statusCode, err.message);
    }
  };

  api.post(
    '/agents/enroll',
    { schema: { body: agentEnrollPayloadSchema, response: { 201: agentEnrollResponseSchema } } },
    async (request, reply) => {
      const answer = await checked(request, 'enroll', () =>
        agents.enroll(headerOf(request, AGENT_TOKEN_HEADER), request.body),
      );
      return reply.code(201).send(answer);
    },
  );

  const sockets = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: MAX_AGENT_MESSAGE_BYTES,
  });
  app.addHook('onClose', () => sockets.close());
  api.get('/agents/connect', async (request, reply) => {
    // Whatever the answer, an upgrade's socket belongs to no HTTP server: end it after it.
    if (isUpgrade(request)) reply.raw.once('finish', () => request.raw.socket.destroy());
    const announced = announcementOf(request);
    const agent = await checked(request, 'connect', () =>
      agents.authenticate(bearerOf(headerOf(request, AGENT_SECRET_HEADER)), announced),
    );
    if (!isUpgrade(request)) throw badRequest('upgrade: the agent connects with a WebSocket');
    reply.hijack();
    // An agent sends nothing before the handshake's answer, so nothing was read past it.
    sockets.handleUpgrade(request.raw, request.raw.socket, Buffer.alloc(0), (socket) => {
      keepAlive(socket);
      // A bad frame (oversized, malformed) or bytes that are not HTTP/2 end this agent's
      // connection alone; it is said once, without its secret, and the agent redials.
      let broken = false;
      const brokenBy = (err: Error) => {
        if (broken) return;
        broken = true;
        request.log.warn({ agent: agent.id, reason: err.message }, 'agent connection broken');
      };
      socket.on('error', brokenBy);
      const stream = webSocketBytes(socket);
      stream.on('error', () => undefined); // the socket's error above is the one report
      const tunnel = openAgentTunnel(stream, announced.capabilities, (err) => {
        brokenBy(err);
        socket.terminate();
      });
      socket.once('close', () => tunnel.close());
      agents.connected(agent, tunnel, announced).then(
        (ok) => {
          if (!ok) socket.close(POLICY_VIOLATION, ALREADY_CONNECTED);
        },
        (err: unknown) => request.log.error({ err }, 'agent connect failed'),
      );
    });
  });
}

function keepAlive(socket: WebSocket): void {
  let answered = true;
  socket.on('pong', () => (answered = true));
  const timer = setInterval(() => {
    if (answered) {
      answered = false;
      socket.ping();
    } else socket.terminate();
  }, AGENT_PING_MS);
  socket.once('close', () => clearInterval(timer));
}

/** What the agent says of itself; the protocol is its transport (http or https, by proxy too). */
function announcementOf(request: FastifyRequest): AgentAnnouncement {
  const version = headerOf(request, AGENT_VERSION_HEADER)?.trim().slice(0, MAX_VERSION_LENGTH);
  return {
    version: version === undefined || version === '' ? 'unknown' : version,
    protocol: headerOf(request, AGENT_PROTOCOL_HEADER)?.trim().slice(0, MAX_VERSION_LENGTH),
    capabilities: parseAgentCapabilities(headerOf(request, AGENT_CAPABILITIES_HEADER)),
    insecure: request.protocol !== 'https',
  };
}

const isUpgrade = (request: FastifyRequest) =>
  request.headers.upgrade?.toLowerCase() === 'websocket';

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

const bearerOf = (header: string | undefined) =>
  header?.startsWith('Bearer ') === true ? header.slice('Bearer '.length).trim() : undefined;
