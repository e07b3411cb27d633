import type { Db } from '../../db/database.js';

/** The MQTT settings as stored: the password sealed with the data directory's key. */
export interface StoredMqttSettings {
  enabled: boolean;
  broker_url: string;
  username: string;
  password_sealed: string | null;
  topic_prefix: string;
  discovery_enabled: boolean;
  discovery_prefix: string;
  allow_actions: boolean;
}

export const MQTT_DEFAULTS: StoredMqttSettings = {
  enabled: false,
  broker_url: '',
  username: '',
  password_sealed: null,
  topic_prefix: 'berth',
  discovery_enabled: true,
  discovery_prefix: 'homeassistant',
  allow_actions: false,
};

/** One row of the global settings table (key `integration_mqtt`): no table of its own. */
const KEY = 'integration_mqtt';

export function createMqttStore(db: Db) {
  return {
    async read(): Promise<StoredMqttSettings> {
      const row = await db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', KEY)
        .executeTakeFirst();
      if (row === undefined) return { ...MQTT_DEFAULTS };
      const stored = JSON.parse(row.value) as Partial<StoredMqttSettings>;
      return { ...MQTT_DEFAULTS, ...stored };
    },
    async write(value: StoredMqttSettings): Promise<void> {
      const json = JSON.stringify(value);
      await db
        .insertInto('settings')
        .values({ key: KEY, value: json })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: json }))
        .execute();
    },
  };
}

export type MqttStore = ReturnType<typeof createMqttStore>;
