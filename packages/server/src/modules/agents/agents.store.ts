import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';

/** agent_enrollment_tokens (migration 0016): one-time tokens, by the sha-256 of the token. */
export interface EnrollmentTokenTable {
  token_hash: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** agents (migration 0016): one per enrolled agent, its secret as a sha-256 only. */
export interface AgentTable {
  id: string;
  host_id: string;
  secret_hash: string;
  version: string;
  created_at: string;
  last_connected_at: string | null;
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

    insertAgent: (row: AgentRow) => db.insertInto(AGENTS).values(row).execute(),

    agentBySecret: (secretHash: string): Promise<AgentRow | undefined> =>
      db.selectFrom(AGENTS).selectAll().where('secret_hash', '=', secretHash).executeTakeFirst(),

    connected: (id: string, at: string) =>
      db.updateTable(AGENTS).set({ last_connected_at: at }).where('id', '=', id).execute(),
  };
}

export type AgentsStore = ReturnType<typeof createAgentsStore>;
