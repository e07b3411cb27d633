import { describe, expect, it } from 'vitest';
import { parseAllowedAddress, prometheusSettingsUpdateSchema } from './integrations.js';

describe("Prometheus's allowed addresses", () => {
  it('takes IPv4 and IPv6 addresses and networks', () => {
    expect(parseAllowedAddress('10.0.0.5')).toEqual({
      address: '10.0.0.5',
      prefix: 32,
      family: 'ipv4',
    });
    expect(parseAllowedAddress(' 10.0.0.0/8 ')).toEqual({
      address: '10.0.0.0',
      prefix: 8,
      family: 'ipv4',
    });
    expect(parseAllowedAddress('::1')).toEqual({ address: '::1', prefix: 128, family: 'ipv6' });
    expect(parseAllowedAddress('fd00::/8')?.prefix).toBe(8);
    expect(parseAllowedAddress('2001:db8:0:0:0:0:0:1')?.family).toBe('ipv6');
    expect(parseAllowedAddress('::ffff:10.0.0.1')?.family).toBe('ipv6');
  });

  it('refuses what is neither', () => {
    for (const bad of [
      '',
      'localhost',
      '10.0.0',
      '10.0.0.256',
      '010.0.0.1',
      '10.0.0.0/33',
      '10.0.0.0/',
      '10.0.0.0/a',
      '1:2:3:4:5:6:7',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      'fd00::/129',
      '12345::',
      '1.2.3.4::',
      'a/b/c',
    ])
      expect(parseAllowedAddress(bad), bad).toBeNull();
  });

  it('drops repeated entries and needs enabled', () => {
    expect(
      prometheusSettingsUpdateSchema.parse({ enabled: true, allowed_addresses: ['::1', '::1'] }),
    ).toEqual({ enabled: true, allowed_addresses: ['::1'] });
    expect(prometheusSettingsUpdateSchema.safeParse({ allowed_addresses: [] }).success).toBe(false);
  });
});
