import test from 'ava';
import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { InspectResponse } from '../../src/http/routes/inspect.js';
import { Classification } from '@rights-preflight/wire/rsl/vocabulary.js';
import { RSL_NS } from './helpers.js';
import { useFastWorld } from '../support/fast-world.js';
import { postText } from '../support/post.js';

// Generated RSL documents (random scopes, tokens, cases, percent-encodings, payments) and random
// hostile bodies through the real inspect route. Properties:
//  - never a 5xx;
//  - every 200 decodes with InspectResponse and carries a classification from the enum;
//  - a mutation that breaks well-formedness never yields PERMITTED or LICENSE_REQUIRED.

// The free inspection as the service serves it (test/README.md, Worlds).
const route = useFastWorld();

const post = (body: string) => postText(`${route.url}/v1/rights/inspect`, body);

const recase = (s: string) =>
  fc
    .array(fc.boolean(), { minLength: s.length, maxLength: s.length })
    .map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));
const encodeSome = (s: string) =>
  fc
    .array(fc.boolean(), { minLength: s.length, maxLength: s.length })
    .map((enc) =>
      [...s]
        .map((c, i) => (enc[i] && /[A-Za-z~$]/.test(c) ? `%${c.charCodeAt(0).toString(16).toUpperCase()}` : c))
        .join(''),
    );

const usageToken = fc
  .constantFrom('all', 'ai-all', 'ai-train', 'ai-input', 'ai-index', 'search', 'train-ai', 'bogus', 'x:ext')
  .chain(recase);
const geoToken = fc.constantFrom('DE', 'FR', 'US', 'EU').chain(recase);
const userToken = fc.constantFrom('commercial', 'education', 'personal').chain(recase);
const term = fc
  .oneof(
    fc.tuple(
      fc.constantFrom('permits', 'prohibits'),
      fc.constant('usage'),
      fc.uniqueArray(usageToken, { minLength: 1, maxLength: 3 }),
    ),
    fc.tuple(
      fc.constantFrom('permits', 'prohibits'),
      fc.constant('geo'),
      fc.uniqueArray(geoToken, { minLength: 1, maxLength: 2 }),
    ),
    fc.tuple(
      fc.constantFrom('permits', 'prohibits'),
      fc.constant('user'),
      fc.uniqueArray(userToken, { minLength: 1, maxLength: 2 }),
    ),
  )
  .map(([el, axis, tokens]) => `<${el} type="${axis}">${tokens.join(' ')}</${el}>`);
const payment = fc.constantFrom(
  '',
  '<payment type="free"/>',
  '<payment type="free"><amount currency="USD">1</amount></payment>',
  '<payment type="purchase"/>',
  '<payment type="royalty"/>',
  '<payment><standard>https://rslcollective.org/license</standard></payment>',
);
const license = fc
  .tuple(fc.array(term, { maxLength: 3 }), payment)
  .map(([ts, p]) => `<license>${ts.join('')}${p}</license>`);
const scope = fc.constantFrom('/', '/~editors/', '/a$b', '/a/*', '/a/b$', '*', '', '/caf\u00e9/').chain(encodeSome);
const content = fc
  .tuple(scope, fc.boolean(), fc.array(license, { minLength: 1, maxLength: 2 }))
  .map(
    ([url, server, ls]) =>
      `<content url="${url.replace(/&/g, '&amp;')}"` +
      `${server ? ' server="https://ls.publisher.test/"' : ''}>${ls.join('')}</content>`,
  );
const document = fc
  .tuple(fc.boolean(), fc.array(content, { minLength: 1, maxLength: 3 }))
  .map(
    ([decl, cs]) =>
      `${decl ? '<?xml version="1.0" encoding="UTF-8"?>\n' : ''}<rsl xmlns="${RSL_NS}">${cs.join('')}</rsl>`,
  );

/** Each breaks XML 1.0 well-formedness of any document the generator above produces. */
const MUTATIONS: Record<string, (xml: string) => string> = {
  'duplicate attribute': (x) => x.replace(`<rsl xmlns="${RSL_NS}"`, `<rsl xmlns="${RSL_NS}" max-age="1" max-age="2"`),
  'HTML entity': (x) => x.replace('</rsl>', '&nbsp;</rsl>'),
  'whitespace before the declaration': (x) => ` <?xml version="1.0"?>${x.replace(/^<\?xml[^>]*\?>\n?/, '')}`,
  'control character': (x) => x.replace('</rsl>', '\u0001</rsl>'),
  'lone surrogate': (x) => x.replace('</rsl>', '\udc00</rsl>'),
  'second root': (x) => `${x}<rsl xmlns="${RSL_NS}"/>`,
  'unclosed root': (x) => x.replace(/<\/rsl>$/, ''),
  'mismatched close': (x) => x.replace(/<\/rsl>$/, '</rs>'),
};
const ALLOWS = new Set(['PERMITTED_BY_OBSERVED_DECLARATION', 'LICENSE_REQUIRED']);
const question = fc.record({
  resource: fc.constantFrom(
    'https://publisher.test/~editors/x',
    'https://publisher.test/a%24b',
    'https://publisher.test/a/b',
    'https://publisher.test/caf%C3%A9/p',
  ),
  purpose: fc.constantFrom('ai-input', 'ai-index', 'ai-train', 'search', 'crawl'),
  geo: fc.constantFrom(null, 'DE', 'US'),
  user_class: fc.constantFrom('commercial', 'education'),
});

test('generated documents: never a 5xx, always a codec-valid body with a classification', async (t) => {
  await fc.assert(
    fc.asyncProperty(document, question, async (xml, q) => {
      const r = await post(JSON.stringify({ ...q, xml }));
      if (r.status !== 200) return false;
      return isRight(InspectResponse.decode(r.body)) && Classification.is(r.body.classification);
    }),
    { numRuns: 300 },
  );
  t.pass();
});

test('a mutation that breaks well-formedness never yields PERMITTED or LICENSE_REQUIRED', async (t) => {
  await fc.assert(
    fc.asyncProperty(document, question, fc.constantFrom(...Object.keys(MUTATIONS)), async (xml, q, m) => {
      const r = await post(JSON.stringify({ ...q, xml: MUTATIONS[m]!(xml) }));
      // A lone surrogate is not plain JSON: the body guard refuses it before any XML is read (docs/wire.md §6).
      if (m === 'lone surrogate') return r.status === 400 && r.body?.error?.code === 'MALFORMED_JSON';
      return (
        r.status === 200 &&
        isRight(InspectResponse.decode(r.body)) &&
        !ALLOWS.has(r.body.classification) &&
        r.body.document.parsed === false
      );
    }),
    { numRuns: 300 },
  );
  t.pass();
});

test('random hostile bodies never get a 5xx, and every error uses the error body', async (t) => {
  const hostile = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.json(),
    fc.tuple(question, fc.string({ unit: 'binary', maxLength: 2000 })).map(([q, xml]) => JSON.stringify({ ...q, xml })),
    fc.tuple(question, fc.anything()).map(([q, xml]) => {
      try {
        return JSON.stringify({ ...q, xml });
      } catch {
        return '{}';
      }
    }),
  );
  await fc.assert(
    fc.asyncProperty(hostile, async (body) => {
      const r = await post(body);
      if (r.status >= 500) return false;
      if (r.status === 200) return Classification.is(r.body.classification);
      return typeof r.body?.error?.code === 'string' && typeof r.body.error.message === 'string';
    }),
    { numRuns: 300 },
  );
  t.pass();
});
