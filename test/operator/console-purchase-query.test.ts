import test from 'ava';
import { consolePurchaseQuery, SKUS } from '../../src/operator/console-purchase-query.js';
import { purchasePage, usdc } from '../../src/operator/console-html.js';
import type { ReportRow } from '../../projections/report-view/report-row.js';
import { soldLinesOf } from '../../projections/report-view/resource-lines.js';

// The console list's query string: empty fields are no filter, a day is one UTC day of quotes, and a
// wrong status, sku or day is refused with words naming the field. And the purchase page of a revalidation.

test('empty fields filter nothing; a day becomes [day, next day) of quote times', (t) => {
  t.deepEqual(consolePurchaseQuery({ status: '', sku: '', origin: ' ', day: '' }).filter, { limit: 100 });
  t.deepEqual(
    consolePurchaseQuery({
      status: 'delivered',
      sku: 'rights.ingestion-gate.v1',
      origin: 'https://pub.example',
      day: '2026-02-28',
    }).filter,
    {
      status: 'delivered',
      sku: 'rights.ingestion-gate.v1',
      origin: 'https://pub.example',
      since: '2026-02-28T00:00:00.000Z',
      until: '2026-03-01T00:00:00.000Z',
      limit: 100,
    },
  );
});

test('every SKU sold can be filtered on, revalidations too', (t) => {
  t.deepEqual([...SKUS].sort(), ['rights.ingestion-gate.v1', 'rights.preflight.v1', 'rights.revalidate.v1']);
  t.like(consolePurchaseQuery({ sku: 'rights.revalidate.v1' }).filter, { sku: 'rights.revalidate.v1' });
});

test('a wrong status, sku or day is refused naming it', (t) => {
  t.throws(() => consolePurchaseQuery({ status: 'paid' }), { message: /--status must be one of/ });
  t.throws(() => consolePurchaseQuery({ sku: 'rights.other' }), { message: /^sku must be one of/ });
  t.throws(() => consolePurchaseQuery({ day: '2026-02-30' }), { message: /^day must be a calendar day/ });
});

test('the search box names a transaction, a payer or a purchase id prefix by its shape; else refused', (t) => {
  const tx = `0x${'Ab'.repeat(32)}`;
  t.like(consolePurchaseQuery({ q: tx }).filter, { transaction: tx });
  t.like(consolePurchaseQuery({ q: ` 0x${'c'.repeat(40)} ` }).filter, { payer: `0x${'c'.repeat(40)}` });
  t.like(consolePurchaseQuery({ q: 'purchase-3F9A' }).filter, { idPrefix: '3f9a' });
  t.like(consolePurchaseQuery({ q: 'd'.repeat(64) }).filter, { idPrefix: 'd'.repeat(64) });
  t.deepEqual(consolePurchaseQuery({ q: '' }).filter, { limit: 100 });
  for (const q of ['abc', '0x12', 'https://pub.example', `0x${'g'.repeat(40)}`])
    t.throws(() => consolePurchaseQuery({ q }), { message: /^search takes a purchase id/ }, q);
});

test('revenue is shown in USDC with six decimals', (t) => {
  t.is(usdc('0'), '0.000000');
  t.is(usdc('20000'), '0.020000');
  t.is(usdc('123456789'), '123.456789');
});

test('a revalidation’s console page lists each resource re-checked, whether it changed, and other signals', (t) => {
  const line = (n: number, classification: string) => ({
    resource: `https://news.example/${n}`,
    origin: 'https://news.example',
    classification,
    decision: null,
    observed_at: '2026-11-27T08:00:00.000Z',
    rsl_documents: [],
  });
  const row: ReportRow = {
    purchase_id: 'a'.repeat(64),
    status: 'delivered',
    submissions: 1,
    locked_from: null,
    sku: 'rights.revalidate.v1',
    resource: 'https://service.example/v1/rights/revalidate',
    origin: 'https://news.example',
    purpose: 'ai-input',
    user_class: 'commercial',
    tier: 'fresh',
    geo: null,
    classification: 'PROHIBITED_BY_OBSERVED_DECLARATION',
    decision: 'DENY_DECLARED',
    observed_at: '2026-11-27T08:00:00.000Z',
    rsl_document_sha256: [],
    resources: [line(1, 'PROHIBITED_BY_OBSERVED_DECLARATION'), line(2, 'PERMITTED_BY_OBSERVED_DECLARATION')],
    price_micro: '20000',
    expires_at: '2026-11-27T08:05:00.000Z',
    quoted_at: '2026-11-27T08:00:00.000Z',
    payer: null,
    settled_amount_micro: '20000',
    network: 'eip155:8453',
    transaction: null,
    evidence_key_id: null,
    report_sha256: 'b'.repeat(64),
    evidence_sha256: 'c'.repeat(64),
    delivery_proof_sha256: 'd'.repeat(64),
    delivered_at: '2026-11-27T08:00:01.000Z',
    changed: [true, false],
    signals_summary: ['RESTRICTED_BY_OTHER_SIGNAL', null],
    signals: [[`tdmrep:${'e'.repeat(64)}`], null],
    lock_reason: null,
    updated_position: '9',
  };
  const timeline = { purchase: row, resources: soldLinesOf(row), history: [], refund: null, revision: null };
  const html = purchasePage(timeline, new Date('2026-11-27T09:00:00.000Z'));
  t.regex(html, /<h2>Resources \(2, one payment\)<\/h2>/);
  const cells = [...html.matchAll(/<td>([^<]*)<\/td><td>(yes|no|—)<\/td><td>([^<]*)<\/td>/g)].map((m) => [
    m[1],
    m[2],
    m[3],
  ]);
  t.deepEqual(cells, [
    ['PROHIBITED_BY_OBSERVED_DECLARATION', 'yes', 'RESTRICTED_BY_OTHER_SIGNAL'],
    ['PERMITTED_BY_OBSERVED_DECLARATION', 'no', '—'],
  ]);

  // A refund request: the amount in USDC (micro on hover), its time ISO, and the buyer's message as written.
  const refund = {
    purchase_id: row.purchase_id,
    status: 'requested' as const,
    reason: 'report_wrong',
    amount_micro: '20000',
    requested_at: '2026-11-27T08:30:00.123Z',
    reviewed_at: null,
    paid_transaction: null,
  };
  const withRefund = purchasePage(
    { ...timeline, refund },
    new Date('2026-11-27T09:00:00.000Z'),
    'robots.txt <b>changed</b>\nat 08:10',
  );
  t.regex(
    withRefund,
    /<blockquote id="refund-message">robots\.txt &lt;b&gt;changed&lt;\/b&gt;\nat 08:10<\/blockquote>/,
  );
  t.regex(
    withRefund,
    /<span class="usdc" title="20000 micro-USDC">0\.020000 USDC<\/span>, requested 2026-11-27T08:30:00Z/,
  );
  t.notRegex(withRefund, /\d micro-USDC</, 'micro-USDC only in tooltips');
  t.regex(
    purchasePage({ ...timeline, refund }, new Date('2026-11-27T09:00:00.000Z')),
    /id="refund-message">The buyer wrote no message/,
  );
});
