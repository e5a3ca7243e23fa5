import test from 'ava';
import fc from 'fast-check';
import { evaluate, type DocumentInput } from '../../src/rsl/evaluate/evaluate.js';
import { DEFAULT_PARSE_LIMITS, parseRsl } from '../../src/rsl/parse/parse.js';
import { DECISION_RESTRICTIVENESS } from '@rights-preflight/wire/rsl/vocabulary.js';
import type { EvaluatedToken, UserClass } from '@rights-preflight/wire/rsl/purposes.js';
import type { Channel } from '@rights-preflight/wire/rsl/vocabulary.js';

// Random RSL documents are generated as a small model, written out as XML (so the parser is part
// of the property), then evaluated. Two properties from the issue:
//  1. adding a <prohibits> anywhere never makes a decision more permissive;
//  2. the order of documents, contents, licenses and license children never changes a decision.

type Axis = 'usage' | 'user' | 'geo';
interface GenLicense {
  parts: Array<{ el: 'permits' | 'prohibits'; axis: Axis; tokens: string[] }>;
  payment: string | null;
}
interface GenContent {
  url: string;
  server: boolean;
  licenses: GenLicense[];
}
interface GenDoc {
  channel: Channel;
  contents: GenContent[];
}

const USAGE = ['all', 'ai-all', 'ai-train', 'ai-input', 'ai-index', 'search', 'train-ai', 'ai-use', 'bogus'];
const USERS = ['commercial', 'non-commercial', 'education', 'government', 'personal'];
const GEOS = ['US', 'FR', 'DE', 'EU', 'GB'];
const tokensFor = (axis: Axis) => (axis === 'usage' ? USAGE : axis === 'user' ? USERS : GEOS);

const part = fc.constantFrom<Axis>('usage', 'usage', 'user', 'geo').chain((axis) =>
  fc.record({
    el: fc.constantFrom<'permits' | 'prohibits'>('permits', 'prohibits'),
    axis: fc.constant(axis),
    tokens: fc.uniqueArray(fc.constantFrom(...tokensFor(axis)), { minLength: 1, maxLength: 3 }),
  }),
);
const license: fc.Arbitrary<GenLicense> = fc.record({
  // At most one element per (el, axis), as a conformant document has.
  parts: fc
    .array(part, { maxLength: 4 })
    .map((ps) => ps.filter((p, i) => ps.findIndex((q) => q.el === p.el && q.axis === p.axis) === i)),
  payment: fc.constantFrom(null, 'free', 'use', 'attribution', 'royalty', 'standard-only'),
});
const content: fc.Arbitrary<GenContent> = fc.record({
  url: fc.constantFrom('/', '/a/', '/a/b', '/a/*', '/a/b$', '*', '', '/x/'),
  server: fc.boolean(),
  licenses: fc.array(license, { minLength: 1, maxLength: 3 }),
});
const doc: fc.Arbitrary<GenDoc> = fc.record({
  channel: fc.constantFrom<Channel>('robots', 'robots', 'link-header', 'html-inline'),
  contents: fc.array(content, { minLength: 1, maxLength: 3 }),
});
const question = fc.record({
  resource: fc.constantFrom('https://publisher.test/a/b', 'https://publisher.test/a/c', 'https://publisher.test/'),
  token: fc.constantFrom<EvaluatedToken>('ai-input', 'ai-index', 'ai-train', 'search', 'crawl'),
  userClass: fc.constantFrom<UserClass>('commercial', 'education', 'personal'),
  geo: fc.constantFrom<string | null>(null, 'US', 'FR'),
});

function paymentXml(p: string | null): string {
  if (p === null) return '';
  if (p === 'standard-only') return '<payment><standard>https://rslcollective.org/license</standard></payment>';
  return `<payment type="${p}"/>`;
}

function toXml(d: GenDoc, reverse = false): string {
  const rev = <T>(xs: T[]) => (reverse ? [...xs].reverse() : xs);
  const lic = (l: GenLicense) => {
    const children = [
      ...l.parts.map((p) => `<${p.el} type="${p.axis}">${p.tokens.join(' ')}</${p.el}>`),
      paymentXml(l.payment),
    ];
    return `<license>${rev(children).join('')}</license>`;
  };
  const cont = (c: GenContent) =>
    `<content url="${c.url}"${c.server ? ' server="https://ls.example"' : ''}>` +
    `${rev(c.licenses).map(lic).join('')}</content>`;
  return `<rsl xmlns="https://rslstandard.org/rsl">${rev(d.contents).map(cont).join('')}</rsl>`;
}

// The properties are about the reading, not the parser's wall-clock limit: on a machine loaded past its
// cores a small parse can pass 500 ms and answer PARSE_TIME_LIMIT for one order and not the other.
const UNTIMED = { ...DEFAULT_PARSE_LIMITS, maxMillis: 60_000 };
const inputs = (docs: GenDoc[], reverse = false): DocumentInput[] =>
  docs.map((d, i) => {
    const xml = toXml(d, reverse);
    return {
      channel: d.channel,
      url: `https://publisher.test/license-${i}.xml`,
      sha256: null,
      parse: parseRsl(xml, UNTIMED),
      failure: null,
    };
  });

test('adding a <prohibits> never makes a decision more permissive', (t) => {
  fc.assert(
    fc.property(
      fc.array(doc, { minLength: 1, maxLength: 3 }),
      question,
      part.map((p) => ({ ...p, el: 'prohibits' as const })),
      fc.nat(),
      fc.nat(),
      fc.nat(),
      (docs, q, extra, di, ci, li) => {
        const before = evaluate(inputs(docs), q);
        const target = structuredClone(docs);
        const d = target[di % target.length]!;
        const c = d.contents[ci % d.contents.length]!;
        const l = c.licenses[li % c.licenses.length]!;
        l.parts.push(extra);
        const after = evaluate(inputs(target), q);
        return DECISION_RESTRICTIVENESS[after.decision] >= DECISION_RESTRICTIVENESS[before.decision];
      },
    ),
    { numRuns: 1500 },
  );
  t.pass();
});

test('document order and element order never change a decision or classification', (t) => {
  fc.assert(
    fc.property(fc.array(doc, { minLength: 1, maxLength: 3 }), question, (docs, q) => {
      const a = evaluate(inputs(docs), q);
      const b = evaluate(inputs([...docs].reverse(), true), q);
      return a.decision === b.decision && a.classification === b.classification;
    }),
    { numRuns: 1500 },
  );
  t.pass();
});

test('the generator reaches every decision (the properties are not vacuous)', (t) => {
  const seen = new Set<string>();
  fc.assert(
    fc.property(fc.array(doc, { minLength: 1, maxLength: 3 }), question, (docs, q) => {
      seen.add(evaluate(inputs(docs), q).classification);
      return true;
    }),
    { numRuns: 1500 },
  );
  for (const c of [
    'PERMITTED_BY_OBSERVED_DECLARATION',
    'PROHIBITED_BY_OBSERVED_DECLARATION',
    'LICENSE_REQUIRED',
    'CONFLICT',
    'UNKNOWN',
  ])
    t.true(seen.has(c), c);
});
