import { BlockList, isIPv4, isIPv6 } from 'node:net';

// Which resolved addresses the fetcher may connect to. Everything that is not plainly public
// unicast is refused: private, loopback, link-local, unique-local, CGNAT, multicast, unspecified,
// documentation, benchmarking, reserved, and IPv6 forms that embed or translate IPv4 (mapped,
// NAT64, 6to4, Teredo) because they can reach the same private hosts. A test/demo setting allows
// loopback (127.0.0.0/8 and ::1) and nothing else.

const V4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified/this-network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'ietf-protocol'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4-relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved/broadcast'],
];
const V6: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'ipv4-compatible'],
  ['::ffff:0:0', 96, 'ipv4-mapped'],
  ['64:ff9b::', 96, 'nat64'],
  ['64:ff9b:1::', 48, 'nat64-local'],
  ['100::', 64, 'discard'],
  ['2001::', 23, 'ietf-protocol (incl. teredo)'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

// One list per family: a BlockList checks IPv4 addresses against IPv6 subnets through the
// mapped range, so mixing them would refuse every IPv4 address as "ipv4-mapped".
const lists = {
  ipv4: V4.map(([a, p, why]) => ({ why, list: block(a, p, 'ipv4') })),
  ipv6: V6.map(([a, p, why]) => ({ why, list: block(a, p, 'ipv6') })),
};

function block(address: string, prefix: number, type: 'ipv4' | 'ipv6'): BlockList {
  const b = new BlockList();
  b.addSubnet(address, prefix, type);
  return b;
}

const isLoopback = (ip: string) => (isIPv4(ip) && ip.startsWith('127.')) || (isIPv6(ip) && ip.toLowerCase() === '::1');

/** Null when the address may be connected to; otherwise why it is refused. */
export function refusedAddressReason(ip: string, allowLoopback: boolean): string | null {
  const family = isIPv4(ip) ? 'ipv4' : isIPv6(ip) ? 'ipv6' : null;
  if (!family) return 'not an IP address';
  if (allowLoopback && isLoopback(ip)) return null;
  for (const { why, list } of lists[family]) if (list.check(ip, family)) return why;
  return null;
}
