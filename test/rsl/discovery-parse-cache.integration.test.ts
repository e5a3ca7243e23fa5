import test from 'ava';
import { type OriginSite, rslDocument } from '../../src/devnet/https-origin.js';
import { FetchCache } from '../../src/rsl/fetch-cache.js';
import { observeAndEvaluate } from '../../src/rsl/observe.js';
import { createParseCache } from '../../src/rsl/parse-cache.js';
import { createEvaluationMemo } from '../../src/rsl/evaluation-memo.js';
import { useSiteFetcher } from './site-fetcher.js';

// Discovery keeps the parse of a fetched RSL document by the digest of its bytes (docs/decisions.md
// "A quote's own CPU"): a quote on a warm fetch cache, or a refetch that brings the same bytes, does not
// parse again; a publisher who changes the document is read anew. Counted in parses and in requests the
// publisher saw, on a fake clock; a real HTTPS publisher on loopback.

const HOST = 'parsed.example';
const MEMO_HOST = 'memo.example';
const site: OriginSite = {
  [HOST]: {
    '/robots.txt': { type: 'text/plain', body: `User-agent: *\nAllow: /\nLicense: https://${HOST}/rsl.xml\n` },
    '/rsl.xml': { type: 'application/rsl+xml', body: rslDocument({ url: '/', permits: ['ai-train'] }) },
    '/a': { body: '<html><head><title>a</title></head><body>a</body></html>' },
  },
  [MEMO_HOST]: {
    '/robots.txt': { type: 'text/plain', body: `User-agent: *\nAllow: /\nLicense: https://${MEMO_HOST}/rsl.xml\n` },
    '/rsl.xml': { type: 'application/rsl+xml', body: rslDocument({ url: '/', permits: ['ai-train'] }) },
    '/a': { body: '<html><head><title>a</title></head><body>a</body></html>' },
    '/b': { body: '<html><head><title>b</title></head><body>b</body></html>' },
  },
};
const w = useSiteFetcher(site);

test('a fetched RSL document is parsed once per version of its bytes, and a changed one is read anew', async (t) => {
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const cache = new FetchCache(w.fetcher, () => clock);
  const parseCache = createParseCache(1 << 20);
  const deps = { cache, coveredOrigins: [`https://${HOST}`], parseCache };
  const quote = (freshnessSeconds: number) =>
    observeAndEvaluate(
      `https://${HOST}/a`,
      ['ai-train'],
      { userClass: 'commercial', geo: null, freshnessSeconds },
      deps,
    );
  const fetchedRsl = () => w.origins.requests.filter((r) => r.host === HOST && r.path === '/rsl.xml').length;

  const first = await quote(300);
  t.is(parseCache.parses, 1);
  t.is(first.purposes[0]!.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');

  // A warm fetch cache: nothing fetched, nothing parsed, the same reading.
  const warm = await quote(300);
  t.is(fetchedRsl(), 1);
  t.is(parseCache.parses, 1, 'the cached bytes were not parsed again');
  t.deepEqual(warm.purposes, first.purposes);
  t.deepEqual(warm.documents, first.documents);

  // Freshness 0 fetches again (a second later); the same bytes have the same digest and their parse is reused.
  clock += 1000;
  const refetched = await quote(0);
  t.is(fetchedRsl(), 2);
  t.is(parseCache.parses, 1, 'the same bytes fetched again were not parsed again');
  t.deepEqual(refetched.purposes, first.purposes);

  // The publisher changes the document: new bytes, a new digest, a new parse and the new answer.
  site[HOST]!['/rsl.xml'] = { type: 'application/rsl+xml', body: rslDocument({ url: '/', prohibits: ['ai-train'] }) };
  clock += 1000;
  const changed = await quote(0);
  t.is(fetchedRsl(), 3);
  t.is(parseCache.parses, 2, 'the changed document was parsed');
  t.is(changed.purposes[0]!.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
  t.not(changed.documents[0]!.sha256, first.documents[0]!.sha256);
});

const MEMO = 'evaluations are kept per question and documents: the same answers, computed once; others compute';
test(MEMO, async (t) => {
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const cache = new FetchCache(w.fetcher, () => clock);
  const parseCache = createParseCache(1 << 20);
  const evaluationMemo = createEvaluationMemo(16);
  const withMemo = { cache, coveredOrigins: [`https://${MEMO_HOST}`], parseCache, evaluationMemo };
  const without = { cache, coveredOrigins: [`https://${MEMO_HOST}`], parseCache };
  const read = (deps: typeof without, path: string, purposes: Array<'ai-train' | 'search'>, freshnessSeconds = 300) =>
    observeAndEvaluate(
      `https://${MEMO_HOST}${path}`,
      purposes,
      { userClass: 'commercial', geo: null, freshnessSeconds },
      deps,
    );
  // observed_at differs between any two readings on the real clock: compared without it.
  const same = async (purposes: Array<'ai-train' | 'search'>, path = '/a') => {
    const kept = await read(withMemo, path, purposes);
    const fresh = await read(without, path, purposes);
    t.deepEqual({ ...kept, observed_at: '' }, { ...fresh, observed_at: '' });
    return kept;
  };

  // The fetch cache warmed first, so both readings of a pair are served from it alike.
  await read(without, '/a', ['ai-train']);
  await read(without, '/b', ['ai-train']);
  const first = await same(['ai-train']);
  t.is(evaluationMemo.computed, 1);
  await same(['ai-train']);
  t.is(evaluationMemo.computed, 1, 'the same question of the same documents was answered from memory');
  await same(['ai-train', 'search']);
  t.is(evaluationMemo.computed, 2, 'other purposes are another question');
  await same(['ai-train'], '/b');
  t.is(evaluationMemo.computed, 3, 'another resource is another question');

  // A kept answer cannot be changed through a reading that holds it.
  t.throws(() => (first.purposes[0]!.tokens[0]!.obligations as string[]).push('x'), { instanceOf: TypeError });

  site[MEMO_HOST]!['/rsl.xml'] = {
    type: 'application/rsl+xml',
    body: rslDocument({ url: '/', prohibits: ['ai-train'] }),
  };
  clock += 1000;
  const changed = await read(withMemo, '/a', ['ai-train'], 0);
  t.is(evaluationMemo.computed, 4, 'a changed document is evaluated again');
  t.is(changed.purposes[0]!.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
});
