import test from 'ava';
import { EvaluationBudget } from '../../src/matching/evaluation-budget.js';
import { evaluatePurpose } from '../../src/rsl/evaluate/evaluate.js';
import type { DocumentInput } from '../../src/rsl/evaluate/verdict.js';
import { createEvaluationMemo } from '../../src/rsl/evaluation-memo.js';
import { parseRsl } from '../../src/rsl/parse/parse.js';
import { fixture } from './helpers.js';

// The evaluation memo (src/rsl/evaluation-memo.ts): the same question of the same inputs is answered from
// memory with what a fresh evaluation answers; each parsed document keeps at most its bound of questions,
// least recently used first out; inputs without a parsed document have their own bound.

const URL_OF = 'https://publisher.test/license.xml';
const docInput = (xml: string): DocumentInput => ({
  channel: 'link-header',
  url: URL_OF,
  sha256: 'a'.repeat(64),
  parse: parseRsl(xml),
  failure: null,
});
const failed: DocumentInput = {
  channel: 'robots',
  url: URL_OF,
  sha256: null,
  parse: null,
  failure: { code: 'FETCH_TIMEOUT', message: 'no answer' },
};

function ask(memo: ReturnType<typeof createEvaluationMemo>, inputs: DocumentInput[], resource: string) {
  const q = { resource, purposes: ['ai-input'], userClass: 'commercial', geo: null };
  const evaluate = () => [
    evaluatePurpose(
      inputs,
      { resource, purpose: 'ai-input', userClass: 'commercial', geo: null },
      new EvaluationBudget(),
    ),
  ];
  return { kept: memo.evaluations(inputs, [], q, evaluate), fresh: evaluate() };
}

test('a kept answer equals a fresh one; each document keeps at most its bound of questions', (t) => {
  const memo = createEvaluationMemo(2);
  const inputs = [docInput(fixture('10-naulon-free-search-priced-ai-input-x402.xml'))];
  const resources = ['https://publisher.test/articles/a', 'https://publisher.test/articles/b'];
  for (const r of resources) {
    const { kept, fresh } = ask(memo, inputs, r);
    t.deepEqual(kept, fresh);
  }
  t.is(memo.computed, 2);
  ask(memo, inputs, resources[0]!);
  t.is(memo.computed, 2, 'both questions kept');
  ask(memo, inputs, 'https://publisher.test/articles/c'); // a third: the least recently used (b) goes
  t.is(memo.computed, 3);
  ask(memo, inputs, resources[0]!);
  t.is(memo.computed, 3, 'a was used last before c: still kept');
  ask(memo, inputs, resources[1]!);
  t.is(memo.computed, 4, 'b was dropped and computed again');
});

test('the same bytes parsed again are another document; inputs without one have their own bound', (t) => {
  const memo = createEvaluationMemo(1);
  const xml = fixture('11-skeleton-all-elements.xml');
  const r = 'https://publisher.test/x';
  ask(memo, [docInput(xml)], r);
  ask(memo, [docInput(xml)], r);
  t.is(memo.computed, 2, 'a parse is known by its identity, not its text');
  const { kept, fresh } = ask(memo, [failed], r);
  t.deepEqual(kept, fresh);
  ask(memo, [failed], r);
  t.is(memo.computed, 3);
  ask(memo, [failed], 'https://publisher.test/y');
  ask(memo, [failed], r);
  t.is(memo.computed, 5, 'one question kept without a document');
});
