/**
 * Addresses and subnets as a network's form and the server check them (no `node:net` in a
 * browser): IPv4 dotted quads and IPv6 in its usual forms, parsed to numbers so a gateway can
 * be tested against its subnet.
 */

export interface ParsedAddress {
  family: 4 | 6;
  value: bigint;
}

function parseV4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || (part.length > 1 && part.startsWith('0'))) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseV6(text: string): bigint | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.split('::').length > 2) return null;
  const [head = '', tail] = text.split('::');
  const groupsOf = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    const parts = s.split(':');
    for (const [i, part] of parts.entries()) {
      // An embedded IPv4 address may end the address (::ffff:10.0.0.1).
      if (i === parts.length - 1 && part.includes('.')) {
        const v4 = parseV4(part);
        if (v4 === null) return null;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else if (/^[0-9a-fA-F]{1,4}$/.test(part)) out.push(parseInt(part, 16));
      else return null;
    }
    return out;
  };
  const first = groupsOf(head);
  const last = tail === undefined ? [] : groupsOf(tail);
  if (first === null || last === null) return null;
  const missing = 8 - first.length - last.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...first, ...Array<number>(tail === undefined ? 0 : missing).fill(0), ...last];
  return groups.reduce((v, g) => (v << 16n) | BigInt(g), 0n);
}

/** An IPv4 or IPv6 address, or null when it is neither. */
export function parseAddress(text: string): ParsedAddress | null {
  const v4 = parseV4(text);
  if (v4 !== null) return { family: 4, value: v4 };
  const v6 = parseV6(text);
  return v6 === null ? null : { family: 6, value: v6 };
}

export interface ParsedSubnet extends ParsedAddress {
  prefix: number;
}

/** `address/prefix`, or why it is not a subnet. */
export function parseSubnet(text: string): ParsedSubnet | { error: string } {
  const slash = text.indexOf('/');
  if (slash < 0) return { error: 'must be in CIDR form, e.g. 172.30.0.0/16' };
  const address = parseAddress(text.slice(0, slash));
  if (address === null) return { error: 'must start with an IPv4 or IPv6 address' };
  const prefixText = text.slice(slash + 1);
  const max = address.family === 4 ? 32 : 128;
  const prefix = Number(prefixText);
  if (!/^\d{1,3}$/.test(prefixText) || prefix > max)
    return { error: `must end in a prefix length from 0 to ${max}` };
  return { ...address, prefix };
}

/** Whether `address` lies inside `subnet` (same family, same leading `prefix` bits). */
export function subnetContains(subnet: ParsedSubnet, address: ParsedAddress): boolean {
  if (subnet.family !== address.family) return false;
  const bits = BigInt(subnet.family === 4 ? 32 : 128);
  const shift = bits - BigInt(subnet.prefix);
  return subnet.value >> shift === address.value >> shift;
}
