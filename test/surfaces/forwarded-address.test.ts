import test from 'ava';
import type { IncomingMessage } from 'node:http';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { createRateLimits, type RateLimitedRoute } from '../../src/http/rate-limit.js';
import { TrustProxySetting } from '../../src/config/trust-proxy-setting.js';
import { clientAddress, forwardedAddress } from '../../src/http/trust-proxy.js';

// With TRUST_PROXY, the address a proxy wrote is brought to one spelling before it names a client: an entry
// with a port, a bracketed IPv6 (with or without port), a quoted one, an IPv4-mapped IPv6 or one in upper
// case is the same client as the bare address, and spends the same bucket.

const ROUTES: RateLimitedRoute[] = [
  { method: 'POST', path: '/v1/rights/quote', name: 'quote', limit: { perMinute: 1, burst: 3 } },
];
const decoded = (s: string) => {
  const r = TrustProxySetting.decode(s);
  if (r._tag === 'Left') throw new Error(s);
  return r.right;
};
const request = (xff: string, socket = '127.0.0.1') =>
  ({ headers: { 'x-forwarded-for': xff }, socket: { remoteAddress: socket } }) as unknown as IncomingMessage;

test('every spelling of one forwarded address is that address', (t) => {
  for (const s of [
    '203.0.113.7',
    ' 203.0.113.7 ',
    '203.0.113.7:1234',
    '"203.0.113.7"',
    '"203.0.113.7:80"',
    '::ffff:203.0.113.7',
  ])
    t.is(forwardedAddress(s), '203.0.113.7', s);
  for (const s of ['2001:db8::1', '[2001:db8::1]', '[2001:db8::1]:443', '2001:DB8::1', '"[2001:DB8::1]:8443"'])
    t.is(forwardedAddress(s), '2001:db8::1', s);
  // Not an address in any form: kept as written, never widened into another client.
  for (const s of ['unknown', '_hidden', '203.0.113.7:99999', '[203.0.113.7]:80']) t.is(forwardedAddress(s), s, s);
});

test('TRUST_PROXY=1: a client that adds a port to its address spends the same bucket', (t) => {
  const limits = createRateLimits(ROUTES, { trustProxy: decoded('1'), now: () => 0 });
  const spellings = ['203.0.113.7:1111', '203.0.113.7:2222', '"203.0.113.7"'];
  for (const s of spellings) limits.spend('quote', request(`198.51.100.1, ${s}`));
  const refused = t.throws(() => limits.spend('quote', request('203.0.113.7')));
  t.true(refused instanceof Refusal && refused.code === 'RATE_LIMITED');
  // Another client is not affected.
  t.notThrows(() => limits.spend('quote', request('203.0.113.8:1111')));
});

test('TRUST_PROXY=1: bracketed IPv6 with or without port is the same client as the bare address', (t) => {
  const limits = createRateLimits(ROUTES, { trustProxy: decoded('1'), now: () => 0 });
  for (const s of ['[2001:db8::1]:443', '[2001:DB8::1]', '2001:db8::1']) limits.spend('quote', request(s));
  t.throws(() => limits.spend('quote', request('[2001:db8::1]:8080')));
});

test('a CIDR list: a trusted proxy written with a port still hands over to the address it appended', (t) => {
  const list = decoded('10.0.0.0/8');
  t.is(clientAddress('10.0.0.1', '203.0.113.9:5555, 10.0.0.2:443', list), '203.0.113.9');
  t.is(clientAddress('10.0.0.1', '[2001:db8::9]:80, 10.0.0.2', list), '2001:db8::9');
});
