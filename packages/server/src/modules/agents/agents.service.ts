import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  AGENT_API_PATHS,
  AGENT_PROTOCOL,
  AGENT_URL_SCHEME,
  agentNewSecretAnswerSchema,
  ENROLLMENT_TOKEN_TTL_MS,
  type AgentCapability,
  type AgentEnrollPayload,
  type AgentEnrollResponse,
  type AgentNewSecret,
  type EnrollmentTokenResponse,
  type HostConnection,
  type RotateAgentSecretResponse,
} from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { AGENT_NOT_CONNECTED, type AgentTunnel, type AgentTunnels } from '../../docker/index.js';
import { badRequest, conflict } from '../../platform/http-errors.js';
import type { EventInput } from '../events/index.js';
import type { HostEvents, HostRow } from '../hosts/index.js';
import type { AgentRow, AgentsStore } from './agents.store.js';

/** Tokens and secrets are 32 random bytes; a sha-256 of such a value needs no salt. */
const newSecret = () => randomBytes(32).toString('base64url');
const hashOf = (value: string) => createHash('sha256').update(value).digest('hex');

/** A refused enrollment or connect: what the agent is told, and why, for the log. */
export class AgentRefusal extends Error {
  constructor(
    message: string,
    readonly reason: string,
    readonly statusCode: 401 | 409 | 426 = 401,
  ) {
    super(message);
  }
}

export const TOKEN_REFUSED = 'Enrollment token refused';
export const SECRET_REFUSED = 'Agent secret refused';
export const ALREADY_CONNECTED = 'This agent is already connected';
export const MUST_BE_CONNECTED = 'The agent must be connected to rotate its secret';
/** How long the agent may take to store its new secret and answer. */
const ROTATE_TIMEOUT_MS = 10_000;

/** What an agent says of itself in the headers of each connect (contracts' AGENT_*_HEADER). */
export interface AgentAnnouncement {
  version: string;
  /** The protocol it named, as sent; undefined when it named none (an agent before protocols). */
  protocol: string | undefined;
  capabilities: AgentCapability[];
  /** The connection came over plain ws:// (http://), as the request's protocol says. */
  insecure: boolean;
}

/** An agent host as the host list shows it, beside what the hosts module stores. */
export interface AgentHostView {
  connection: HostConnection;
  /** Why its agent was last refused (an incompatible protocol); null while all is well. */
  refused: string | null;
}

/** Why an agent speaking another protocol is refused, in words its host shows. */
export function incompatibleAgent(announced: AgentAnnouncement): string | null {
  if (announced.protocol === String(AGENT_PROTOCOL)) return null;
  const spoken = Number(announced.protocol);
  const newer = Number.isInteger(spoken) && spoken > AGENT_PROTOCOL;
  const speaks =
    announced.protocol === undefined
      ? 'announces no protocol'
      : `speaks protocol ${announced.protocol}`;
  return `Agent ${announced.version} ${speaks}; this Berth speaks protocol ${AGENT_PROTOCOL}: ${
    newer ? 'update Berth' : 'update the agent'
  }`;
}

export interface AgentsDeps {
  store: AgentsStore;
  hosts: HostEvents & {
    createAgentHost(name: string, agentId: string, actor: { username: string }): Promise<HostRow>;
    /** The host by id; a 404 when there is none. */
    get(id: string): Promise<HostRow>;
  };
  tunnels: AgentTunnels;
  /** An agent's connection came up: its host should try its engine now, not at its backoff. */
  onConnected: (hostId: string) => void;
  /** The event log: a secret's rotation is a change to the host an operator must be able to trace. */
  record: (event: EventInput) => Promise<unknown>;
  log: FastifyBaseLogger;
}

/** Enrollment tokens, agents' secrets and their live connections. */
export class AgentsService {
  constructor(private readonly deps: AgentsDeps) {
    // A deleted host's agent loses its connection; its secret went with its row.
    deps.hosts.on('hostRemoved', ({ host }) => {
      if (host.url.startsWith(AGENT_URL_SCHEME))
        deps.tunnels.close(host.url.slice(AGENT_URL_SCHEME.length));
    });
  }

  async createToken(actor: { username: string }): Promise<EnrollmentTokenResponse> {
    const token = newSecret();
    const now = Date.now();
    const expiresAt = new Date(now + ENROLLMENT_TOKEN_TTL_MS).toISOString();
    await this.deps.store.insertToken({
      token_hash: hashOf(token),
      created_by: actor.username,
      created_at: new Date(now).toISOString(),
      expires_at: expiresAt,
      used_at: null,
    });
    return { token, expires_at: expiresAt };
  }

  /** Trades a valid, unused token for a new agent, its host and its secret (shown once). */
  async enroll(
    token: string | undefined,
    payload: AgentEnrollPayload,
  ): Promise<AgentEnrollResponse> {
    if (token === undefined || token === '')
      throw new AgentRefusal(TOKEN_REFUSED, 'no enrollment token');
    const tokenHash = hashOf(token);
    const row = await this.deps.store.token(tokenHash);
    if (row === undefined) throw new AgentRefusal(TOKEN_REFUSED, 'unknown enrollment token');
    if (row.used_at !== null)
      throw new AgentRefusal(TOKEN_REFUSED, 'enrollment token already used');
    if (Date.parse(row.expires_at) <= Date.now())
      throw new AgentRefusal(TOKEN_REFUSED, 'enrollment token expired');
    const now = new Date().toISOString();
    if (!(await this.deps.store.useToken(tokenHash, now)))
      throw new AgentRefusal(TOKEN_REFUSED, 'enrollment token already used');
    const agentId = randomUUID();
    const secret = newSecret();
    const host = await this.deps.hosts.createAgentHost(payload.name, agentId, {
      username: row.created_by,
    });
    await this.deps.store.insertAgent({
      id: agentId,
      host_id: host.id,
      secret_hash: hashOf(secret),
      version: payload.version,
      created_at: now,
      last_connected_at: null,
    });
    this.deps.log.info({ agent: agentId, host: host.name }, 'agent enrolled');
    return { agent_id: agentId, host_id: host.id, secret };
  }

  /**
   * The agent a secret belongs to; refused when none does, when it speaks another protocol
   * (remembered for its host to show until a compatible one connects), or when it is
   * connected already. A secret a rotation was sending it becomes its only one from here.
   */
  async authenticate(secret: string | undefined, announced: AgentAnnouncement): Promise<AgentRow> {
    if (secret === undefined || secret === '')
      throw new AgentRefusal(SECRET_REFUSED, 'no agent secret');
    const secretHash = hashOf(secret);
    const agent = await this.deps.store.agentBySecret(secretHash);
    if (agent === undefined) throw new AgentRefusal(SECRET_REFUSED, 'unknown agent secret');
    const incompatible = incompatibleAgent(announced);
    if (incompatible !== null) {
      await this.deps.store.refused(agent.id, announced.version, incompatible);
      throw new AgentRefusal(incompatible, `incompatible agent ${agent.id}`, 426);
    }
    if (this.deps.tunnels.isConnected(agent.id))
      throw new AgentRefusal(ALREADY_CONNECTED, 'a second connection with the same secret', 409);
    if (agent.pending_secret_hash !== null) {
      await this.deps.store.settleSecret(agent.id, secretHash);
      // The rotation's answer was lost, yet the agent had stored its new secret: it ends here.
      if (agent.pending_secret_hash === secretHash)
        await this.hostEvent(agent.host_id, {
          event_type: 'agent_secret_switched',
          title: 'Agent switched to its new secret',
          message: 'Its answer to the rotation was lost; it connected with the new secret',
          triggered_by: 'system',
        });
    }
    return agent;
  }

  /** Puts an authenticated agent's connection in service; false when another won the race. */
  async connected(
    agent: AgentRow,
    tunnel: AgentTunnel,
    announced: AgentAnnouncement,
  ): Promise<boolean> {
    if (!this.deps.tunnels.attach(agent.id, tunnel)) return false;
    const { version, capabilities, insecure } = announced;
    this.deps.log.info({ agent: agent.id, version, capabilities, insecure }, 'agent connected');
    tunnel.closed.then(
      () => this.deps.log.info({ agent: agent.id }, 'agent disconnected'),
      () => undefined,
    );
    await this.deps.store.connected(agent.id, new Date().toISOString(), announced);
    this.deps.onConnected(agent.host_id);
    return true;
  }

  /**
   * A new secret for a connected agent, without cutting it: the agent stores it and answers,
   * then its hash replaces the old one. Until then both are valid, so an answer lost on the
   * way never locks the agent out (its next connect with either settles which one it holds).
   */
  async rotateSecret(
    hostId: string,
    actor: { username: string },
  ): Promise<RotateAgentSecretResponse> {
    const agent = await this.deps.store.agentOfHost(hostId);
    if (agent === undefined) {
      await this.deps.hosts.get(hostId); // no such host: 404
      throw badRequest('This host is not connected through an agent');
    }
    if (!this.deps.tunnels.isConnected(agent.id)) throw conflict(MUST_BE_CONNECTED);
    const secret = newSecret();
    const next = hashOf(secret);
    await this.deps.store.setPendingSecret(agent.id, next);
    const body: AgentNewSecret = { secret };
    try {
      const answer = await this.deps.tunnels.request(agent.id, {
        method: 'POST',
        path: AGENT_API_PATHS.secret,
        body,
        timeoutMs: ROTATE_TIMEOUT_MS,
      });
      agentNewSecretAnswerSchema.parse(answer);
    } catch (err) {
      // The old secret stays valid beside the new one: whichever the agent holds still works.
      const why = err instanceof Error ? err.message : String(err);
      this.deps.log.warn({ agent: agent.id, reason: why }, 'agent secret rotation failed');
      if (why === AGENT_NOT_CONNECTED) throw conflict(MUST_BE_CONNECTED);
      throw conflict(`The agent did not take its new secret: ${why}`);
    }
    if (!(await this.deps.store.settleSecret(agent.id, next)))
      throw conflict('The agent reconnected during the rotation; rotate its secret again');
    this.deps.log.info({ agent: agent.id }, 'agent secret rotated');
    await this.hostEvent(hostId, {
      event_type: 'agent_secret_rotated',
      title: 'Agent secret rotated',
      message: 'The agent stored its new secret; the old one is refused from now on',
      triggered_by: actor.username,
    });
    return { ok: true, rotated_at: new Date().toISOString() };
  }

  /**
   * An event of an agent's host. The change it tells of is already made, so failing to record
   * it is logged, not answered as a failure of the change.
   */
  private async hostEvent(
    hostId: string,
    event: Pick<EventInput, 'event_type' | 'title' | 'message' | 'triggered_by'>,
  ): Promise<void> {
    try {
      const host = await this.deps.hosts.get(hostId);
      await this.deps.record({
        severity: 'info',
        category: 'host',
        host_id: host.id,
        host_name: host.name,
        ...event,
      });
    } catch (err) {
      this.deps.log.error({ err, host: hostId }, `could not record "${event.title}"`);
    }
  }

  /**
   * How each agent host is connected, by host id, for the host list: what its agent said of
   * itself, and why it was last refused while no compatible one is connected.
   */
  async agentHosts(): Promise<Map<string, AgentHostView>> {
    const rows = await this.deps.store.agents();
    return new Map(
      rows.map((row) => {
        const connected = this.deps.tunnels.isConnected(row.id);
        return [
          row.host_id,
          {
            connection: this.connectionOf(row, connected),
            refused: connected ? null : row.refused_reason,
          },
        ];
      }),
    );
  }

  private connectionOf(row: AgentRow, connected: boolean): HostConnection {
    return {
      type: 'agent',
      agent: {
        version: row.version,
        capabilities: JSON.parse(row.capabilities) as string[],
        connected,
        last_connected_at: row.last_connected_at,
        insecure: row.insecure === null ? null : row.insecure === 1,
      },
    };
  }
}
