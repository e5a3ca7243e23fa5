import test from 'ava';
import { comparisonForm } from '../../src/matching/rfc9309-octets.js';
import { matchContentUrl } from '../../src/matching/pattern.js';
import { evaluate } from '../../src/rsl/evaluate/evaluate.js';
import { docInput, wrapFragment } from './helpers.js';

// RFC 9309 §2.2.2, written from the RFC's text and its example table ("Path", "Encoded Path",
// "Path to Match"), not from our code.

const RFC_9309_TABLE: Array<{ path: string; encoded: string; toMatch: string }> = [
  { path: '/foo/bar?baz=quz', encoded: '/foo/bar?baz=quz', toMatch: '/foo/bar?baz=quz' },
  {
    path: '/foo/bar?baz=https://foo.bar',
    encoded: '/foo/bar?baz=https%3A%2F%2Ffoo.bar',
    toMatch: '/foo/bar?baz=https%3A%2F%2Ffoo.bar',
  },
  { path: '/foo/bar/\u30c4', encoded: '/foo/bar/%E3%83%84', toMatch: '/foo/bar/%E3%83%84' },
  { path: '/foo/bar/%E3%83%84', encoded: '/foo/bar/%E3%83%84', toMatch: '/foo/bar/%E3%83%84' },
  { path: '/foo/bar/%62%61%7A', encoded: '/foo/bar/%62%61%7A', toMatch: '/foo/bar/baz' },
];

const m = (pattern: string, resource: string) => matchContentUrl(pattern, resource, false).matches;

test('RFC 9309 §2.2.2 example table: every spelling of a row compares as its "path to match"', (t) => {
  for (const row of RFC_9309_TABLE) {
    t.is(comparisonForm(row.path), row.toMatch, row.path);
    t.is(comparisonForm(row.encoded), row.toMatch, row.encoded);
  }
});

test('RFC 9309 §2.2.2 table through <content url>: pattern and resource in either spelling match', (t) => {
  // Rows 3–5 (resource URLs have no query, spec §2.2): written, encoded and to-match spellings.
  t.true(m('/foo/bar/\u30c4', 'https://p.test/foo/bar/%E3%83%84'));
  t.true(m('/foo/bar/%E3%83%84', 'https://p.test/foo/bar/%E3%83%84'));
  t.true(m('/foo/bar/%e3%83%84', 'https://p.test/foo/bar/%E3%83%84'));
  t.true(m('/foo/bar/%62%61%7A', 'https://p.test/foo/bar/baz'));
  t.true(m('/foo/bar/baz$', 'https://p.test/foo/bar/baz'));
  t.true(m('/foo/bar/%62%61%7A$', 'https://p.test/foo/bar/baz'));
});

test('unreserved escapes are decoded, reserved ones are kept encoded and equal their raw spelling', (t) => {
  t.true(m('/%7Eeditors/', 'https://p.test/~editors/notes'));
  t.true(m('/~editors/', 'https://p.test/~editors/notes'));
  // `$` is reserved: `%24` and a `$` inside the path are the same octet in comparison form.
  t.true(m('/price%24list', 'https://p.test/price$list'));
  t.true(m('/price$list', 'https://p.test/price%24list'));
  // A final `$` is still the anchor, and `%24` at the end is a literal dollar, not an anchor.
  t.false(m('/price$', 'https://p.test/price$list'));
  t.true(m('/price%24', 'https://p.test/price$list'));
  // `/` and its escape are not the same path (RFC 3986 §2.2): %2F never matches a segment break.
  t.false(m('/a%2Fb', 'https://p.test/a/b'));
  t.is(comparisonForm('/a:b@c'), '/a%3Ab%40c');
  t.is(comparisonForm('/100%'), '/100%25');
  t.is(
    matchContentUrl('/%7Eeditors/', 'https://p.test/~editors/x', false).specificity,
    matchContentUrl('/~editors/', 'https://p.test/~editors/x', false).specificity,
  );
});

test('a prohibition spelled with escapes is not missed (never more permissive than written)', (t) => {
  const xml = wrapFragment(
    '<content url="/"><license><permits type="usage">all</permits></license></content>' +
      '<content url="/%7Eeditors/"><license><prohibits type="usage">ai-train</prohibits></license></content>',
  );
  const e = evaluate([docInput(xml)], {
    resource: 'https://publisher.test/~editors/page',
    token: 'ai-train',
    userClass: 'commercial',
    geo: null,
  });
  t.is(e.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
  const dollar = wrapFragment(
    '<content url="/"><license><permits type="usage">all</permits></license></content>' +
      '<content url="/deals$today"><license><prohibits type="usage">ai-input</prohibits></license></content>',
  );
  const d = evaluate([docInput(dollar)], {
    resource: 'https://publisher.test/deals%24today',
    token: 'ai-input',
    userClass: 'commercial',
    geo: null,
  });
  t.is(d.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
});
