import type { AlertRule, AlertSelector } from '@berth/contracts';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AlertRulesTable } from '../../db/schema.js';

export type AlertRuleRow = Selectable<AlertRulesTable>;

/** A rule as the engine uses it: the API shape without the per-host disk note. */
export type StoredRule = Omit<AlertRule, 'unavailable_hosts'>;

const selector = (text: string | null): AlertSelector | null =>
  text === null ? null : (JSON.parse(text) as AlertSelector);

/**
 * Channel ids as numbers, like a channel's own `id`. Rules saved before ids were numbers
 * hold their digits; anything else never named a channel and is dropped.
 */
function channelIds(text: string): number[] {
  const ids = (JSON.parse(text) as unknown[]).map((v) =>
    typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v,
  );
  return ids.filter((v): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0);
}

export function toStoredRule({ look_back, ...row }: AlertRuleRow): StoredRule {
  return {
    ...row,
    // Only look-back rules carry the field: other rules answer as they did before it existed.
    ...(look_back === 1 ? { look_back: true } : {}),
    scope: row.scope as StoredRule['scope'],
    kind: row.kind as StoredRule['kind'],
    severity: row.severity as StoredRule['severity'],
    metric: row.metric as StoredRule['metric'],
    operator: row.operator as StoredRule['operator'],
    enabled: row.enabled === 1,
    auto_resolve: row.auto_resolve === 1,
    suppress_during_updates: row.suppress_during_updates === 1,
    host_selector_json: selector(row.host_selector_json),
    container_selector_json: selector(row.container_selector_json),
    notify_channels_json: channelIds(row.notify_channels_json),
  };
}

export function toRuleRow({ look_back, ...rule }: StoredRule): AlertRuleRow {
  const text = (v: unknown) => (v === null ? null : JSON.stringify(v));
  return {
    ...rule,
    look_back: look_back === true ? 1 : 0,
    enabled: rule.enabled ? 1 : 0,
    auto_resolve: rule.auto_resolve ? 1 : 0,
    suppress_during_updates: rule.suppress_during_updates ? 1 : 0,
    host_selector_json: text(rule.host_selector_json),
    container_selector_json: text(rule.container_selector_json),
    notify_channels_json: JSON.stringify(rule.notify_channels_json),
  };
}

async function writeRule(db: Db, rule: StoredRule): Promise<void> {
  const { id, ...rest } = toRuleRow(rule);
  await db.updateTable('alert_rules').set(rest).where('id', '=', id).execute();
}

/** Alert rules as stored. Deleting one leaves its alerts (they keep the rule's name). */
export function createRulesStore(db: Db) {
  return {
    async list(): Promise<StoredRule[]> {
      const rows = await db.selectFrom('alert_rules').selectAll().orderBy('created_at').execute();
      return rows.map(toStoredRule);
    },

    async get(id: string): Promise<StoredRule | undefined> {
      const row = await db
        .selectFrom('alert_rules')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row === undefined ? undefined : toStoredRule(row);
    },

    async insert(rule: StoredRule): Promise<void> {
      await db.insertInto('alert_rules').values(toRuleRow(rule)).execute();
    },

    async replace(rule: StoredRule): Promise<void> {
      await writeRule(db, rule);
    },

    /** Several rules in one transaction: all are written or none. */
    async replaceAll(rules: StoredRule[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const rule of rules) await writeRule(trx, rule);
      });
    },

    async delete(id: string): Promise<boolean> {
      const r = await db.deleteFrom('alert_rules').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
export type RulesStore = ReturnType<typeof createRulesStore>;
