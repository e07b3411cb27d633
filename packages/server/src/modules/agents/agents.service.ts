import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  AGENT_URL_SCHEME,
  ENROLLMENT_TOKEN_TTL_MS,
  type AgentEnrollPayload,
  type AgentEnrollResponse,
  type EnrollmentTokenResponse,
} from '@berth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AgentTunnel, AgentTunnels } from '../../docker/index.js';
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
    readonly statusCode: 401 | 409 = 401,
  ) {
    super(message);
  }
}

export const TOKEN_REFUSED = 'Enrollment token refused';
export const SECRET_REFUSED = 'Agent secret refused';
export const ALREADY_CONNECTED = 'This agent is already connected';

export interface AgentsDeps {
  store: AgentsStore;
  hosts: HostEvents & {
    createAgentHost(name: string, agentId: string, actor: { username: string }): Promise<HostRow>;
  };
  tunnels: AgentTunnels;
  /** An agent's connection came up: its host should try its engine now, not at its backoff. */
  onConnected: (hostId: string) => void;
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

  /** The agent a secret belongs to; refused when none does. */
  async authenticate(secret: string | undefined): Promise<AgentRow> {
    if (secret === undefined || secret === '')
      throw new AgentRefusal(SECRET_REFUSED, 'no agent secret');
    const agent = await this.deps.store.agentBySecret(hashOf(secret));
    if (agent === undefined) throw new AgentRefusal(SECRET_REFUSED, 'unknown agent secret');
    if (this.deps.tunnels.isConnected(agent.id))
      throw new AgentRefusal(ALREADY_CONNECTED, 'a second connection with the same secret', 409);
    return agent;
  }

  /** Puts an authenticated agent's connection in service; false when another won the race. */
  async connected(agent: AgentRow, tunnel: AgentTunnel): Promise<boolean> {
    if (!this.deps.tunnels.attach(agent.id, tunnel)) return false;
    this.deps.log.info({ agent: agent.id }, 'agent connected');
    tunnel.closed.then(
      () => this.deps.log.info({ agent: agent.id }, 'agent disconnected'),
      () => undefined,
    );
    this.deps.onConnected(agent.host_id);
    await this.deps.store.connected(agent.id, new Date().toISOString());
    return true;
  }
}
