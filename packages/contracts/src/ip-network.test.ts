import { describe, expect, it } from 'vitest';
import { parseAddress, parseSubnet, subnetContains } from './ip-network.js';
import { networkCreateSchema } from './networks.js';

const subnet = (text: string) => {
  const s = parseSubnet(text);
  if ('error' in s) throw new Error(s.error);
  return s;
};
const address = (text: string) => {
  const a = parseAddress(text);
  if (a === null) throw new Error(`not an address: ${text}`);
  return a;
};

describe('addresses and subnets', () => {
  it('reads IPv4 and IPv6 and refuses what is neither', () => {
    expect(parseAddress('10.1.2.3')).toEqual({ family: 4, value: 0x0a010203n });
    expect(parseAddress('::1')?.value).toBe(1n);
    expect(parseAddress('fd00::ffff:10.0.0.1')?.family).toBe(6);
    for (const bad of ['10.1.2', '256.1.1.1', '01.1.1.1', '1::2::3', 'fd00:::1', 'x', ''])
      expect(parseAddress(bad)).toBeNull();
  });

  it('says why a subnet is not one', () => {
    expect(parseSubnet('10.0.0.0')).toEqual({ error: expect.stringContaining('CIDR') });
    expect(parseSubnet('10.0.0.0/33')).toEqual({ error: expect.stringContaining('0 to 32') });
    expect(parseSubnet('fd00::/129')).toEqual({ error: expect.stringContaining('0 to 128') });
    expect(parseSubnet('nope/8')).toEqual({ error: expect.stringContaining('IPv4 or IPv6') });
  });

  it('tells whether a gateway lies inside its subnet', () => {
    expect(subnetContains(subnet('172.30.0.0/16'), address('172.30.255.1'))).toBe(true);
    expect(subnetContains(subnet('172.30.0.0/16'), address('172.31.0.1'))).toBe(false);
    expect(subnetContains(subnet('fd00:1::/64'), address('fd00:1::1'))).toBe(true);
    expect(subnetContains(subnet('fd00:1::/64'), address('10.0.0.1'))).toBe(false);
    expect(subnetContains(subnet('0.0.0.0/0'), address('8.8.8.8'))).toBe(true);
  });
});

describe('a new network', () => {
  const issues = (body: object) => {
    const r = networkCreateSchema.safeParse({ name: 'app-net', ...body });
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  it('names the field that is wrong', () => {
    expect(issues({ subnet: '10.0.0.0/8', gateway: '10.9.9.9' })).toEqual([]);
    expect(issues({ subnet: '10.0.0.0/8', gateway: '11.0.0.1' })).toEqual([
      'gateway: must lie inside the subnet 10.0.0.0/8',
    ]);
    expect(issues({ gateway: '10.0.0.1' })).toEqual(['gateway: needs a subnet']);
    expect(issues({ subnet: '10.0.0.0/8', gateway: 'router' })).toEqual([
      'gateway: must be an IP address',
    ]);
    expect(issues({ subnet: '10.0.0/8' })[0]).toMatch(/^subnet: /);
    expect(issues({ name: '-bad' })[0]).toMatch(/^name: /);
    expect(issues({ subnet: '', gateway: '' })).toEqual([]);
  });
});
