import { type BlockList, isIP } from 'node:net';
import type { TrustProxy } from '../config/trust-proxy-setting.js';

// Which address a request comes from, when the service runs behind reverse proxies (TRUST_PROXY).
// Off (the default): the socket's peer, and X-Forwarded-For is never read, since any client can write
// it. A hop count N: the proxies are the last N hops, so the client is the N-th address from the right
// of X-Forwarded-For, exactly as Koa computes `ctx.ip` with `app.proxy = true` and `maxIpsCount = N`
// (ips = the last N entries, the first of them, else the socket). A CIDR list: the proxies are the peers
// inside those ranges; starting at the socket, each trusted peer hands over to the address it appended,
// and the first untrusted one is the client (what Express's `trust proxy` does with a list). Koa's own
// `app.proxy` is never switched on: it would trust X-Forwarded-Host and -Proto as well. The address read
// from the header is brought to one spelling (forwardedAddress): proxies write `IP:port`, `[IPv6]:port`,
// quoted or IPv4-mapped forms, and each must count as the same client as the bare address.
// See docs/decisions.md, "One limiter on the route, not the spelling".

const unmapped = (a: string) => a.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

function trusted(list: BlockList, address: string): boolean {
  const a = unmapped(address);
  const version = isIP(a);
  return version !== 0 && list.check(a, version === 4 ? 'ipv4' : 'ipv6');
}

/**
 * One X-Forwarded-For entry as the address it names: `203.0.113.7:1234`, `[2001:db8::1]:443`, `[2001:db8::1]`,
 * `"203.0.113.7"`, `::ffff:203.0.113.7` and `2001:DB8::1` are the bare, lower-case address. An entry that is
 * not an address in any of these forms is kept as written (trimmed): it still names one client.
 */
export function forwardedAddress(entry: string): string {
  let a = entry.trim().replace(/^"(.*)"$/, '$1');
  const bracketed = /^\[([^\]]*)\](?::(\d{1,5}))?$/.exec(a);
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(a);
  const port = (p: string | undefined) => p === undefined || Number(p) <= 65535;
  if (bracketed && isIP(bracketed[1]!) === 6 && port(bracketed[2])) a = bracketed[1]!;
  else if (withPort && isIP(withPort[1]!) === 4 && port(withPort[2])) a = withPort[1]!;
  a = unmapped(a);
  return isIP(a) === 6 ? a.toLowerCase() : a;
}

/** The client's address: `forwardedFor` is the X-Forwarded-For header (Node joins repeated ones with ", "). */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  trust: TrustProxy,
): string {
  const socket = socketAddress ?? '';
  if (trust.kind === 'off' || !forwardedFor) return socket;
  const hops = forwardedFor.split(',').map((x) => x.trim());
  if (trust.kind === 'hops') {
    const entry = hops.slice(-trust.hops)[0];
    return (entry && forwardedAddress(entry)) || socket;
  }
  let address = socket;
  while (hops.length > 0 && trusted(trust.list, address)) address = forwardedAddress(hops.pop()!);
  return address;
}
