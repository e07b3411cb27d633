import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

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
