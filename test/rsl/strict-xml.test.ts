import test from 'ava';
import { parseRsl, DEFAULT_PARSE_LIMITS } from '../../src/rsl/parse/parse.js';
import { evaluate } from '../../src/rsl/evaluate/evaluate.js';
import { docInput, RSL_NS } from './helpers.js';

// Only well-formed XML 1.0 is a document (rsl.md §1.1: "XML 1.0 required"; §6.8: not well-formed
// ⇒ no valid document ⇒ unlicensed). Each case below is a permitting document made not
// well-formed in one way the XML 1.0 recommendation forbids; none may permit anything.

const PERMIT_ALL =
  `<rsl xmlns="${RSL_NS}"><content url="/">` + '<license><permits type="usage">all</permits></license></content></rsl>';

const NOT_WELL_FORMED: Record<string, string> = {
  // XML 1.0 §3.1 WFC "Unique Att Spec"
  'duplicate attribute': PERMIT_ALL.replace('<content url="/"', '<content url="/nothing" url="/"'),
  // Namespaces in XML 1.0 §6.3: two attributes with the same expanded name
  'duplicate expanded attribute name': PERMIT_ALL.replace(
    `<rsl xmlns="${RSL_NS}">`,
    `<rsl xmlns="${RSL_NS}" xmlns:a="urn:x" xmlns:b="urn:x">`,
  ).replace('<content url="/"', '<content url="/" a:n="1" b:n="2"'),
  // XML 1.0 §4.1 WFC "Entity Declared": only amp, lt, gt, apos, quot without a DTD
  'HTML entity &nbsp;': PERMIT_ALL.replace('>all<', '>all&nbsp;<'),
  'HTML entity &copy;': PERMIT_ALL.replace('<license>', '<license>&copy;'),
  // XML 1.0 §2.8: the XMLDecl, when present, is the very first thing
  'whitespace before the declaration': ` \n<?xml version="1.0" encoding="UTF-8"?>${PERMIT_ALL}`,
  'a second declaration': `<?xml version="1.0"?><?xml version="1.0"?>${PERMIT_ALL}`,
  'a declaration of another version': `<?xml version="1.1"?>${PERMIT_ALL}`,
  // XML 1.0 §2.2 Char
  'U+0001 control character': PERMIT_ALL.replace('>all<', '>all\u0001<'),
  'U+FFFF noncharacter': PERMIT_ALL.replace('>all<', '>all\uffff<'),
  'lone surrogate': PERMIT_ALL.replace('>all<', '>all\ud800<'),
  'character reference to U+0001': PERMIT_ALL.replace('>all<', '>all&#1;<'),
  // XML 1.0 §2.1: document ::= prolog element Misc*
  'two root elements': PERMIT_ALL + PERMIT_ALL,
  'text after the root': `${PERMIT_ALL}x`,
};

for (const [name, xml] of Object.entries(NOT_WELL_FORMED)) {
  test(`not well-formed (${name}): no document, UNKNOWN, never a permit`, (t) => {
    const parsed = parseRsl(xml);
    t.false(parsed.ok);
    if (!parsed.ok) t.is(parsed.code, 'XML_MALFORMED');
    for (const token of ['ai-train', 'search', 'crawl'] as const) {
      const e = evaluate([docInput(xml, { channel: 'supplied' })], {
        resource: 'https://publisher.test/a',
        token,
        userClass: 'commercial',
        geo: null,
      });
      t.is(e.classification, 'UNKNOWN');
      t.is(e.reasons[0]!.rule, 'document-invalid');
    }
  });
}

test('the unmutated document does permit (the cases above fail for their mutation alone)', (t) => {
  const ok = parseRsl(`<?xml version="1.0" encoding="UTF-8"?>\n${PERMIT_ALL}`);
  t.true(ok.ok && ok.conformant);
  const e = evaluate([docInput(PERMIT_ALL, { channel: 'supplied' })], {
    resource: 'https://publisher.test/a',
    token: 'ai-train',
    userClass: 'commercial',
    geo: null,
  });
  t.is(e.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
  t.true(
    parseRsl(PERMIT_ALL.replace('>all<', '>all &amp; &#x61;<')).ok,
    'predefined entities and valid character references still parse',
  );
});

test('attributes are capped per element and per document, so a 45k-attribute root is refused, not scanned', (t) => {
  const attrs = Array.from({ length: 45_000 }, (_, i) => `a${i}="1"`).join(' ');
  const bomb = PERMIT_ALL.replace(`<rsl xmlns="${RSL_NS}"`, `<rsl xmlns="${RSL_NS}" ${attrs}`);
  const r = parseRsl(bomb);
  t.false(r.ok);
  if (!r.ok) t.is(r.code, 'XML_TOO_MANY_ATTRIBUTES');
  const spread =
    `<rsl xmlns="${RSL_NS}">` +
    Array.from(
      { length: 30 },
      () => `<x:e xmlns:x="urn:x" ${Array.from({ length: 40 }, (_, i) => `b${i}="1"`).join(' ')}/>`,
    ).join('') +
    '</rsl>';
  const capped = parseRsl(spread, { ...DEFAULT_PARSE_LIMITS, maxAttributes: 1000 });
  t.false(capped.ok);
  if (!capped.ok) t.is(capped.code, 'XML_TOO_MANY_ATTRIBUTES');
});

test('the time budget is checked inside the parse loop, not only between slices', (t) => {
  // One small slice whose mismatched close tag sax reports inside the same write: with a spent
  // budget the first open tag must already stop the parse, before sax ever reaches the error.
  // The clock only stops documents past 16 KiB (a shorter one was only waiting for a core): the padding
  // comes before the first tag.
  const doc = `<!--${' '.repeat(20 * 1024)}--><rsl xmlns="${RSL_NS}"><content url="/"></rsl>`;
  const r = parseRsl(doc, { ...DEFAULT_PARSE_LIMITS, maxMillis: -1 });
  t.false(r.ok);
  if (!r.ok) t.is(r.code, 'PARSE_TIME_LIMIT');
  const unbounded = parseRsl(doc);
  t.false(unbounded.ok);
  if (!unbounded.ok) t.is(unbounded.code, 'XML_MALFORMED');
});

test('a small document is never stopped by the parse clock (a loaded machine is not the publisher)', (t) => {
  const r = parseRsl(PERMIT_ALL, { ...DEFAULT_PARSE_LIMITS, maxMillis: -1 });
  t.true(r.ok);
});

test('a comment, attribute value or processing instruction over the parser buffer is XML_NODE_TOO_LARGE', (t) => {
  const big = 'x'.repeat(70 * 1024);
  const cases = {
    comment: PERMIT_ALL.replace('<license>', `<license><!--${big}-->`),
    'attribute value': PERMIT_ALL.replace('<license>', `<license xmlns:f="urn:f" f:note="${big}">`),
    'processing instruction': PERMIT_ALL.replace('<license>', `<license><?note ${big}?>`),
  };
  for (const [name, xml] of Object.entries(cases)) {
    const parsed = parseRsl(xml);
    t.false(parsed.ok, name);
    if (!parsed.ok) t.is(parsed.code, 'XML_NODE_TOO_LARGE', `${name}: ${parsed.message}`);
    // Our limit, not the publisher's error, and still never a permission.
    const question = {
      resource: 'https://publisher.test/a',
      token: 'ai-train',
      userClass: 'commercial',
      geo: null,
    } as const;
    t.is(evaluate([docInput(xml, { channel: 'supplied' })], question).classification, 'UNKNOWN', name);
  }
  // A text node of the same size is not a buffer overrun (sax emits text in pieces): it still parses.
  t.true(parseRsl(PERMIT_ALL.replace('<license>', `<license>${big}`)).ok);
});

// XML 1.0 §4.3.3: "All XML processors MUST be able to read entities in both the UTF-8 and UTF-16
// encodings"; UTF-16 entities begin with the byte order mark, which is a signature, not text.
const PROHIBIT_ALL =
  `<?xml version="1.0" encoding="UTF-16"?><rsl xmlns="${RSL_NS}"><content url="/">` +
  '<license><prohibits type="usage">all</prohibits></license></content></rsl>';
const utf16 = (s: string, be: boolean) => {
  const le = Buffer.from(s, 'utf16le');
  if (be) for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return Buffer.concat([Buffer.from(be ? [0xfe, 0xff] : [0xff, 0xfe]), le]);
};

test('a UTF-16 document with its byte order mark is read (LE and BE); the mark is not text', (t) => {
  for (const be of [false, true]) {
    const r = parseRsl(utf16(PROHIBIT_ALL, be));
    t.true(r.ok && r.conformant, `big-endian: ${be}`);
    const e = evaluate(
      [{ channel: 'robots', url: 'https://publisher.test/l.xml', sha256: null, parse: r, failure: null }],
      { resource: 'https://publisher.test/a', token: 'ai-train', userClass: 'commercial', geo: null },
    );
    t.is(e.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
  }
});

test('a UTF-16 document that declares UTF-8, or UTF-16 without a mark, is no document', (t) => {
  const declaresUtf8 = parseRsl(utf16(PROHIBIT_ALL.replace('UTF-16', 'UTF-8'), false));
  t.false(declaresUtf8.ok);
  t.is(!declaresUtf8.ok && declaresUtf8.code, 'UNSUPPORTED_ENCODING');
  t.false(parseRsl(Buffer.from(PROHIBIT_ALL, 'utf16le')).ok);
  // A UTF-8 mark before a UTF-8 document is dropped as before.
  t.true(
    parseRsl(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(PROHIBIT_ALL.replace('UTF-16', 'UTF-8'))])).ok,
  );
});
