import type { Generated, Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';

/** agent_enrollment_tokens (migration 0016): one-time tokens, by the sha-256 of the token. */
export interface EnrollmentTokenTable {
  token_hash: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/**
 * agents (migrations 0016, 0017): one per enrolled agent, its secret as a sha-256 only, and
 * what it announced when it last connected or was refused.
 */
export interface AgentTable {
  id: string;
  host_id: string;
  secret_hash: string;
  version: string;
  created_at: string;
  last_connected_at: string | null;
  /** JSON array of the capability names it announced. */
  capabilities: Generated<string>;
  /** 1: its last connection came over plain ws://; null before its first. */
  insecure: number | null;
  /** Why its last connect was refused (an incompatible protocol); null once one is accepted. */
  refused_reason: string | null;
  /** A rotation's new secret, sent to the agent; valid beside secret_hash until one is used. */
  pending_secret_hash: string | null;
}
export type AgentRow = Selectable<AgentTable>;
export type EnrollmentTokenRow = Selectable<EnrollmentTokenTable>;

const TOKENS = 'agent_enrollment_tokens';
const AGENTS = 'agents';

/** The module declares its own tables so the shared schema stays untouched. */
export function createAgentsStore(base: Db) {
  const db = base.$extendTables<{ [TOKENS]: EnrollmentTokenTable; [AGENTS]: AgentTable }>();
  return {
    insertToken: (row: EnrollmentTokenRow) => db.insertInto(TOKENS).values(row).execute(),

    token: (tokenHash: string): Promise<EnrollmentTokenRow | undefined> =>
      db.selectFrom(TOKENS).selectAll().where('token_hash', '=', tokenHash).executeTakeFirst(),

    /** Marks a token used; false when someone used it first (two agents racing with one). */
    useToken: async (tokenHash: string, at: string): Promise<boolean> => {
      const result = await db
        .updateTable(TOKENS)
        .set({ used_at: at })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    insertAgent: (row: Insertable<AgentTable>) => db.insertInto(AGENTS).values(row).execute(),

    agents: (): Promise<AgentRow[]> => db.selectFrom(AGENTS).selectAll().execute(),

    agentOfHost: (hostId: string): Promise<AgentRow | undefined> =>
      db.selectFrom(AGENTS).selectAll().where('host_id', '=', hostId).executeTakeFirst(),

    /** The agent holding this secret, its current one or the one a rotation is sending it. */
    agentBySecret: (secretHash: string): Promise<AgentRow | undefined> =>
      db
        .selectFrom(AGENTS)
        .selectAll()
        .where((eb) =>
          eb.or([eb('secret_hash', '=', secretHash), eb('pending_secret_hash', '=', secretHash)]),
        )
        .executeTakeFirst(),

    /** A rotation starts: the new secret's hash, valid beside the current one. */
    setPendingSecret: (id: string, hash: string | null) =>
      db.updateTable(AGENTS).set({ pending_secret_hash: hash }).where('id', '=', id).execute(),

    /**
     * The agent holds `hash` (it answered the rotation, or connected with it): it becomes the
     * only valid secret. False when it is neither the current nor the pending one any more.
     */
    settleSecret: async (id: string, hash: string): Promise<boolean> => {
      const result = await db
        .updateTable(AGENTS)
        .set({ secret_hash: hash, pending_secret_hash: null })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('secret_hash', '=', hash), eb('pending_secret_hash', '=', hash)]))
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },

    /** An accepted connect: what the agent announced, and no refusal left to show. */
    connected: (
      id: string,
      at: string,
      announced: { version: string; capabilities: string[]; insecure: boolean },
    ) =>
      db
        .updateTable(AGENTS)
        .set({
          last_connected_at: at,
          version: announced.version,
          capabilities: JSON.stringify(announced.capabilities),
          insecure: announced.insecure ? 1 : 0,
          refused_reason: null,
        })
        .where('id', '=', id)
        .execute(),

    /** A refused connect (an incompatible agent): its version and why, for its host to show. */
    refused: (id: string, version: string, reason: string) =>
      db
        .updateTable(AGENTS)
        .set({ version, refused_reason: reason })
        .where('id', '=', id)
        .execute(),
  };
}

export type AgentsStore = ReturnType<typeof createAgentsStore>;
