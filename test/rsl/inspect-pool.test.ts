import test from 'ava';
import { createInspectPool, InspectPoolBusy } from '../../src/rsl/inspect-pool.js';
import { inspectionAnswer, type InspectResponse } from '../../src/rsl/inspect-answer.js';
import type { InspectQuestion } from '../../src/rsl/inspect-document.js';
import type { WorkClock } from '../../src/runtime/thread-cpu-clock.js';
import { fixture } from './helpers.js';

// Untrusted documents are parsed and evaluated in worker threads (the event loop keeps serving);
// the answer is the same as in process, a full queue is refused, and a job past its deadline is
// answered as PARSE_TIME_LIMIT (never a permission) while the pool recovers.

/** A fake job clock: every job has already worked past its deadline when the deadline is checked. */
const spent = (): WorkClock => ({ elapsed: () => Number.POSITIVE_INFINITY });

/** A document a worker needs tens of milliseconds for (within every parse limit): its answer comes
 *  after a 1 ms deadline's timer. */
const costly =
  '<rsl xmlns="https://rslstandard.org/rsl">' +
  Array.from(
    { length: 4000 },
    (_, i) => `<content url="/p${i}"><license><permits type="usage">all</permits></license></content>`,
  ).join('') +
  '</rsl>';

const Q: InspectQuestion = {
  resource: 'https://publisher.test/articles/x',
  purpose: 'ai-input',
  userClass: 'commercial',
  geo: null,
};

test('a worker answers exactly what the in-process evaluation answers, from its parse cache too', async (t) => {
  const pool = createInspectPool({ size: 1, maxQueue: 8, jobTimeoutMs: 30_000, parseCacheChars: 1 << 20 });
  try {
    const names = [
      '10-naulon-free-search-priced-ai-input-x402.xml',
      '16-LEGACY-MALFORMED-curly-quotes-train-ai.xml',
      '11-skeleton-all-elements.xml',
    ];
    // The second round is answered from parses the worker kept, for other questions as well.
    for (const q of [Q, Q, { ...Q, purpose: 'ai-train' as const, geo: 'DE' }])
      for (const name of names) {
        const xml = fixture(name);
        t.deepEqual(await pool.inspect(xml, q), inspectionAnswer(xml, q), `${name} ${q.purpose}`);
      }
  } finally {
    await pool.close();
  }
});

test('a full queue is refused at once with InspectPoolBusy', async (t) => {
  const pool = createInspectPool({ size: 1, maxQueue: 2, jobTimeoutMs: 30_000 });
  try {
    const xml = fixture('10-naulon-free-search-priced-ai-input-x402.xml');
    const accepted = [pool.inspect(xml, Q), pool.inspect(xml, Q), pool.inspect(xml, Q)];
    await t.throwsAsync(pool.inspect(xml, Q), { instanceOf: InspectPoolBusy });
    t.is((await Promise.all(accepted)).length, 3);
  } finally {
    await pool.close();
  }
});

test('the queue is also bounded by the size of the documents waiting: many small ones, few large ones', async (t) => {
  const xml = fixture('10-naulon-free-search-priced-ai-input-x402.xml');
  // Room for two documents of this size; the count alone would allow eight.
  const pool = createInspectPool({ size: 1, maxQueue: 8, maxQueueChars: xml.length * 2, jobTimeoutMs: 30_000 });
  try {
    // The first goes straight to the worker; two wait; a third waiting one would pass the size bound.
    const accepted = [pool.inspect(xml, Q), pool.inspect(xml, Q), pool.inspect(xml, Q)];
    await t.throwsAsync(pool.inspect(xml, Q), { instanceOf: InspectPoolBusy });
    t.is((await Promise.all(accepted)).length, 3);
    // Once they are done the queue is empty again and takes documents.
    t.truthy(await pool.inspect(xml, Q));
  } finally {
    await pool.close();
  }
});

test('a job past its deadline is PARSE_TIME_LIMIT / UNKNOWN; the pool answers on with a replaced worker', async (t) => {
  const pool = createInspectPool({ size: 1, maxQueue: 8, jobTimeoutMs: 1, jobClock: spent });
  try {
    for (let i = 0; i < 3; i++) {
      const late = JSON.parse(await pool.inspect(costly, Q)) as InspectResponse;
      t.false(late.document.parsed);
      t.is(late.document.failure?.code, 'PARSE_TIME_LIMIT');
      t.is(late.classification, 'UNKNOWN');
    }
  } finally {
    await pool.close();
  }
});

test('jobs posted ahead to a worker are answered in order, and none is lost when it is replaced', async (t) => {
  const xml = fixture('11-skeleton-all-elements.xml');
  const ahead = createInspectPool({ size: 1, maxQueue: 16, jobTimeoutMs: 30_000, perWorker: 4 });
  try {
    const questions = ['ai-input', 'ai-train', 'search', 'ai-index', 'ai-input', 'search'].map((purpose) => ({
      ...Q,
      purpose: purpose as InspectQuestion['purpose'],
    }));
    const answers = await Promise.all(questions.map((q) => ahead.inspect(xml, q)));
    answers.forEach((a, i) => t.deepEqual(a, inspectionAnswer(xml, questions[i]!), `job ${i}`));
  } finally {
    await ahead.close();
  }
  // A 1 ms deadline: the worker is replaced again and again; every job still gets an answer, at worst
  // PARSE_TIME_LIMIT (UNKNOWN).
  const late = createInspectPool({ size: 1, maxQueue: 16, jobTimeoutMs: 1, perWorker: 3, jobClock: spent });
  try {
    const answers = (await Promise.all(Array.from({ length: 6 }, () => late.inspect(costly, Q)))).map(
      (text) => JSON.parse(text) as InspectResponse,
    );
    t.is(answers.length, 6);
    for (const a of answers)
      t.true(a.document.failure?.code === 'PARSE_TIME_LIMIT' || a.document.parsed, 'an answer, never a lost job');
    t.true(answers.some((a) => a.document.failure?.code === 'PARSE_TIME_LIMIT'));
  } finally {
    await late.close();
  }
});

test("the deadline counts the worker's work, not the wait: a held event loop still gets the answer", async (t) => {
  // What a busy machine does to the pool: the deadline's timer is due long before the answer is read.
  const pool = createInspectPool({ size: 1, maxQueue: 8, jobTimeoutMs: 300 });
  const xml = fixture('10-naulon-free-search-priced-ai-input-x402.xml');
  try {
    t.deepEqual(await pool.inspect(xml, Q), inspectionAnswer(xml, Q), 'the worker is up');
    // From a setImmediate callback the loop's next phase with work is the timers phase: the deadline is
    // checked before the worker's answer (a message, read in the poll phase after it) is seen.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const answer = pool.inspect(xml, Q);
    const held = performance.now();
    while (performance.now() - held < 1_000);
    // The worker used a few milliseconds of its own CPU time, not the 300 the deadline allows.
    t.deepEqual(await answer, inspectionAnswer(xml, Q));
  } finally {
    await pool.close();
  }
});
