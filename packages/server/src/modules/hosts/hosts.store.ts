import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { HostsTable } from '../../db/schema.js';

export type HostRow = Selectable<HostsTable>;

/** Queries on the hosts table. TLS columns hold sealed values only. */
export function createHostsStore(db: Db) {
  return {
    list: (): Promise<HostRow[]> =>
      db.selectFrom('hosts').selectAll().orderBy('created_at').execute(),

    get: (id: string): Promise<HostRow | undefined> =>
      db.selectFrom('hosts').selectAll().where('id', '=', id).executeTakeFirst(),

    findByUrl: (url: string): Promise<HostRow | undefined> =>
      db.selectFrom('hosts').selectAll().where('url', '=', url).executeTakeFirst(),

    insert: (row: HostRow) => db.insertInto('hosts').values(row).execute(),

    update: (id: string, changes: Updateable<HostsTable>) =>
      db.updateTable('hosts').set(changes).where('id', '=', id).execute(),

    /** Deletes the host; container settings go with it (foreign key cascade). */
    delete: (id: string) => db.deleteFrom('hosts').where('id', '=', id).executeTakeFirst(),
  };
}

export type HostsStore = ReturnType<typeof createHostsStore>;
