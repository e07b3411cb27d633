import { containerStateSchema, type ContainerState } from '@berth/contracts';
import type { Db } from '../../db/database.js';

/** A container as the monitor last saw it: what a replayed event changed it from. */
export interface KnownContainer {
  name: string;
  state: ContainerState;
}

/** Each host's containers as last seen (short id → name and state), kept across restarts. */
export interface ContainerStatesStore {
  load(hostId: string): Promise<Map<string, KnownContainer>>;
  /** Writes the containers given and removes those mapped to null. */
  save(hostId: string, changes: ReadonlyMap<string, KnownContainer | null>): Promise<void>;
  /** The host's whole picture, after a list. */
  replace(hostId: string, all: ReadonlyMap<string, KnownContainer>): Promise<void>;
}

export function createContainerStatesStore(db: Db): ContainerStatesStore {
  return {
    async load(hostId) {
      const rows = await db
        .selectFrom('container_states')
        .select(['container_id', 'name', 'state'])
        .where('host_id', '=', hostId)
        .execute();
      const known = new Map<string, KnownContainer>();
      for (const r of rows) {
        const state = containerStateSchema.safeParse(r.state);
        if (state.success) known.set(r.container_id, { name: r.name, state: state.data });
      }
      return known;
    },

    save(hostId, changes) {
      return db.transaction().execute(async (tx) => {
        for (const [id, c] of changes) {
          if (c === null) {
            await tx
              .deleteFrom('container_states')
              .where('host_id', '=', hostId)
              .where('container_id', '=', id)
              .execute();
          } else {
            await tx
              .insertInto('container_states')
              .values({ host_id: hostId, container_id: id, ...c })
              .onConflict((oc) =>
                oc
                  .columns(['host_id', 'container_id'])
                  .doUpdateSet({ name: c.name, state: c.state }),
              )
              .execute();
          }
        }
      });
    },

    replace(hostId, all) {
      return db.transaction().execute(async (tx) => {
        await tx.deleteFrom('container_states').where('host_id', '=', hostId).execute();
        const rows = [...all].map(([id, c]) => ({ host_id: hostId, container_id: id, ...c }));
        // SQLite caps bound parameters per statement; 4 a row.
        for (let i = 0; i < rows.length; i += 200)
          await tx
            .insertInto('container_states')
            .values(rows.slice(i, i + 200))
            .execute();
      });
    },
  };
}
