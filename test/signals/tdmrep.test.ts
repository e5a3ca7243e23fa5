import test from 'ava';
import { readSignals } from '../../src/signals/read-signals.js';
import { readTdmrepFile } from '../../src/signals/tdmrep-file.js';
import { readTdmrepHeaders } from '../../src/signals/tdmrep-http.js';
import { ALL_SILENT, fetched, page, RESOURCE, verdicts } from './support.js';

// TDMRep (W3C CG final report 2024-05-10): the well-known file with its location patterns, the HTTP
// fields, the HTML meta, the mapping to our tokens and the processing priority.

const FILE_URL = 'https://pub.test/.well-known/tdmrep.json';
const file = (rules: unknown, status = 200) =>
  fetched(FILE_URL, typeof rules === 'string' ? rules : JSON.stringify(rules), status);
const RESERVED = { 'ai-input': 'reserved', 'ai-index': 'reserved', 'ai-train': 'reserved', search: 'silent' };
const NOT_RESERVED = { 'ai-input': 'silent', 'ai-index': 'silent', 'ai-train': 'allowed', search: 'silent' };

test('tdmrep.json: the first rule whose location matches is the rule (the spec example)', (t) => {
  const rules = [
    { location: '/directory-a/', 'tdm-reservation': 1 },
    { location: '/directory-b/html/', 'tdm-reservation': 1, 'tdm-policy': 'https://provider.com/policies/policy.json' },
    { location: '/directory-b/images/*.jpg', 'tdm-reservation': 0 },
  ];
  const at = (path: string) => readTdmrepFile(file(rules), `https://pub.test${path}`);
  t.deepEqual(verdicts(at('/directory-a/x.pdf')[0]), RESERVED);
  const [html] = at('/directory-b/html/p.html');
  t.deepEqual(verdicts(html), RESERVED);
  t.regex(html!.readings[2]!.rule, /tdm-policy https:\/\/provider\.com\/policies\/policy\.json/);
  t.is(html!.statement, JSON.stringify(rules[1]));
  t.is(html!.channel, 'well-known');
  t.is(html!.sha256, `sha-of-${FILE_URL}`);
  t.deepEqual(verdicts(at('/directory-b/images/a/b.jpg')[0]), NOT_RESERVED);
  const [none] = at('/elsewhere');
  t.deepEqual(verdicts(none), ALL_SILENT);
  t.regex(none!.readings[0]!.rule, /no rule's location matches/);
});

test('tdmrep.json: first in sequence and longest disagree: the more restrictive decides, and says which', (t) => {
  const rules = [
    { location: '/', 'tdm-reservation': 0 },
    { location: '/articles/', 'tdm-reservation': 1 },
  ];
  const [longer] = readTdmrepFile(file(rules), RESOURCE);
  t.deepEqual(verdicts(longer), RESERVED, 'the longest match reserves: it decides');
  t.regex(longer!.readings[0]!.rule, /TDMREP_RULE_MOST_SPECIFIC: rule 2 .* rule 1, the first in sequence/);
  t.is(longer!.statement, JSON.stringify(rules[1]));
  const restrictiveFirst = [
    { location: '/', 'tdm-reservation': 1 },
    { location: '/articles/', 'tdm-reservation': 0 },
  ];
  const [first] = readTdmrepFile(file(restrictiveFirst), RESOURCE);
  t.deepEqual(verdicts(first), RESERVED, 'the first in sequence reserves: it decides');
  t.regex(first!.readings[0]!.rule, /TDMREP_RULE_FIRST_IN_SEQUENCE: rule 1/);
  const unsetFirst = [
    { location: '/', 'tdm-reservation': 'maybe' },
    { location: '/articles/', 'tdm-reservation': 0 },
  ];
  const [unset] = readTdmrepFile(file(unsetFirst), RESOURCE);
  t.deepEqual(verdicts(unset), ALL_SILENT, 'unset permits less than 0: the first (unset) decides');
  t.regex(unset!.readings[0]!.rule, /rule 1 matches; .*protocol error.*TDMREP_RULE_FIRST_IN_SEQUENCE/);
  const sameLength = [
    { location: '/articles/*', 'tdm-reservation': 0 },
    { location: '/articles/o', 'tdm-reservation': 1 },
  ];
  t.deepEqual(verdicts(readTdmrepFile(file(sameLength), RESOURCE)[0]), RESERVED, 'equally long: the restrictive one');
});

test('tdmrep.json: a JSON string value is read as the publisher meant where that restricts more', (t) => {
  const [one] = readTdmrepFile(file([{ location: '/', 'tdm-reservation': '1' }]), RESOURCE);
  t.deepEqual(verdicts(one), RESERVED);
  t.regex(one!.readings[0]!.rule, /TDMREP_STRING_VALUE: the string "1" read as 1/);
  const [zero] = readTdmrepFile(file([{ location: '/', 'tdm-reservation': '0' }]), RESOURCE);
  t.deepEqual(verdicts(zero), ALL_SILENT, 'the string "0" read strictly is unset, which permits less than 0');
  t.regex(zero!.readings[0]!.rule, /TDMREP_STRING_VALUE: unset permits less than 0/);
});

test('tdmrep.json: `$` anchors; percent-encoding as RFC 9309; case matters', (t) => {
  const anchored = [{ location: '/a$', 'tdm-reservation': 1 }];
  t.deepEqual(verdicts(readTdmrepFile(file(anchored), 'https://pub.test/ab')[0]), ALL_SILENT);
  t.deepEqual(verdicts(readTdmrepFile(file(anchored), 'https://pub.test/a')[0]), RESERVED);
  const encoded = [{ location: '/%7Eeditors/', 'tdm-reservation': 1 }];
  t.deepEqual(verdicts(readTdmrepFile(file(encoded), 'https://pub.test/~editors/x')[0]), RESERVED);
  const upper = [{ location: '/Articles/', 'tdm-reservation': 1 }];
  t.deepEqual(verdicts(readTdmrepFile(file(upper), RESOURCE)[0]), ALL_SILENT);
});

test('tdmrep.json: protocol errors read as unset with the reason; a 404 is no file; failures are silent', (t) => {
  const cases: Array<[unknown, RegExp]> = [
    ['{not json', /is not JSON/],
    [{ location: '/', 'tdm-reservation': 1 }, /not a JSON array/],
    [[{ location: '/', 'tdm-reservation': 'yes' }], /"yes" is not 0 or 1: a protocol error/],
    [[{ location: '/', 'tdm-reservation': 2 }], /2 is not 0 or 1/],
    [[{ location: '/', 'tdm-reservation': true }], /true is not 0 or 1/],
    [[{ location: '/' }], /tdm-reservation is missing: a protocol error/],
    [
      [
        { location: '/', 'tdm-reservation': 2 },
        { location: '/', 'tdm-reservation': 0 },
      ],
      /rule 1 matches/,
    ],
    [[null, 7, { location: 5, 'tdm-reservation': 1 }], /no rule's location matches/],
  ];
  for (const [rules, why] of cases) {
    const [o] = readTdmrepFile(file(rules), RESOURCE);
    t.deepEqual(verdicts(o), ALL_SILENT, JSON.stringify(rules));
    t.regex(o!.readings[0]!.rule, why);
  }
  const bom = file(`\ufeff${JSON.stringify([{ location: '/', 'tdm-reservation': 1 }])}`);
  t.deepEqual(verdicts(readTdmrepFile(bom, RESOURCE)[0]), RESERVED, 'a byte order mark is ignored');
  t.deepEqual(readTdmrepFile(file('', 404), RESOURCE), []);
  const [forbidden] = readTdmrepFile(file('nope', 403), RESOURCE);
  t.regex(forbidden!.readings[0]!.rule, /HTTP 403: no TDMRep file/);
  const [tooBig] = readTdmrepFile({ url: FILE_URL, failure: { code: 'TOO_LARGE', message: 'over 64 KiB' } }, RESOURCE);
  t.deepEqual(verdicts(tooBig), ALL_SILENT);
  t.is(tooBig!.statement, 'TOO_LARGE: over 64 KiB');
  t.regex(tooBig!.sha256, /^[0-9a-f]{64}$/);
});

test('tdm-reservation header: 1 reserves, 0 allows ai-train only, others are unset, a repeated value counts', (t) => {
  const read = (headers: Record<string, string>) => readTdmrepHeaders(page(headers));
  const [one] = read({ 'tdm-reservation': '1', 'tdm-policy': 'https://p.test/policy.json' });
  t.deepEqual(verdicts(one), RESERVED);
  t.is(one!.statement, 'tdm-reservation: 1\ntdm-policy: https://p.test/policy.json');
  t.deepEqual(verdicts(read({ 'tdm-reservation': ' 0 ' })[0]), NOT_RESERVED);
  t.deepEqual(verdicts(read({ 'tdm-reservation': '1, 1' })[0]), RESERVED);
  for (const bad of ['2', 'yes', '1, 0', '', 'true']) {
    const [o] = read({ 'tdm-reservation': bad });
    t.deepEqual(verdicts(o), ALL_SILENT, bad);
    t.regex(o!.readings[0]!.rule, /protocol error, read as unset/);
  }
  t.deepEqual(read({ 'tdm-policy': 'https://p.test/policy.json' }), [], 'a policy alone says nothing');
});

test('tdm-reservation meta: read from the document as a browser does, not from comments or templates', (t) => {
  const html = (head: string) =>
    readSignals({
      resource: RESOURCE,
      page: page({}, `<!doctype html><html><head>${head}</head><body></body></html>`),
    });
  const [meta] = html('<meta name="TDM-Reservation" content="1"><meta name="tdm-policy" content="https://p.test/p">');
  t.deepEqual(verdicts(meta), RESERVED);
  t.is(meta!.channel, 'meta');
  t.is(meta!.sha256, `sha-of-${RESOURCE}`);
  t.regex(meta!.statement, /tdm-policy/);
  t.deepEqual(html('<!-- <meta name="tdm-reservation" content="1"> -->'), []);
  t.deepEqual(html('<template><meta name="tdm-reservation" content="1"></template>'), []);
  // <noscript> content is text to a browser, elements to a crawler without scripting: the crawler's meta counts.
  t.deepEqual(verdicts(html('<noscript><meta name="tdm-reservation" content="1"></noscript>')[0]), RESERVED);
  t.deepEqual(html('<title><meta name="tdm-reservation" content="1"></title>'), [], 'RCDATA is text');
  t.deepEqual(html(`<link title='<meta name="tdm-reservation" content="1">'>`), [], 'an attribute value is text');
  t.is(
    html('<svg><meta name="tdm-reservation" content="1"></svg>').length,
    1,
    'meta breaks out of SVG, as in a browser',
  );
  const inBody = readSignals({
    resource: RESOURCE,
    page: page({}, '<p>text</p><meta name="tdm-reservation" content="1">'),
  });
  t.deepEqual(verdicts(inBody[0]), RESERVED, 'a meta in the body is in the document');
  t.deepEqual(verdicts(html('<meta name="tdm-reservation" content="maybe">')[0]), ALL_SILENT);
});

test('processing priority: the header supersedes the file, the meta supersedes both; absence resets nothing', (t) => {
  const tdmrep = file([{ location: '/', 'tdm-reservation': 1 }]);
  const metaZero = '<meta name="tdm-reservation" content="0">';
  const all = readSignals({ resource: RESOURCE, tdmrep, page: page({ 'tdm-reservation': '1' }, metaZero) });
  t.deepEqual(
    all.map((o) => [o.channel, verdicts(o)['ai-train']]),
    [
      ['well-known', 'silent'],
      ['header', 'silent'],
      ['meta', 'allowed'],
    ],
  );
  t.regex(all[0]!.readings[0]!.rule, /superseded by tdm-reservation in the page metadata/);
  const headerOnly = readSignals({ resource: RESOURCE, tdmrep, page: page({ 'tdm-reservation': '0' }) });
  t.deepEqual(
    headerOnly.map((o) => verdicts(o)['ai-train']),
    ['silent', 'allowed'],
  );
  const invalidHeader = readSignals({ resource: RESOURCE, tdmrep, page: page({ 'tdm-reservation': 'x' }) });
  t.deepEqual(
    invalidHeader.map((o) => verdicts(o)['ai-train']),
    ['reserved', 'silent'],
    'an invalid value is unset and does not supersede',
  );
});
