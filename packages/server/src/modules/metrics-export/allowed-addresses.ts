import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { parseAllowedAddress } from '@berth/contracts';

const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/**
 * The addresses and networks that may scrape without a key. An IPv4 client reached over an
 * IPv6 socket (`::ffff:10.0.0.5`) is matched as its IPv4 address, as a person writes it.
 */
export function addressMatcher(entries: readonly string[]): (ip: string) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const parsed = parseAllowedAddress(entry);
    if (parsed !== null) list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return (ip) => {
    const address = MAPPED_IPV4.exec(ip)?.[1] ?? ip;
    if (isIPv4(address)) return list.check(address, 'ipv4');
    return isIPv6(address) && list.check(address, 'ipv6');
  };
}
