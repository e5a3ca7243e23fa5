import test from 'ava';
import fc from 'fast-check';
import { html as html5, parse, type DefaultTreeAdapterTypes } from 'parse5';
import { readHtmlAssociations, rslAssociationsFromHtml } from '../../src/rsl/html-associations.js';

// Property (docs/decisions.md, "Reading pages as browsers do"): for random HTML built from a grammar of elements
// (tables, select, frameset and formatting elements included), comments, RCDATA/RAWTEXT elements, templates, foreign
// content with CDATA, and attributes quoted every way, the associations the scanner finds are exactly those in the
// document parse5's default tree holds (HTML-namespace `<link>`/`<script>` reachable from the document, not in template
// contents; the first `<base href>`). The scanner drives the same tree builder through a tree adapter that keeps no
// tree, so this checks that adapter: placement, template contents, detached nodes, script text. The markup strings used
// as text are the decoys.

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;

const RSL = 'application/rsl+xml';
const quoted = (value: string) =>
  fc.constantFrom(`"${value.replaceAll('"', '&quot;')}"`, `'${value.replaceAll("'", '&#39;')}'`, value);
const attr = (name: string, values: string[]) =>
  fc
    .constantFrom(...values)
    .chain((v) => quoted(v))
    .map((q) => (/^[^\s"'=<>`]+$/.test(q) || q.startsWith('"') || q.startsWith("'") ? `${name}=${q}` : name));
const rel = attr('rel', ['license', 'LICENSE', 'nofollow license', 'licensee', 'alternate']);
const type = attr('type', [RSL, 'Application/RSL+XML; charset=utf-8', 'text/html', 'application/ld+json']);
const href = attr('href', ['/a.xml', '/b&amp;c.xml', '/d&#x2e;xml', ' /e.xml ', '', 'https://x.test/f.xml', '/g&lt']);
const someOf = (...parts: fc.Arbitrary<string>[]) =>
  fc
    .subarray(parts.map((_, i) => i))
    .chain((idx) =>
      idx.length === 0 ? fc.constant('') : fc.tuple(...idx.map((i) => parts[i]!)).map((xs) => ` ${xs.join(' ')}`),
    );

const link = fc
  .tuple(someOf(rel, type, href, rel), fc.constantFrom('>', '/>', ' >'))
  .map(([a, end]) => `<link${a}${end}`);
const base = href.map((h) => `<base ${h.replace(/^href/, 'href')}>`);
/** Text that looks like markup: what a regex scanner would take for elements. */
const DECOY_TEXT = [
  `<link rel=license type=${RSL} href=/decoy.xml>`,
  `<script type=${RSL}><rsl/></script>`,
  '<base href=/decoy/>',
  '<!-- ',
  ' -->',
  '</textarea>',
  '</style',
  '</script>',
  '<![CDATA[ ',
  ' ]]>',
  '&amp; & < >',
  'plain text',
  '\n',
];
const text = fc.constantFrom(...DECOY_TEXT);
const scriptBody = fc
  .array(fc.constantFrom('<rsl xmlns="x"/>', '<!--', '-->', '<script>', '</scrip', '&amp;', ' ', 'a<b'), {
    maxLength: 5,
  })
  .map((xs) => xs.join(''));
const script = fc
  .tuple(someOf(type, type), scriptBody, fc.boolean())
  .map(([a, body, closed]) => `<script${a}>${body}${closed ? '</script>' : ''}`);
const comment = fc
  .tuple(fc.array(text, { maxLength: 3 }), fc.constantFrom('-->', '--!>', ' -->'))
  .map(([t, end]) => `<!--${t.join('').replaceAll('-->', '').replaceAll('--!>', '')}${end}`);
const RAW = ['textarea', 'title', 'style', 'xmp', 'noscript', 'iframe', 'noembed', 'noframes'];
const raw = fc
  .tuple(fc.constantFrom(...RAW), fc.array(fc.oneof(text, link, script, base), { maxLength: 3 }))
  .map(([tag, body]) => `<${tag}>${body.join('')}</${tag}>`);
const leaf = fc.oneof(
  { weight: 3, arbitrary: link },
  { weight: 3, arbitrary: script },
  { weight: 1, arbitrary: base },
  { weight: 2, arbitrary: text },
  { weight: 2, arbitrary: comment },
  { weight: 2, arbitrary: raw },
);
const { content } = fc.letrec<{ content: string; node: string; foreign: string }>((tie) => ({
  content: fc.array(tie('node'), { maxLength: 5 }).map((xs) => xs.join('')),
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: leaf },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom('div', 'p', 'span', 'section', 'b', 'a', 'head', 'body', 'table', 'td', 'select', 'frameset'),
          tie('content'),
        )
        .map(([tag, inner]) => `<${tag}>${inner}</${tag}>`),
    },
    { weight: 1, arbitrary: tie('content').map((inner) => `<template>${inner}</template>`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('svg', 'math'), fc.array(tie('foreign'), { maxLength: 4 }))
        .map(([tag, inner]) => `<${tag}>${inner.join('')}</${tag}>`),
    },
  ),
  foreign: fc.oneof(
    { depthSize: 'small' },
    link,
    script,
    text,
    comment,
    fc.array(text, { maxLength: 3 }).map((t) => `<![CDATA[${t.join('').replaceAll(']]>', '')}]]>`),
    tie('content').map((inner) => `<g>${inner}</g>`),
    tie('content').map((inner) => `<foreignObject>${inner}</foreignObject>`),
    tie('content').map((inner) => `<desc>${inner}</desc>`),
    tie('content').map((inner) => `<mi>${inner}</mi>`),
    fc.constantFrom('<p>breaks out</p>', '<title>t</title>', '<textarea>x</textarea>'),
  ),
}));
const documentHtml = fc
  .tuple(fc.constantFrom('', '<!doctype html>'), content, fc.boolean(), content)
  .map(([doctype, head, wrapped, body]) =>
    wrapped ? `${doctype}<html><head>${head}</head><body>${body}</body></html>` : `${doctype}${head}${body}`,
  );

function reference(
  source: string,
  scriptingEnabled = true,
): { links: string[]; scripts: string[]; baseHref: string | null } {
  const out = { links: [] as string[], scripts: [] as string[], baseHref: null as string | null };
  const get = (el: Element, name: string) => el.attrs.find((a) => a.name === name && !a.prefix)?.value;
  const isRsl = (v: string | undefined) => (v ?? '').split(';')[0]!.trim().toLowerCase() === RSL;
  const walk = (node: Node) => {
    // A template's contents are a separate fragment (`content`), not children: they are not walked.
    for (const child of 'childNodes' in node ? node.childNodes : []) {
      if ('tagName' in child && child.namespaceURI === html5.NS.HTML) {
        const rels = (get(child, 'rel') ?? '').toLowerCase().split(/[\t\n\f\r ]+/);
        if (child.tagName === 'link' && rels.includes('license') && isRsl(get(child, 'type'))) {
          const h = get(child, 'href');
          if (h !== undefined) out.links.push(h.trim());
        }
        if (child.tagName === 'script' && isRsl(get(child, 'type')))
          out.scripts.push(child.childNodes.map((c) => ('value' in c ? c.value : '')).join(''));
        if (child.tagName === 'base' && out.baseHref === null && get(child, 'href') !== undefined)
          out.baseHref = get(child, 'href')!;
      }
      walk(child);
    }
  };
  walk(parse(source, { scriptingEnabled }));
  return out;
}

test('the streaming scanner finds exactly the associations of parse5 tree parse, with scripting and without', (t) => {
  let withAssociations = 0;
  fc.assert(
    fc.property(documentHtml, (source) => {
      const scanned = rslAssociationsFromHtml(source);
      const expected = reference(source);
      if (expected.links.length + expected.scripts.length > 0) withAssociations++;
      // Foster parenting puts an element before its table, so the tree's order can differ from the
      // order the page was written in, which the scanner keeps: the sets are compared.
      const sorted = (xs: string[]) => [...xs].sort();
      const same = (a: { links: string[]; scripts: string[]; baseHref: string | null }, b: typeof a) =>
        JSON.stringify([sorted(a.links), sorted(a.scripts), a.baseHref]) ===
        JSON.stringify([sorted(b.links), sorted(b.scripts), b.baseHref]);
      // A crawler's reading (no scripting: <noscript> content is elements), made whenever the page has one.
      const crawler = reference(source, false);
      const withoutScripting = scanned.withoutScripting ?? scanned;
      return scanned.complete && same(scanned, expected) && same(withoutScripting, crawler);
    }),
    { numRuns: 2000 },
  );
  // The grammar is not degenerate: many documents do carry associations.
  t.true(withAssociations > 200, `${withAssociations} documents with associations`);
});

test('decoys a browser would not read as elements, and one it would (CDATA outside foreign content)', (t) => {
  const r = rslAssociationsFromHtml(
    `<![CDATA[<link rel=license type=${RSL} href=/hidden.xml>]]>` +
      `<![CDATA[ ends at the first >]]><link rel=license type=${RSL} href=/seen.xml>` +
      `<textarea></textarea ><link rel=license type=${RSL} href=/after-textarea.xml>`,
  );
  t.deepEqual(r.links, ['/seen.xml', '/after-textarea.xml']);
  t.deepEqual(reference(`<![CDATA[<link rel=license type=${RSL} href=/hidden.xml>]]>`).links, []);
});

test('the service scan yields between slices of a large page and reads what the whole scan reads', async (t) => {
  const filler = '<p>' + 'word '.repeat(40) + '</p>';
  const page =
    `<head><link rel=license type=${RSL} href=/first.xml></head><body>` +
    filler.repeat(6000) +
    `<script type=${RSL}><rsl/></script></body>`;
  let turns = 0;
  let ticking = true;
  const tick = () => {
    if (!ticking) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const read = await readHtmlAssociations(page);
  ticking = false;
  t.deepEqual(read, rslAssociationsFromHtml(page));
  t.true(read.complete);
  t.deepEqual(read.links, ['/first.xml']);
  // ~1.3 M characters in 64 Ki slices: other callbacks ran between them, not only after the scan.
  t.true(turns >= 10, `${turns} event-loop turns during the scan`);
});

test('the first <base href> is the first in tree order: foster parenting puts a later one before its table', (t) => {
  const source =
    '<svg><foreignObject><table><td><base href="/a.xml"></td><base href=/decoy/></table></foreignObject></svg>';
  t.is(reference(source).baseHref, '/decoy/');
  t.is(rslAssociationsFromHtml(source).baseHref, '/decoy/');
  t.is(
    rslAssociationsFromHtml('<table><td><base href=/in-cell></td><base href=/fostered></table>').baseHref,
    '/fostered',
  );
  t.is(rslAssociationsFromHtml('<base href=/first><table><base href=/second></table>').baseHref, '/first');
});
