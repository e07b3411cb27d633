import type { Alert, AlertListQuery } from '@berth/contracts';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AlertsTable } from '../../db/schema.js';

export type AlertRow = Selectable<AlertsTable>;

export interface AlertCounts {
  open: number;
  snoozed: number;
}

/** Alerts as stored; the rules that raise them write through the same table. */
export function createAlertsStore(db: Db) {
  const filtered = (q: AlertListQuery) => {
    let query = db.selectFrom('alerts');
    if (q.state !== undefined) query = query.where('state', '=', q.state);
    if (q.severity !== undefined) query = query.where('severity', '=', q.severity);
    if (q.scope_type !== undefined) query = query.where('scope_type', '=', q.scope_type);
    if (q.scope_id !== undefined) query = query.where('scope_id', '=', q.scope_id);
    if (q.rule_id !== undefined) query = query.where('rule_id', '=', q.rule_id);
    if (q.host_id !== undefined) query = query.where('host_id', '=', q.host_id);
    return query;
  };

  return {
    async list(q: AlertListQuery): Promise<{ rows: AlertRow[]; total: number }> {
      const rows = await filtered(q)
        .selectAll()
        .orderBy('last_seen', 'desc')
        .limit(q.page_size)
        .offset((q.page - 1) * q.page_size)
        .execute();
      const { total } = await filtered(q)
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow();
      return { rows, total };
    },

    async countBy(column: 'state' | 'severity', unresolvedOnly: boolean) {
      let query = db
        .selectFrom('alerts')
        .select([column, (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(column);
      if (unresolvedOnly) query = query.where('state', '!=', 'resolved');
      const rows = await query.execute();
      return new Map(rows.map((r) => [r[column], r.n]));
    },

    /** Open and snoozed alerts per host. */
    async countsByHost(): Promise<Map<string, AlertCounts>> {
      const rows = await db
        .selectFrom('alerts')
        .select(['host_id', 'state', (eb) => eb.fn.countAll<number>().as('n')])
        .where('state', 'in', ['open', 'snoozed'])
        .where('host_id', 'is not', null)
        .groupBy(['host_id', 'state'])
        .execute();
      const counts = new Map<string, AlertCounts>();
      for (const row of rows) {
        if (row.host_id === null) continue;
        const entry = counts.get(row.host_id) ?? { open: 0, snoozed: 0 };
        if (row.state === 'open') entry.open = row.n;
        else entry.snoozed = row.n;
        counts.set(row.host_id, entry);
      }
      return counts;
    },

    async resolveForHost(hostId: string, reason: string, at: string): Promise<number> {
      const result = await db
        .updateTable('alerts')
        .set({ state: 'resolved', resolved_at: at, resolved_reason: reason })
        .where('host_id', '=', hostId)
        .where('state', 'in', ['open', 'snoozed'])
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async insert(row: AlertRow): Promise<void> {
      await db.insertInto('alerts').values(row).execute();
    },
  };
}
export type AlertsStore = ReturnType<typeof createAlertsStore>;

export const toAlert = (row: AlertRow): Alert => row as Alert;
