import test from 'ava';
import { createInspectPool, InspectPoolBusy } from '../../src/rsl/inspect-pool.js';
import { inspectDocument, type InspectQuestion } from '../../src/rsl/inspect-document.js';
import { fixture } from './helpers.js';

// Untrusted documents are parsed and evaluated in worker threads (the event loop keeps serving);
// the answer is the same as in process, a full queue is refused, and a job past its deadline is
// answered as PARSE_TIME_LIMIT (never a permission) while the pool recovers.

const Q: InspectQuestion = {
  resource: 'https://publisher.test/articles/x',
  purpose: 'ai-input',
  userClass: 'commercial',
  geo: null,
};

test('a worker answers exactly what the in-process evaluation answers', async (t) => {
  const pool = createInspectPool({ size: 1, maxQueue: 8, jobTimeoutMs: 30_000 });
  try {
    for (const name of [
      '10-naulon-free-search-priced-ai-input-x402.xml',
      '16-LEGACY-MALFORMED-curly-quotes-train-ai.xml',
      '11-skeleton-all-elements.xml',
    ]) {
      const xml = fixture(name);
      t.deepEqual(await pool.inspect(xml, Q), inspectDocument(xml, Q), name);
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
  const pool = createInspectPool({ size: 1, maxQueue: 8, jobTimeoutMs: 1 });
  const xml = fixture('10-naulon-free-search-priced-ai-input-x402.xml');
  try {
    for (let i = 0; i < 3; i++) {
      const late = await pool.inspect(xml, Q);
      t.false(late.parse.ok);
      t.is(!late.parse.ok && late.parse.code, 'PARSE_TIME_LIMIT');
      t.is(late.evaluation.classification, 'UNKNOWN');
    }
  } finally {
    await pool.close();
  }
});
