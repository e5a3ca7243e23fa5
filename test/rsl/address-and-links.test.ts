import test from 'ava';
import { refusedAddressReason } from '../../src/rsl/address-policy.js';
import { rslLinksFromHeader } from '../../src/rsl/associations.js';
import { rslAssociationsFromHtml } from '../../src/rsl/html-associations.js';
import { httpLifetime } from '../../src/rsl/fetch-cache.js';
import { matchContentUrl } from '../../src/matching/pattern.js';

const refused: Array<[string, string]> = [
  ['10.0.0.1', 'private'],
  ['172.16.5.4', 'private'],
  ['192.168.1.1', 'private'],
  ['127.0.0.1', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['100.64.0.1', 'cgnat'],
  ['0.0.0.0', 'unspecified/this-network'],
  ['224.0.0.251', 'multicast'],
  ['255.255.255.255', 'reserved/broadcast'],
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'link-local'],
  ['fd12:3456::1', 'unique-local'],
  ['::ffff:10.0.0.1', 'ipv4-mapped'],
  ['64:ff9b::a00:1', 'nat64'],
  ['2002:a00:1::1', '6to4'],
  ['ff02::1', 'multicast'],
];
for (const [ip, why] of refused) {
  test(`address ${ip} is refused (${why})`, (t) => t.is(refusedAddressReason(ip, false), why));
}

test('public addresses pass; loopback passes only when allowed, and nothing else private does', (t) => {
  t.is(refusedAddressReason('93.184.215.14', false), null);
  t.is(refusedAddressReason('2606:4700::6810:84e5', false), null);
  t.is(refusedAddressReason('127.0.0.1', true), null);
  t.is(refusedAddressReason('127.8.9.10', true), null);
  t.is(refusedAddressReason('::1', true), null);
  t.is(refusedAddressReason('10.0.0.1', true), 'private');
  t.is(refusedAddressReason('::ffff:127.0.0.1', true), 'ipv4-mapped');
});

test('Link header: only rel=license with the RSL media type, any parameter order and quoting', (t) => {
  t.deepEqual(rslLinksFromHeader('<https://p.test/a.xml>; rel="license"; type="application/rsl+xml"'), [
    'https://p.test/a.xml',
  ]);
  t.deepEqual(
    rslLinksFromHeader(
      '<https://p.test/b.xml>;type=application/rsl+xml;rel="nofollow license", <https://cc.org/by>; rel=license',
    ),
    ['https://p.test/b.xml'],
  );
  t.deepEqual(
    rslLinksFromHeader('<https://p.test/c,d.xml>; REL="license"; TYPE="Application/RSL+XML; charset=utf-8"'),
    ['https://p.test/c,d.xml'],
  );
  t.deepEqual(rslLinksFromHeader('<https://p.test/e.xml>; rel="license"'), []);
  t.deepEqual(rslLinksFromHeader(undefined), []);
});

test('HTML: link and inline script found; commented-out and non-RSL ones ignored', (t) => {
  const html = `<html><head>
    <!-- <link rel="license" type="application/rsl+xml" href="/commented.xml"> -->
    <link href="/a.xml?x=1&amp;y=2" type="application/rsl+xml" rel="license">
    <link rel="license" href="https://creativecommons.org/licenses/by/4.0/">
    <script type="application/ld+json">{"license":"x"}</script>
    <script type='application/rsl+xml'><rsl xmlns="https://rslstandard.org/rsl"/></script>
  </head><body><link rel=license type=application/rsl+xml href=/late.xml></body></html>`;
  const r = rslAssociationsFromHtml(html);
  t.deepEqual(r.links, ['/a.xml?x=1&y=2', '/late.xml']);
  t.deepEqual(r.scripts, ['<rsl xmlns="https://rslstandard.org/rsl"/>']);
  t.is(r.linksOutsideHead, 1);
});

test('HTTP cache lifetime is read conservatively', (t) => {
  t.is(httpLifetime({}), 300);
  t.is(httpLifetime({ 'cache-control': 'max-age=60' }), 60);
  t.is(httpLifetime({ 'cache-control': 'public, max-age=86400' }), 3600);
  t.is(httpLifetime({ 'cache-control': 'max-age=600, s-maxage=30' }), 30);
  t.is(httpLifetime({ 'cache-control': 'no-store' }), 0);
  t.is(httpLifetime({ 'cache-control': 'private, max-age=600' }), 0);
  t.is(httpLifetime({ pragma: 'no-cache' }), 0);
});

test('RFC 9309 content url matching', (t) => {
  const m = (p: string | null, r: string, page = false) => matchContentUrl(p, r, page).matches;
  t.true(m('/content', 'https://p.test/content-other'));
  t.true(m('/a/*/c', 'https://p.test/a/b/x/c'));
  t.true(m('/a$', 'https://p.test/a'));
  t.false(m('/a$', 'https://p.test/a/b'));
  t.false(m('/A', 'https://p.test/a'));
  t.true(m('https://p.test/x', 'https://p.test/x/y'));
  t.false(m('https://evil.test/https://p.test/', 'https://p.test/'));
  t.false(m('https://p.test.evil.test/', 'https://p.test/'));
  t.true(m('/caf%c3%a9', 'https://p.test/caf%C3%A9'));
  t.true(m('/café', 'https://p.test/caf%C3%A9'));
  t.false(m('', 'https://p.test/a'));
  t.true(m('', 'https://p.test/a', true));
  t.false(m(null, 'https://p.test/a', true));
  t.false(m('relative/path', 'https://p.test/relative/path'));
  t.true(
    matchContentUrl('/a/b$', 'https://p.test/a/b', false).specificity >
      matchContentUrl('/a/b', 'https://p.test/a/b', false).specificity,
  );
  t.true(
    matchContentUrl('/a/b', 'https://p.test/a/b', false).specificity >
      matchContentUrl('/a/*', 'https://p.test/a/b', false).specificity,
  );
});
