import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

// ---- MQTT with Home Assistant discovery ------------------------------------------------------

/** A masked MQTT password in answers; sent back unchanged, it keeps the stored one. */
export const MQTT_PASSWORD_MASK = '********';

/** mqtt://, mqtts://, ws:// or wss:// with a host: what mqtt.js can dial. */
export const isMqttBrokerUrl = (v: string): boolean =>
  /^(mqtts?|wss?):\/\/[^\s/?#]+[^\s]*$/i.test(v.trim());

/** A topic level path without wildcards, $-prefixed system topics or empty levels. */
export const isMqttTopicPrefix = (v: string): boolean =>
  /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(v) && v.length <= 100;

const topicPrefix = (label: string) =>
  z
    .string()
    .trim()
    .refine(
      isMqttTopicPrefix,
      `${label} must be topic levels of letters, digits, '_', '.' or '-' separated by '/' (no wildcards)`,
    );

/** Settings → Integrations → MQTT as stored and answered (the password masked). */
export const mqttSettingsSchema = lazySchema(() =>
  z.object({
    enabled: z.boolean(),
    broker_url: z.string(),
    username: z.string(),
    /** MQTT_PASSWORD_MASK when one is stored, '' when none. */
    password: z.string(),
    topic_prefix: z.string(),
    discovery_enabled: z.boolean(),
    discovery_prefix: z.string(),
    /** Whether start/stop/restart commands received over MQTT are carried out. */
    allow_actions: z.boolean(),
  }),
);
export type MqttSettings = z.infer<typeof mqttSettingsSchema>;

export const mqttSettingsUpdateSchema = lazySchema(() =>
  z
    .strictObject({
      enabled: z.boolean(),
      broker_url: z
        .string()
        .trim()
        .max(500, 'Broker URL is too long')
        .refine(
          (v) => v === '' || isMqttBrokerUrl(v),
          'Broker URL must start with mqtt://, mqtts://, ws:// or wss://',
        ),
      username: z.string().trim().max(200, 'Username is too long').default(''),
      /** The mask keeps the stored password; '' clears it. */
      password: z.string().max(500, 'Password is too long').default(MQTT_PASSWORD_MASK),
      topic_prefix: topicPrefix('Topic prefix').default('berth'),
      discovery_enabled: z.boolean().default(true),
      discovery_prefix: topicPrefix('Discovery prefix').default('homeassistant'),
      allow_actions: z.boolean().default(false),
    })
    .refine((s) => !s.enabled || s.broker_url !== '', {
      path: ['broker_url'],
      message: 'Broker URL is required when MQTT is on',
    }),
);
export type MqttSettingsUpdate = z.infer<typeof mqttSettingsUpdateSchema>;

/** Whether Berth is connected to the broker, and if not, why. */
export const mqttStatusSchema = lazySchema(() =>
  z.object({
    state: z.enum(['disabled', 'connecting', 'connected', 'disconnected']),
    connected: z.boolean(),
    /** The broker's or the network's last refusal, as it said it; null once connected. */
    last_error: z.string().nullable(),
    /** When `state` began (ISO). */
    since: z.string(),
    /** Messages published since Berth started. */
    messages_published: z.number().int(),
  }),
);
export type MqttStatus = z.infer<typeof mqttStatusSchema>;

/** GET and PUT /api/integrations/mqtt. */
export const mqttIntegrationSchema = lazySchema(() =>
  z.object({ settings: mqttSettingsSchema, status: mqttStatusSchema }),
);
export type MqttIntegration = z.infer<typeof mqttIntegrationSchema>;

// ---- Prometheus /metrics --------------------------------------------------------------------

/** Where Prometheus scrapes Berth: at the root, as Prometheus expects, not under /api. */
export const PROMETHEUS_METRICS_PATH = '/metrics';
/** Entries in the allowed list: a person's list of scrapers and their networks. */
export const MAX_PROMETHEUS_ADDRESSES = 50;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** Whether `v` is an IPv6 address: eight groups, or fewer around one `::`, maybe ending in IPv4. */
function isIpv6(v: string): boolean {
  const halves = v.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  const last = halves.length === 2 ? tail : head;
  let width = head.length + tail.length;
  // An embedded IPv4 address (::ffff:10.0.0.1) takes the place of the last two groups.
  if (last.at(-1)?.includes('.') === true) {
    if (!IPV4.test(last.pop() ?? '')) return false;
    width += 1;
  }
  if (![...head, ...tail].every((g) => HEX_GROUP.test(g))) return false;
  return halves.length === 2 ? width <= 7 : width === 8;
}

/**
 * An address or network as Prometheus's allowed list takes it: `10.0.0.5`, `10.0.0.0/8`,
 * `::1` or `fd00::/8`. Null when it is neither.
 */
export function parseAllowedAddress(
  value: string,
): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, extra] = value.trim().split('/');
  if (extra !== undefined) return null;
  const family = IPV4.test(address) ? 'ipv4' : isIpv6(address) ? 'ipv6' : null;
  if (family === null) return null;
  const max = family === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: max, family };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return null;
  return { address, prefix: Number(prefixText), family };
}

/** Settings → Integrations → Prometheus, as stored and answered. */
export const prometheusSettingsSchema = lazySchema(() =>
  z.object({
    enabled: z.boolean(),
    /** Addresses and networks that may scrape without a key; anyone else needs a `read` key. */
    allowed_addresses: z.array(z.string()),
  }),
);
export type PrometheusSettings = z.infer<typeof prometheusSettingsSchema>;

/** PUT /api/integrations/prometheus. */
export const prometheusSettingsUpdateSchema = lazySchema(() =>
  z.strictObject({
    enabled: z.boolean({ message: 'Required' }),
    allowed_addresses: z
      .array(
        z
          .string()
          .trim()
          .max(60, 'Address is too long')
          .refine(
            (v) => parseAllowedAddress(v) !== null,
            'Must be an IP address or a network in CIDR form (10.0.0.0/8, fd00::/8)',
          ),
      )
      .max(MAX_PROMETHEUS_ADDRESSES, `At most ${MAX_PROMETHEUS_ADDRESSES} addresses`)
      .transform((list) => [...new Set(list)])
      .default([]),
  }),
);
export type PrometheusSettingsUpdate = z.input<typeof prometheusSettingsUpdateSchema>;
