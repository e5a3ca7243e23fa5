import * as t from 'io-ts';
import { BlockList, isIP } from 'node:net';

// TRUST_PROXY as configuration: which proxies' X-Forwarded-For to believe. How a request's address is then
// read is src/http/trust-proxy.ts's.

export type TrustProxy =
  | { kind: 'off' }
  | { kind: 'hops'; hops: number }
  | { kind: 'ranges'; ranges: readonly string[]; list: BlockList };

export const TRUST_PROXY_OFF: TrustProxy = { kind: 'off' };
const MAX_HOPS = 16;

function range(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return undefined;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** TRUST_PROXY: `off` (also empty, `false`, `0`), a hop count 1..16, or comma-separated addresses/CIDRs. */
export const TrustProxySetting = new t.Type<TrustProxy, string, unknown>(
  'TrustProxy',
  (u): u is TrustProxy => typeof u === 'object' && u !== null && 'kind' in u,
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c, 'must be off, a hop count or a list of CIDRs');
    const s = u.trim();
    if (s === '' || /^(off|false|0)$/i.test(s)) return t.success(TRUST_PROXY_OFF);
    if (/^\d+$/.test(s)) {
      const hops = Number(s);
      return hops <= MAX_HOPS
        ? t.success({ kind: 'hops', hops })
        : t.failure(u, c, `a hop count must be 1..${MAX_HOPS}`);
    }
    const list = new BlockList();
    const ranges: string[] = [];
    for (const entry of s.split(',').map((x) => x.trim())) {
      const r = range(entry);
      if (!r)
        return t.failure(
          u,
          c,
          `"${entry}" is not an address or CIDR: use off, a hop count (1..${MAX_HOPS}) or ` +
            'comma-separated CIDRs such as 10.0.0.0/8,fd00::/8',
        );
      list.addSubnet(r.address, r.prefix, r.family);
      ranges.push(`${r.address}/${r.prefix}`);
    }
    return t.success({ kind: 'ranges', ranges, list });
  },
  (a) => (a.kind === 'off' ? 'off' : a.kind === 'hops' ? String(a.hops) : a.ranges.join(',')),
);
