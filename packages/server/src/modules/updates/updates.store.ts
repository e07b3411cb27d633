import type { Generated, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ContainerUpdatesTable } from '../../db/schema.js';

/** Columns 0011 added to container_updates. */
type UpdateExtraColumns = {
  latest_image: string | null;
  last_error: string | null;
  failed_digest: string | null;
  previous_image: string | null;
  previous_image_id: string | null;
  alerted_digest: string | null;
};

type ContainerUpdateConfigTable = {
  host_id: string;
  container_name: string;
  update_policy: string | null;
  changelog_url: string | null;
  registry_page_url: string | null;
  updated_at: string;
};

type UpdatePoliciesTable = {
  id: Generated<number>;
  category: string;
  pattern: string;
  enabled: number;
  created_at: string;
};

type RegistryCredentialsTable = {
  id: Generated<number>;
  registry_url: string;
  username: string;
  password_sealed: string;
  created_at: string;
  updated_at: string;
};

/** This module's tables, known here rather than in the shared schema. */
type UpdatesTables = {
  container_updates: UpdateExtraColumns;
  container_update_config: ContainerUpdateConfigTable;
  update_policies: UpdatePoliciesTable;
  registry_credentials: RegistryCredentialsTable;
};

export type UpdateRow = ContainerUpdatesTable & UpdateExtraColumns;
export type UpdateConfigRow = ContainerUpdateConfigTable;
export type PolicyRow = Selectable<UpdatePoliciesTable>;
export type CredentialRow = Selectable<RegistryCredentialsTable>;

/** Update status, per-container update config, policies and registry credentials. */
export function createUpdatesStore(base: Db) {
  const db = base.$extendTables<UpdatesTables>();
  return {
    /** host_id and container_id of every container whose image has an update waiting. */
    async withUpdates(): Promise<{ host_id: string; container_id: string }[]> {
      return db
        .selectFrom('container_updates')
        .select(['host_id', 'container_id'])
        .where('update_available', '=', 1)
        .execute();
    },

    all: (): Promise<UpdateRow[]> => db.selectFrom('container_updates').selectAll().execute(),

    get: (hostId: string, name: string): Promise<UpdateRow | undefined> =>
      db
        .selectFrom('container_updates')
        .selectAll()
        .where('host_id', '=', hostId)
        .where('container_name', '=', name)
        .executeTakeFirst(),

    /** Records a row (one per host and container name), keeping columns left out. */
    async save(row: ContainerUpdatesTable & Partial<UpdateExtraColumns>): Promise<void> {
      const rest: Partial<typeof row> = { ...row };
      delete rest.host_id;
      delete rest.container_name;
      await db
        .insertInto('container_updates')
        .values(row)
        .onConflict((oc) => oc.columns(['host_id', 'container_name']).doUpdateSet(rest))
        .execute();
    },

    async patch(hostId: string, name: string, change: Partial<UpdateRow>): Promise<void> {
      await db
        .updateTable('container_updates')
        .set(change)
        .where('host_id', '=', hostId)
        .where('container_name', '=', name)
        .execute();
    },

    getConfig: (hostId: string, name: string): Promise<UpdateConfigRow | undefined> =>
      db
        .selectFrom('container_update_config')
        .selectAll()
        .where('host_id', '=', hostId)
        .where('container_name', '=', name)
        .executeTakeFirst(),

    allConfigs: (): Promise<UpdateConfigRow[]> =>
      db.selectFrom('container_update_config').selectAll().execute(),

    async saveConfig(row: UpdateConfigRow): Promise<void> {
      const rest: Partial<UpdateConfigRow> = { ...row };
      delete rest.host_id;
      delete rest.container_name;
      await db
        .insertInto('container_update_config')
        .values(row)
        .onConflict((oc) => oc.columns(['host_id', 'container_name']).doUpdateSet(rest))
        .execute();
    },

    policies: (): Promise<PolicyRow[]> =>
      db.selectFrom('update_policies').selectAll().orderBy('id').execute(),

    async setCategoryEnabled(category: string, enabled: boolean): Promise<number> {
      const res = await db
        .updateTable('update_policies')
        .set({ enabled: enabled ? 1 : 0 })
        .where('category', '=', category)
        .executeTakeFirst();
      return Number(res.numUpdatedRows);
    },

    async addPolicy(category: string, pattern: string): Promise<PolicyRow> {
      return db
        .insertInto('update_policies')
        .values({ category, pattern, enabled: 1, created_at: new Date().toISOString() })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async deletePolicy(id: number, category: string): Promise<boolean> {
      const res = await db
        .deleteFrom('update_policies')
        .where('id', '=', id)
        .where('category', '=', category)
        .executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },

    credentials: (): Promise<CredentialRow[]> =>
      db.selectFrom('registry_credentials').selectAll().orderBy('registry_url').execute(),

    credential: (id: number): Promise<CredentialRow | undefined> =>
      db.selectFrom('registry_credentials').selectAll().where('id', '=', id).executeTakeFirst(),

    async addCredential(
      row: Omit<CredentialRow, 'id' | 'created_at' | 'updated_at'>,
    ): Promise<CredentialRow> {
      const now = new Date().toISOString();
      return db
        .insertInto('registry_credentials')
        .values({ ...row, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async updateCredential(
      id: number,
      change: Partial<Pick<CredentialRow, 'username' | 'password_sealed'>>,
    ): Promise<void> {
      await db
        .updateTable('registry_credentials')
        .set({ ...change, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    },

    async deleteCredential(id: number): Promise<boolean> {
      const res = await db
        .deleteFrom('registry_credentials')
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },
  };
}
export type UpdatesStore = ReturnType<typeof createUpdatesStore>;
