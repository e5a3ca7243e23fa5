import test from 'ava';
import fc from 'fast-check';
import { type DefaultTreeAdapterTypes, html as html5, parse } from 'parse5';
import { htmlMetas, readHtmlMetas } from '../../src/signals/html-meta.js';
import { readSignals } from '../../src/signals/read-signals.js';
import { page as pageOf, RESOURCE } from './support.js';

// Property: the metas htmlMetas finds (it keeps no tree: parent links only) are exactly the HTML-namespace
// `<meta name content>` elements of the documents parse5's default tree holds with and without scripting
// (compared as sets of occurrences: foster parenting can put a meta before one created earlier) — not in
// template contents, comments, RCDATA or attribute values, and those that break out of foreign content.

const NAMES = new Set(['robots', 'tdm-reservation', 'tdm-policy']);
const meta = fc
  .tuple(
    fc.constantFrom('robots', 'ROBOTS', 'tdm-reservation', 'tdm-policy', 'description'),
    fc.constantFrom('1', 'noai'),
  )
  .map(([n, c]) => `<meta name="${n}" content="${c}">`);
const piece = fc.oneof(
  meta,
  fc.constantFrom('<head>', '</head>', '<body>', '<p>', '</p>', '<table>', '<tr>', '<td>', '</table>', 'text'),
  fc.constantFrom('<template>', '</template>', '<svg>', '</svg>', '<math>', '</math>', '<noscript>', '</noscript>'),
  fc.constantFrom('<title>', '</title>', '<textarea>', '</textarea>', '<!--', '-->', '<select>', '</select>'),
  fc.constantFrom('<frameset>', '<div title=\'<meta name="robots" content="noai">\'>', '<script>', '</script>'),
);

/** The metas of parse5's document built with scripting (a browser's), or without (a crawler's). */
function metasOf(page: string, scriptingEnabled: boolean): string[] {
  const out: string[] = [];
  const walk = (n: DefaultTreeAdapterTypes.ParentNode) => {
    for (const c of n.childNodes) {
      if (!('tagName' in c)) continue;
      const name = c.attrs.find((a) => a.name === 'name')?.value.toLowerCase();
      const content = c.attrs.find((a) => a.name === 'content')?.value;
      if (c.tagName === 'meta' && c.namespaceURI === html5.NS.HTML && name && NAMES.has(name) && content !== undefined)
        out.push(`${name}=${content}`);
      walk(c);
    }
  };
  walk(parse(page, { scriptingEnabled }));
  return out;
}

/** Either reader's metas, each occurrence once: the browser's, then those only the crawler sees. */
function expected(page: string): string[] {
  const out = metasOf(page, true);
  const unmatched = [...out];
  for (const m of metasOf(page, false)) {
    const at = unmatched.indexOf(m);
    if (at >= 0) unmatched.splice(at, 1);
    else out.push(m);
  }
  return out;
}

test('htmlMetas finds exactly the metas of the document parse5 builds', (t) => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
      const page = pieces.join('');
      const found = htmlMetas(page, NAMES).map((m) => `${m.name}=${m.content}`);
      return JSON.stringify(found.sort()) === JSON.stringify(expected(page).sort());
    }),
    { numRuns: 400 },
  );
  t.pass();
});

test('readHtmlMetas reads in slices what htmlMetas reads at once, across slice boundaries', async (t) => {
  const filler = '<p>filler text</p>'.repeat(4000);
  const meta = '<meta name="tdm-reservation" content="1">';
  const page = `<head><meta name="robots" content="noai"></head>${filler}${meta}${filler}`;
  t.true(page.length > 2 * 64 * 1024);
  const sliced = await readHtmlMetas(page);
  t.deepEqual(sliced, htmlMetas(page));
  t.deepEqual(
    sliced.map((m) => m.name),
    ['robots', 'tdm-reservation'],
  );
});

test('readSignals uses the metas the caller scanned and does not scan the page again', (t) => {
  const html = '<meta name="robots" content="noai">';
  t.is(readSignals({ resource: RESOURCE, page: pageOf({}, html) }).length, 1);
  t.deepEqual(readSignals({ resource: RESOURCE, page: { ...pageOf({}, html), metas: [] } }), []);
});
