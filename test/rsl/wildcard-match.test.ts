import test from 'ava';
import fc from 'fast-check';
import { EvaluationBudget } from '../../src/matching/evaluation-budget.js';
import { evaluate } from '../../src/rsl/evaluate/evaluate.js';
import { matchContentUrl } from '../../src/matching/pattern.js';
import { compileWildcard, matchWildcard, takeComparisons, WILDCARD_LIMITS } from '../../src/matching/wildcard-match.js';
import { docInput, wrapFragment } from './helpers.js';

// The matcher against RFC 9309's own semantics, written here as the textbook dynamic programme over
// (pattern position, path position): `*` matches any run of octets, a final `$` ends the match,
// anything else is literal, and without `$` the pattern need only match a prefix of the path.
function reference(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const p = anchored ? pattern.slice(0, -1) : pattern;
  // can[j] = the first i pattern characters can match path[0, j)
  let can = new Array<boolean>(path.length + 1).fill(false);
  can[0] = true;
  for (const ch of p) {
    const next = new Array<boolean>(path.length + 1).fill(false);
    if (ch === '*') {
      let any = false;
      for (let j = 0; j <= path.length; j++) next[j] = any = any || can[j]!;
    } else {
      for (let j = 1; j <= path.length; j++) next[j] = can[j - 1]! && path[j - 1] === ch;
    }
    can = next;
  }
  return anchored ? can[path.length]! : can.some(Boolean);
}

const compiled = (pattern: string) => {
  const anchored = pattern.endsWith('$');
  return compileWildcard((anchored ? pattern.slice(0, -1) : pattern).split('*'), anchored);
};

// Small alphabets make overlaps, repeats and near-misses common, which is where a greedy matcher
// would go wrong.
const ALPHABET = ['a', 'b', '/', 'ab', 'ba'];
const pathArb = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 14 }).map((xs) => '/' + xs.join(''));
const patternArb = fc
  .tuple(fc.array(fc.constantFrom(...ALPHABET, '*', '*'), { maxLength: 10 }), fc.boolean())
  .map(([xs, anchored]) => '/' + xs.join('') + (anchored ? '$' : ''));

test('the linear matcher equals the RFC 9309 reference on random patterns and paths', (t) => {
  fc.assert(
    fc.property(
      patternArb,
      pathArb,
      (pattern, path) => matchWildcard(compiled(pattern), path) === reference(pattern, path),
    ),
    { numRuns: 20_000 },
  );
  t.pass();
});

test('the reference and the matcher agree on hand-picked cases (the reference itself can fail)', (t) => {
  const cases: Array<[string, string, boolean]> = [
    ['/a', '/abc', true],
    ['/a$', '/abc', false],
    ['/a*c$', '/abc', true],
    ['/a*c$', '/abcd', false],
    ['/*b*b$', '/abab', true],
    ['/*aab', '/aaab', true],
    ['/*ab*ab', '/abab', true],
    ['/*ab*ab', '/aba', false],
    ['*', '/anything', true],
    ['/*$', '/', true],
    ['/x*$', '/', false],
  ];
  for (const [pattern, path, expected] of cases) {
    t.is(reference(pattern, path), expected, `reference ${pattern} ~ ${path}`);
    t.is(matchWildcard(compiled(pattern), path), expected, `matcher ${pattern} ~ ${path}`);
  }
});

test('the hostile pattern /*a*a*a*ab costs comparisons linear in the path (a backtracking regex: ~n^4)', (t) => {
  const hostile = compiled('/*a*a*a*ab');
  const cost = (n: number) => {
    takeComparisons();
    t.false(matchWildcard(hostile, '/' + 'a'.repeat(n)));
    t.true(matchWildcard(hostile, '/' + 'a'.repeat(n) + 'b'));
    return takeComparisons();
  };
  const small = cost(256);
  const large = cost(2047);
  t.true(large <= 4 * 2 * (2048 + 10), `comparisons at 2047 octets: ${large}`);
  // Eight times the path costs about eight times the work, not 4096 times.
  t.true(large / small < 10, `growth ${large / small}`);
});

test('patterns over the documented caps are not matched but reported', (t) => {
  const long = '/' + 'x'.repeat(WILDCARD_LIMITS.maxPatternChars);
  const starry = '/' + 'a*'.repeat(WILDCARD_LIMITS.maxWildcards + 1);
  for (const p of [long, starry]) {
    const m = matchContentUrl(p, 'https://p.test/' + 'x'.repeat(10), false);
    t.false(m.matches);
    t.truthy(m.overLimits);
  }
  t.falsy(matchContentUrl('/' + 'a*'.repeat(WILDCARD_LIMITS.maxWildcards), 'https://p.test/a', false).overLimits);
});

const grant = (url: string) => `<content url="${url}"><license><permits type="usage">all</permits></license></content>`;
const ban = (url: string) =>
  `<content url="${url}"><license><prohibits type="usage">all</prohibits></license></content>`;
const q = (path: string) => ({
  resource: `https://publisher.test${path}`,
  token: 'ai-train' as const,
  userClass: 'commercial' as const,
  geo: null,
});

test('a scope over the caps makes a grant UNKNOWN (pattern-over-limits), and leaves a prohibition standing', (t) => {
  const starry = '/' + 'a*'.repeat(WILDCARD_LIMITS.maxWildcards + 1);
  const granted = evaluate([docInput(wrapFragment(grant('/') + ban(starry)))], q('/a'));
  t.is(granted.classification, 'UNKNOWN');
  t.true(granted.reasons.some((r) => r.rule === 'pattern-over-limits'));
  const banned = evaluate([docInput(wrapFragment(ban('/') + grant(starry)))], q('/a'));
  t.is(banned.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
});

test('an evaluation past its budget is UNKNOWN with evaluation-budget-exceeded, never a grant', (t) => {
  const doc = docInput(wrapFragment(Array.from({ length: 50 }, (_, i) => grant(`/${'a'.repeat(i)}*a*a`)).join('')));
  const path = '/' + 'a'.repeat(2000);
  const within = evaluate([doc], q(path));
  t.is(within.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
  const over = evaluate([doc], q(path), new EvaluationBudget(10_000));
  t.is(over.classification, 'UNKNOWN');
  t.is(over.decision, 'UNKNOWN');
  t.deepEqual(
    over.reasons.map((r) => r.rule),
    ['evaluation-budget-exceeded'],
  );
  // Counted, not timed: the same input gives the same reading every time.
  t.deepEqual(evaluate([doc], q(path), new EvaluationBudget(10_000)), over);
});
