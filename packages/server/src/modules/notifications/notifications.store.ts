import { sql, type Generated, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';

type ChannelsTable = {
  id: Generated<number>;
  name: string;
  type: string;
  enabled: number;
  /** The config without its secret fields, as JSON. */
  config_json: string;
  /** The secret fields as JSON, sealed with the secret box. */
  secrets_sealed: string | null;
  last_error: string | null;
  last_error_at: string | null;
  last_delivered_at: string | null;
  created_at: string;
  updated_at: string;
};

export type OutboxStatus = 'pending' | 'sending' | 'held' | 'delivered' | 'failed' | 'dropped';

type OutboxTable = {
  id: Generated<number>;
  dedup_key: string;
  channel_id: number;
  alert_id: string | null;
  event: string;
  message_json: string;
  status: OutboxStatus;
  attempts: Generated<number>;
  /** Epoch milliseconds. */
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
};

type NotificationTables = {
  notification_channels: ChannelsTable;
  notification_outbox: OutboxTable;
};

export type ChannelRow = Selectable<ChannelsTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type NewOutboxRow = Omit<OutboxRow, 'id' | 'attempts' | 'last_error' | 'delivered_at'>;

/** Channels and the outbox. */
export function createNotificationsStore(base: Db) {
  const db = base.$extendTables<NotificationTables>();
  const channels = {
    all: () => db.selectFrom('notification_channels').selectAll().orderBy('id').execute(),
    get: (id: number) =>
      db.selectFrom('notification_channels').selectAll().where('id', '=', id).executeTakeFirst(),
    byName: (name: string) =>
      db
        .selectFrom('notification_channels')
        .select('id')
        .where('name', '=', name)
        .executeTakeFirst(),
    async insert(row: Omit<ChannelRow, 'id'>): Promise<ChannelRow> {
      return db
        .insertInto('notification_channels')
        .values(row)
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    async update(
      id: number,
      patch: Partial<Omit<ChannelRow, 'id'>>,
    ): Promise<ChannelRow | undefined> {
      return db
        .updateTable('notification_channels')
        .set(patch)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },
    async delete(id: number): Promise<boolean> {
      const r = await db
        .deleteFrom('notification_channels')
        .where('id', '=', id)
        .executeTakeFirst();
      return r.numDeletedRows > 0n;
    },
  };
  const outbox = {
    /** Inserts the rows whose dedup key is new; answers how many were. */
    async insertMany(rows: NewOutboxRow[]): Promise<number> {
      if (rows.length === 0) return 0;
      const r = await db
        .insertInto('notification_outbox')
        .values(rows)
        .onConflict((oc) => oc.column('dedup_key').doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0n);
    },
    /** Rows a stopped server was sending go back to the queue. */
    async requeueInFlight(): Promise<number> {
      const r = await db
        .updateTable('notification_outbox')
        .set({ status: 'pending' })
        .where('status', '=', 'sending')
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    /** Channels with rows due now. */
    async dueChannels(now: number): Promise<number[]> {
      const rows = await db
        .selectFrom('notification_outbox')
        .select('channel_id')
        .distinct()
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .execute();
      return rows.map((r) => r.channel_id);
    },
    /** Takes up to `limit` due rows of a channel in one statement: they become 'sending'. */
    async claim(channelId: number, limit: number, now: number): Promise<OutboxRow[]> {
      const r = await sql<OutboxRow>`
        update notification_outbox set status = 'sending'
        where id in (
          select id from notification_outbox
          where status = 'pending' and channel_id = ${channelId} and next_attempt_at <= ${now}
          order by id limit ${limit}
        ) returning *`.execute(db);
      return r.rows;
    },
    async nextDueAt(): Promise<number | null> {
      const r = await db
        .selectFrom('notification_outbox')
        .select((eb) => eb.fn.min('next_attempt_at').as('due'))
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return r?.due ?? null;
    },
    async delivered(id: number, at: number): Promise<void> {
      await db
        .updateTable('notification_outbox')
        .set({ status: 'delivered', delivered_at: at, last_error: null })
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },
    async retry(id: number, nextAt: number, error: string): Promise<void> {
      await db
        .updateTable('notification_outbox')
        .set({ status: 'pending', next_attempt_at: nextAt, last_error: error })
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },
    async finish(id: number, status: 'failed' | 'dropped', error: string): Promise<void> {
      await db
        .updateTable('notification_outbox')
        .set({ status, last_error: error })
        .set((eb) => ({ attempts: eb('attempts', '+', status === 'failed' ? 1 : 0) }))
        .where('id', '=', id)
        .execute();
    },
    held: () =>
      db
        .selectFrom('notification_outbox')
        .selectAll()
        .where('status', '=', 'held')
        .orderBy('id')
        .execute(),
    /** Replaces held rows by their summaries in one transaction. */
    async releaseHeld(drop: number[], summaries: NewOutboxRow[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (summaries.length > 0)
          await trx
            .insertInto('notification_outbox')
            .values(summaries)
            .onConflict((oc) => oc.column('dedup_key').doNothing())
            .execute();
        for (let i = 0; i < drop.length; i += 500) {
          await trx
            .updateTable('notification_outbox')
            .set({ status: 'dropped', last_error: 'Summarised after the blackout' })
            .where('id', 'in', drop.slice(i, i + 500))
            .where('status', '=', 'held')
            .execute();
        }
      });
    },
    async counts(): Promise<Record<string, number>> {
      const rows = await db
        .selectFrom('notification_outbox')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    },
    /** Deletes finished rows older than `before` (epoch ms). */
    async prune(before: number): Promise<number> {
      const r = await db
        .deleteFrom('notification_outbox')
        .where('status', 'in', ['delivered', 'failed', 'dropped'])
        .where('created_at', '<', before)
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
  /** Berth's VAPID key pair: one row of the global settings table, the private key sealed. */
  const vapid = {
    async read(): Promise<StoredVapid | undefined> {
      const row = await base
        .selectFrom('settings')
        .select('value')
        .where('key', '=', VAPID_KEY)
        .executeTakeFirst();
      return row === undefined ? undefined : (JSON.parse(row.value) as StoredVapid);
    },
    /** Writes the pair unless one is there already (two starts at once keep the first). */
    async insertIfAbsent(value: StoredVapid): Promise<void> {
      await base
        .insertInto('settings')
        .values({ key: VAPID_KEY, value: JSON.stringify(value) })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    },
  };
  return { channels, outbox, vapid };
}

const VAPID_KEY = 'web_push_vapid';

export interface StoredVapid {
  public_key: string;
  private_key_sealed: string;
  created_at: string;
}
export type NotificationsStore = ReturnType<typeof createNotificationsStore>;
