import test from 'ava';
import { createSignalReaderPool, OFF_LOOP_CHARS, readsOffLoop } from '../../src/rsl/signal-reader-pool.js';
import { takeComparisons } from '../../src/matching/wildcard-match.js';
import { readSignals } from '../../src/signals/read-signals.js';
import type { SignalSources } from '../../src/signals/signal-sources.js';

// Large robots.txt and tdmrep.json are read in a worker thread, as the free inspection's parsing is: the
// event loop does none of their matching (counted with the matcher's own counter, which is per thread) and
// keeps turning while they are read; the answer is the one the readers give in place.

const LONG = `https://pub.test/${'a'.repeat(2000)}`;

function hostile(rules: number): SignalSources {
  const robots =
    `User-agent: *\nAllow: /\nContent-Usage: search=y\n` +
    Array.from({ length: rules }, (_, i) => `Disallow: *q${i}`).join('\n');
  const tdmrep = JSON.stringify(
    Array.from({ length: rules }, (_, i) => ({ location: `*z${i}`, 'tdm-reservation': 1 })),
  );
  return {
    resource: LONG,
    robots: { url: 'https://pub.test/robots.txt', sha256: 'r', status: 200, text: robots },
    tdmrep: { url: 'https://pub.test/.well-known/tdmrep.json', sha256: 't', status: 200, text: tdmrep },
    page: {
      url: LONG,
      sha256: 'p',
      status: 200,
      text: '<meta name="tdm-reservation" content="1">',
      html: '<meta name="tdm-reservation" content="1">',
      metas: [{ name: 'tdm-reservation', content: '1' }],
      headers: { 'content-usage': 'train-ai=n' },
    },
  };
}

test.serial('a large reading runs off the event loop: no matching on it, turns keep coming, same answer', async (t) => {
  const pool = createSignalReaderPool({ size: 1, maxQueue: 8, jobTimeoutMs: 60_000 });
  t.teardown(() => pool.close());
  const sources = hostile(3000);
  t.true(readsOffLoop(sources));
  takeComparisons();
  let turns = 0;
  let reading = true;
  const spin = () => {
    turns++;
    if (reading) setImmediate(spin);
  };
  setImmediate(spin);
  const off = await pool.read(sources);
  reading = false;
  t.is(takeComparisons(), 0, 'the event loop matched nothing');
  t.true(turns > 1, 'the event loop kept turning while the reading was done');
  const inPlace = readSignals(sources);
  t.true(takeComparisons() > 0);
  t.deepEqual(off, inPlace);
  t.true(off.some((o) => o.readings.some((r) => r.rule.startsWith('evaluation-budget-exceeded'))));
});

test.serial('small documents are read in place, without a thread', async (t) => {
  const pool = createSignalReaderPool({ size: 1, maxQueue: 0, jobTimeoutMs: 60_000 });
  t.teardown(() => pool.close());
  const sources = hostile(10);
  t.false(readsOffLoop(sources));
  t.true((sources.robots?.text.length ?? 0) < OFF_LOOP_CHARS);
  t.deepEqual(await pool.read(sources), readSignals(sources));
});

test.serial('a large reading that cannot wait: robots.txt, tdmrep.json not determinable; page read', async (t) => {
  const pool = createSignalReaderPool({ size: 1, maxQueue: 0, jobTimeoutMs: 60_000 });
  t.teardown(() => pool.close());
  const sources = hostile(3000);
  const busy = await pool.read(sources);
  const fromDocuments = busy.filter((o) => o.channel === 'robots' || o.channel === 'well-known');
  t.deepEqual(
    fromDocuments.map((o) => `${o.standard}/${o.channel}`),
    ['tdmrep/well-known', 'aipref/robots', 'content-signals/robots'],
  );
  for (const o of fromDocuments) {
    t.true(o.readings.every((r) => r.verdict === 'silent' && r.rule.startsWith('signal-readers-busy:')));
  }
  // The page's own statements are read as without the documents.
  const pageOnly = readSignals({ resource: sources.resource, page: sources.page! });
  t.deepEqual(
    busy.filter((o) => o.channel === 'header' || o.channel === 'meta'),
    pageOnly,
  );
});
