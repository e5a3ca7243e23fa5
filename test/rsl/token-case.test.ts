import test from 'ava';
import { evaluate } from '../../src/rsl/evaluate/evaluate.js';
import type { EvaluatedToken, UserClass } from '@rights-preflight/wire/rsl/purposes.js';
import { docInput, wrapFragment } from './helpers.js';

// RSL tokens are lowercase and geo codes are ISO 3166-1 alpha-2 uppercase (rsl.md §1.3; §6.5
// "geo comparisons uppercase"; §2.1 rule 6 "never expand rights"). A token in another case may
// restrict, never grant.

const ask = (license: string, q: { token?: EvaluatedToken; userClass?: UserClass; geo?: string | null } = {}) => {
  const doc = docInput(wrapFragment(`<content url="/"><license>${license}</license></content>`));
  return {
    doc,
    e: evaluate([doc], {
      resource: 'https://publisher.test/a',
      token: q.token ?? 'ai-train',
      userClass: q.userClass ?? 'commercial',
      geo: q.geo ?? null,
    }),
  };
};
const warnings = (doc: ReturnType<typeof docInput>) =>
  doc.parse!.ok ? doc.parse!.problems.filter((p) => p.code === 'NONCANONICAL_CASE') : [];

test('geo codes are compared uppercase: prohibits "de fr" prohibits DE', (t) => {
  const { doc, e } = ask('<permits type="usage">all</permits><prohibits type="geo">de fr</prohibits>', { geo: 'DE' });
  t.is(e.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
  t.is(e.reasons[0]!.rule, 'geo-prohibited');
  t.is(warnings(doc).length, 2);
  t.is(
    ask('<permits type="usage">all</permits><prohibits type="geo">de fr</prohibits>', { geo: 'US' }).e.classification,
    'PERMITTED_BY_OBSERVED_DECLARATION',
  );
  t.is(
    ask('<permits type="usage">all</permits><permits type="geo">eu</permits>', { geo: 'FR' }).e.classification,
    'PERMITTED_BY_OBSERVED_DECLARATION',
  );
});

test('a usage prohibition counts in any case', (t) => {
  for (const written of ['AI-TRAIN', 'Ai-Train', 'AI-ALL', 'ALL', 'TRAIN-AI']) {
    const { doc, e } = ask(`<permits type="usage">all</permits><prohibits type="usage">${written}</prohibits>`);
    t.is(e.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION', written);
    t.true(warnings(doc).length > 0, written);
  }
});

test('a user prohibition counts in any case', (t) => {
  const { e } = ask('<permits type="usage">all</permits><prohibits type="user">COMMERCIAL</prohibits>', {
    userClass: 'commercial',
  });
  t.is(e.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
});

test('a permit not in canonical case grants nothing and is reported', (t) => {
  const { doc, e } = ask('<permits type="usage">AI-TRAIN</permits>');
  t.not(e.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
  t.not(e.classification, 'LICENSE_REQUIRED');
  t.regex(warnings(doc)[0]!.message, /grants nothing/);
  const user = ask('<permits type="usage">all</permits><permits type="user">Education</permits>', {
    userClass: 'education',
  });
  t.not(user.e.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
  t.is(
    ask('<permits type="usage">ai-train</permits>').e.classification,
    'PERMITTED_BY_OBSERVED_DECLARATION',
    'the canonical spelling does grant',
  );
});
