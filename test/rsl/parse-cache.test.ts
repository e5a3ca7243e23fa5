import { createHash } from 'node:crypto';
import test from 'ava';
import { inspectDocument, type InspectQuestion } from '../../src/rsl/inspect-document.js';
import { createParseCache } from '../../src/rsl/parse-cache.js';
import { parseRsl } from '../../src/rsl/parse/parse.js';
import { fixture } from './helpers.js';

// The inspection parse cache: the same document is parsed once, evaluating it again for any question
// answers what a fresh parse answers, and the cache never holds more characters than it is given.

const sha = (xml: string) => createHash('sha256').update(xml, 'utf8').digest('hex');
const Q: InspectQuestion = {
  resource: 'https://publisher.test/articles/x',
  purpose: 'ai-input',
  userClass: 'commercial',
  geo: null,
};
const A = fixture('10-naulon-free-search-priced-ai-input-x402.xml');
const B = fixture('11-skeleton-all-elements.xml');

test('the same document is parsed once and its parse is equal to a fresh one', (t) => {
  const cache = createParseCache(1 << 20);
  const first = cache.parsed(sha(A), A);
  t.is(cache.parsed(sha(A), A), first, 'the kept parse itself');
  t.deepEqual(first, parseRsl(A));
});

test('answers from kept parses equal fresh answers, whatever was asked before', (t) => {
  const cache = createParseCache(1 << 20);
  const questions: InspectQuestion[] = [
    Q,
    { ...Q, purpose: 'ai-train' },
    { ...Q, purpose: 'search', geo: 'FR' },
    { ...Q, resource: 'https://publisher.test/premium/y', userClass: 'non-commercial' },
  ];
  for (let round = 0; round < 2; round++)
    for (const q of questions)
      for (const xml of [A, B]) t.deepEqual(inspectDocument(xml, q, cache), inspectDocument(xml, q));
});

test('the least recently used parse goes first once the characters would pass the bound', (t) => {
  const cache = createParseCache(A.length + B.length);
  const a = cache.parsed(sha(A), A);
  const b = cache.parsed(sha(B), B);
  t.is(cache.parsed(sha(A), A), a, 'both fit');
  const C = `${A}\n`; // another document: pushes out the least recently used (B)
  cache.parsed(sha(C), C);
  t.not(cache.parsed(sha(B), B), b, 'B was dropped and parsed again');
});

test('a document larger than the whole cache is parsed but not kept', (t) => {
  const cache = createParseCache(A.length - 1);
  t.not(cache.parsed(sha(A), A), cache.parsed(sha(A), A));
});

test('fetched bytes are kept by their digest, counted in bytes, and other bytes are parsed', (t) => {
  const bytes = Buffer.from(A, 'utf8');
  const changed = Buffer.from(A.replace('/articles/*', '/news/*'), 'utf8');
  const cache = createParseCache(bytes.length + changed.length);
  const shaOf = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const first = cache.parsed(shaOf(bytes), bytes);
  t.is(cache.parsed(shaOf(bytes), Buffer.from(bytes)), first, 'a copy of the same bytes: the kept parse');
  t.is(cache.parses, 1);
  t.deepEqual(first, parseRsl(bytes));
  const other = cache.parsed(shaOf(changed), changed);
  t.is(cache.parses, 2, 'changed bytes are parsed');
  t.deepEqual(other, parseRsl(changed));
  t.notDeepEqual(other, first);
});
