import test from 'ava';
import {
  canonicalResourceUrl,
  checkResourceUrlSyntax,
  RESOURCE_URL_ERROR_CODES,
  type ResourceUrlErrorCode,
} from '../src/rsl/resource-url.js';

const covered = ['https://publisher.test', 'https://news.example.org', 'https://xn--bcher-kva.example'];

const accepted: string[] = [
  'https://publisher.test/',
  'https://publisher.test/articles/2026/rsl',
  'https://publisher.test/a%20b',
  'https://publisher.test/caf%C3%A9',
  'https://news.example.org/path/with:colon@and,sub-delims;x=1',
  'https://publisher.test//double-slash-is-canonical',
  'https://xn--bcher-kva.example/',
];

for (const url of accepted) {
  test(`accepts ${url}`, (t) => {
    const r = canonicalResourceUrl(url, covered);
    t.deepEqual(r.ok ? r.url : r, url);
  });
}

// Every hostile URL names the one code it must produce.
const hostile: Array<[unknown, ResourceUrlErrorCode]> = [
  [42, 'RESOURCE_NOT_STRING'],
  [`https://publisher.test/${'a'.repeat(2048)}`, 'RESOURCE_TOO_LONG'],
  ['http://publisher.test/', 'RESOURCE_NOT_HTTPS'],
  ['ftp://publisher.test/', 'RESOURCE_NOT_HTTPS'],
  ['javascript:alert(1)', 'RESOURCE_NOT_HTTPS'],
  ['HTTPS://publisher.test/', 'RESOURCE_NOT_CANONICAL'],
  ['//publisher.test/', 'RESOURCE_MALFORMED'],
  ['https:publisher.test/', 'RESOURCE_MALFORMED'],
  ['https:/publisher.test/', 'RESOURCE_MALFORMED'],
  [' https://publisher.test/', 'RESOURCE_CONTROL_CHARACTER'],
  ['https://publisher.test/a\tb', 'RESOURCE_CONTROL_CHARACTER'],
  ['https://publisher.test/a\nb', 'RESOURCE_CONTROL_CHARACTER'],
  ['https://publisher.test/a?b=1', 'RESOURCE_HAS_QUERY'],
  ['https://publisher.test/a?', 'RESOURCE_HAS_QUERY'],
  ['https://publisher.test/a#top', 'RESOURCE_HAS_FRAGMENT'],
  ['https://publisher.test/a#', 'RESOURCE_HAS_FRAGMENT'],
  ['https://user:pass@publisher.test/', 'RESOURCE_HAS_CREDENTIALS'],
  ['https://user@publisher.test/', 'RESOURCE_HAS_CREDENTIALS'],
  ['https://@publisher.test/', 'RESOURCE_HAS_CREDENTIALS'],
  ['https://publisher.test:443/', 'RESOURCE_HAS_PORT'],
  ['https://publisher.test:8443/', 'RESOURCE_HAS_PORT'],
  ['https://publisher.test:/', 'RESOURCE_HAS_PORT'],
  ['https://127.0.0.1/', 'RESOURCE_IP_LITERAL'],
  ['https://10.0.0.1/', 'RESOURCE_IP_LITERAL'],
  ['https://[::1]/', 'RESOURCE_IP_LITERAL'],
  ['https://[::ffff:127.0.0.1]/', 'RESOURCE_IP_LITERAL'],
  ['https://2130706433/', 'RESOURCE_IP_LITERAL'],
  ['https://0x7f.1/', 'RESOURCE_IP_LITERAL'],
  ['https://0x7f000001/', 'RESOURCE_IP_LITERAL'],
  ['https://127.1/', 'RESOURCE_IP_LITERAL'],
  ['https://0177.0.0.1/', 'RESOURCE_IP_LITERAL'],
  ['https://publisher.1/', 'RESOURCE_IP_LITERAL'],
  ['https://publisher.test\\@evil.test/', 'RESOURCE_HAS_BACKSLASH'],
  ['https://publisher.test/a\\b', 'RESOURCE_HAS_BACKSLASH'],
  ['https://publisher.test/a%5Cb', 'RESOURCE_HAS_BACKSLASH'],
  ['https://publisher.test/a%2Fb', 'RESOURCE_ENCODED_SLASH'],
  ['https://publisher.test/a%2fb', 'RESOURCE_ENCODED_SLASH'],
  ['https://publisher.test/a/../b', 'RESOURCE_DOT_SEGMENT'],
  ['https://publisher.test/a/./b', 'RESOURCE_DOT_SEGMENT'],
  ['https://publisher.test/a/%2e%2e/b', 'RESOURCE_DOT_SEGMENT'],
  ['https://publisher.test/a/.%2E', 'RESOURCE_DOT_SEGMENT'],
  ['https://publisher.test/..', 'RESOURCE_DOT_SEGMENT'],
  ['https://Publisher.test/', 'RESOURCE_HOST_NOT_LOWERCASE'],
  ['https://PUBLISHER.TEST/', 'RESOURCE_HOST_NOT_LOWERCASE'],
  ['https://publisher.test./', 'RESOURCE_HOST_TRAILING_DOT'],
  ['https://bücher.example/', 'RESOURCE_HOST_NOT_PUNYCODE'],
  ['https://xn--a.example/', 'RESOURCE_HOST_NOT_PUNYCODE'],
  ['https://publ%69sher.test/', 'RESOURCE_HOST_INVALID'],
  ['https://publisher_x.test/', 'RESOURCE_HOST_INVALID'],
  ['https://localhost/', 'RESOURCE_HOST_INVALID'],
  ['https://-bad.test/', 'RESOURCE_HOST_INVALID'],
  ['https:///path', 'RESOURCE_MALFORMED'],
  ['https://publisher.test', 'RESOURCE_NOT_CANONICAL'],
  ['https://publisher.test/a%7eb', 'RESOURCE_NOT_CANONICAL'],
  ['https://publisher.test/a%7Eb', 'RESOURCE_NOT_CANONICAL'],
  ['https://publisher.test/caf%c3%a9', 'RESOURCE_NOT_CANONICAL'],
  ['https://publisher.test/a"b', 'RESOURCE_NOT_CANONICAL'],
  ['https://publisher.test/a<b>', 'RESOURCE_NOT_CANONICAL'],
  ['https://publisher.test/café', 'RESOURCE_NOT_CANONICAL'],
  ['https://publisher.test/a%zz', 'RESOURCE_BAD_PERCENT_ENCODING'],
  ['https://publisher.test/a%', 'RESOURCE_BAD_PERCENT_ENCODING'],
  ['https://sub.publisher.test/', 'RESOURCE_NOT_COVERED'],
  ['https://other.test/', 'RESOURCE_NOT_COVERED'],
  ['https://example.org/', 'RESOURCE_NOT_COVERED'],
];

for (const [url, code] of hostile) {
  test(`refuses ${JSON.stringify(url).slice(0, 80)} with ${code}`, (t) => {
    const r = canonicalResourceUrl(url, covered);
    t.false(r.ok);
    if (!r.ok) {
      t.is(r.code, code);
      t.true(r.message.length > 0);
    }
  });
}

test('at least 25 hostile URLs, and every declared code except none is exercised', (t) => {
  t.true(hostile.length >= 25);
  const exercised = new Set(hostile.map(([, c]) => c));
  t.deepEqual(
    RESOURCE_URL_ERROR_CODES.filter((c) => !exercised.has(c)),
    [],
  );
});

test('exactly 2048 characters is accepted, 2049 refused', (t) => {
  const base = 'https://publisher.test/';
  const ok = base + 'a'.repeat(2048 - base.length);
  t.is(ok.length, 2048);
  t.true(canonicalResourceUrl(ok, covered).ok);
  const r = canonicalResourceUrl(ok + 'a', covered);
  t.false(r.ok);
  t.is(!r.ok && r.code, 'RESOURCE_TOO_LONG');
});

test('syntax check without coverage accepts any well-formed origin (free inspection)', (t) => {
  const r = checkResourceUrlSyntax('https://elsewhere.example/x');
  t.true(r.ok);
  t.is(r.ok && r.origin, 'https://elsewhere.example');
});
