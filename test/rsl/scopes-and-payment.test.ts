import test from 'ava';
import { evaluate } from '../../src/rsl/evaluate/evaluate.js';
import type { EvaluatedToken } from '@rights-preflight/wire/rsl/purposes.js';
import { docInput, wrapFragment } from './helpers.js';

// Scope precedence and payment terms, from rsl.md §2.1 (rule 3 "more specific declarations …
// MUST take precedence", rule 6 "never expand rights"), §6.2 (equal specificity that disagrees),
// §6.6 ("only an element-less license or explicit type=free is free") and docs/decisions.md "RSL reading"
// ("declarations disagree (scopes of equal weight)" → CONFLICT).

const ask = (xml: string, resource = 'https://publisher.test/premium/a', token: EvaluatedToken = 'ai-input') =>
  evaluate([docInput(wrapFragment(xml), { channel: 'supplied' })], {
    resource,
    token,
    userClass: 'commercial',
    geo: null,
  });

test('equally specific scopes that disagree give CONFLICT, with the conflict named', (t) => {
  const e = ask(
    '<content url="/premium/"><license><permits type="usage">ai-input</permits></license></content>' +
      '<content url="/premium/"><license><prohibits type="usage">ai-input</prohibits></license></content>',
  );
  t.is(e.classification, 'CONFLICT');
  t.is(e.decision, 'UNKNOWN');
  t.true(e.reasons.some((r) => r.rule === 'equal-scope-conflict'));
  t.deepEqual(e.obligations, []);
});

test('a scope conflict inside one of two page-level documents still has a classification', (t) => {
  const conflicting = docInput(
    wrapFragment(
      '<content url="/a"><license><permits type="usage">ai-input</permits></license></content>' +
        '<content url="/a"><license><permits type="usage">search</permits></license></content>',
    ),
    { channel: 'link-header', url: 'https://publisher.test/one.xml' },
  );
  const silent = docInput(
    wrapFragment('<content url="/"><license><prohibits type="usage">search</prohibits></license></content>'),
    { channel: 'link-header', url: 'https://publisher.test/two.xml' },
  );
  const e = evaluate([conflicting, silent], {
    resource: 'https://publisher.test/a',
    token: 'ai-input',
    userClass: 'commercial',
    geo: null,
  });
  t.is(e.classification, 'CONFLICT');
});

test('type="free" with an <amount> is not free', (t) => {
  const e = ask(
    '<content url="/"><license><permits type="usage">ai-input</permits>' +
      '<payment type="free"><amount currency="USD">5.00</amount></payment></license></content>',
  );
  t.is(e.classification, 'LICENSE_REQUIRED');
  t.true(e.obligations.some((o) => o.startsWith('payment:free-with-price 5.00 USD')));
  const plain = ask(
    '<content url="/"><license><permits type="usage">ai-input</permits><payment type="free"/></license></content>',
  );
  t.is(plain.classification, 'PERMITTED_BY_OBSERVED_DECLARATION', 'a plain type="free" stays free');
});

const BROAD_FREE =
  '<content url="/"><license><permits type="usage">ai-all</permits><payment type="free"/></license></content>';

test('the most specific scope governs its paths even when it names only payment terms', (t) => {
  const e = ask(
    BROAD_FREE +
      '<content url="/premium/"><license>' +
      '<payment type="purchase"><amount currency="USD">10</amount></payment></license></content>',
  );
  t.is(e.classification, 'LICENSE_REQUIRED');
  t.true(e.obligations.includes('payment:purchase 10 USD'));
  t.true(e.reasons.some((r) => r.rule === 'scope-terms' && r.content_url === '/premium/'));
  // Outside the narrower scope the broad free permit still applies.
  t.is(
    ask(
      BROAD_FREE + '<content url="/premium/"><license><payment type="purchase"/></license></content>',
      'https://publisher.test/free/a',
    ).classification,
    'PERMITTED_BY_OBSERVED_DECLARATION',
  );
});

test('a narrower license server or unknown payment type is never dropped for a broader free permit', (t) => {
  const server = ask(
    BROAD_FREE +
      '<content url="/premium/" server="https://license.publisher.test/">' +
      '<license><payment type="free"/></license></content>',
  );
  t.is(server.classification, 'LICENSE_REQUIRED');
  t.true(server.obligations.some((o) => o.startsWith('license-server-token:')));
  const royalty = ask(BROAD_FREE + '<content url="/premium/"><license><payment type="royalty"/></license></content>');
  t.is(royalty.classification, 'UNKNOWN');
});

test('narrower payment terms never lift a broader prohibition, and alone they grant nothing', (t) => {
  const prohibited = ask(
    '<content url="/"><license><prohibits type="usage">ai-input</prohibits></license></content>' +
      '<content url="/premium/"><license><payment type="purchase"/></license></content>',
  );
  t.is(prohibited.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
  const alone = ask('<content url="/premium/"><license><payment type="purchase"/></license></content>');
  t.is(alone.classification, 'UNKNOWN');
});
