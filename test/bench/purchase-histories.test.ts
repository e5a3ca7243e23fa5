import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import test from 'ava';
import { checkpointAad, openText, type SealedBox } from '@rights-preflight/wire/crypto/aes-gcm.js';
import { canonicalJson } from '@rights-preflight/wire/evidence/canonical-json.js';
import { openStore } from '../../src/store/open/open.js';
import { WrongExpectedRevision, type RecordedEvent } from '../../src/store/port.js';
import { decideToAppend } from '../support/decide-at.js';
import { fold } from '../../streams/purchase/evolve.js';
import { foldRefund } from '../../streams/refund/evolve.js';
import { bulkLoad } from './support/bulk-load.js';
import { freshEmbeddedDir } from '../store/fixtures/store-under-test.js';
import {
  BENCH_CHECKPOINT_KEY,
  HISTORY_DAYS,
  PURCHASE_MIX,
  purchaseHistories,
  purchaseHistoriesInWorker,
  summarizeMix,
  type PurchaseHistory,
} from './support/purchase-histories.js';

// The benchmark data: legal, realistic purchase histories, and a bulk loader that leaves an ordinary
// store behind. Sizes are checked against what `npm run demo` writes (Quoted ≈ 3.6 KB, Offered ≈ 4.0 KB,
// AuthorizationCheckpointed ≈ 4.5 KB, Settled ≈ 190 B, Delivered ≈ 6.8 KB now that each resource carries
// its signed checkpoint (docs/wire.md §14); gate purchases larger).

const START = new Date('2026-10-01T00:00:00.000Z');
const histories = [...purchaseHistories(300, { seed: 11, start: START })];
const purchases = histories.filter((h) => h.path !== 'refund');
const refunds = histories.filter((h) => h.path === 'refund');
const bytes = (data: unknown) => Buffer.byteLength(JSON.stringify(data), 'utf8');
const sku = (h: PurchaseHistory) => (h.events[0]!.data as { sku: string }).sku;

test("every purchase stream folds with the stream's own evolve, every refund stream with foldRefund", (t) => {
  t.is(purchases.length, 300);
  t.true(refunds.length > 0, 'this seed files at least one refund request');
  const statuses = new Set<string>();
  for (const h of purchases) {
    t.true(h.stream.startsWith('purchase-') && /^purchase-[0-9a-f]{64}$/.test(h.stream));
    const state = fold(h.events);
    t.is(state.version, h.events.length);
    t.is(`purchase-${state.quoted!.purchase_id}`, h.stream);
    statuses.add(state.status);
  }
  t.deepEqual([...statuses].sort(), ['closed', 'delivered', 'held', 'lock_stuck', 'quoted']);
  for (const h of refunds) {
    const state = foldRefund(h.events);
    t.is(state.version, h.events.length);
    t.is(`refund-${state.request!.purchase_id}`, h.stream);
    t.is(
      fold(purchases.find((p) => p.stream === `purchase-${state.request!.purchase_id}`)!.events).status,
      'delivered',
    );
  }
});

test('the mix is roughly the specified one (3000 purchases)', (t) => {
  const s = summarizeMix(purchaseHistories(3000, { seed: 5 }));
  t.is(s.purchases, 3000);
  for (const m of PURCHASE_MIX) {
    const share = (s.byPath[m.path] ?? 0) / s.purchases;
    t.true(Math.abs(share - m.share) < Math.max(0.015, m.share * 0.4), `${m.path}: ${share.toFixed(3)} vs ${m.share}`);
  }
  const delivered = (s.byPath.delivered ?? 0) + (s.byPath.submitted ?? 0);
  t.true(
    s.refunds > delivered * 0.003 && s.refunds < delivered * 0.025,
    `${s.refunds} refund requests for ${delivered} deliveries`,
  );
});

test('ids are unique: streams, purchase ids, event ids', (t) => {
  const streams = histories.map((h) => h.stream);
  t.is(new Set(streams).size, streams.length);
  const ids = histories.flatMap((h) => h.events.map((e) => e.id));
  t.is(new Set(ids).size, ids.length);
  t.true(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)));
  const nonces = purchases.flatMap((h) =>
    h.events.filter((e) => e.type === 'Offered').map((e) => (e.data as { nonce: string }).nonce),
  );
  t.is(new Set(nonces).size, nonces.length);
  const txs = purchases.flatMap((h) =>
    h.events.filter((e) => e.type === 'Settled').map((e) => (e.data as { transaction: string }).transaction),
  );
  t.is(new Set(txs).size, txs.length);
});

test('event sizes are in the range the real service writes', (t) => {
  const single = purchases.filter((h) => sku(h) === 'rights.preflight.v1').flatMap((h) => h.events);
  const range: Record<string, [number, number]> = {
    Quoted: [3_000, 6_000],
    Offered: [3_600, 4_800],
    AuthorizationCheckpointed: [4_000, 5_200],
    Settled: [150, 260],
    Delivered: [5_500, 9_500],
  };
  for (const [type, [lo, hi]] of Object.entries(range)) {
    const sizes = single.filter((e) => e.type === type).map((e) => bytes(e.data));
    t.true(sizes.length > 0, type);
    t.true(
      sizes.every((b) => b >= lo && b <= hi),
      `${type}: ${Math.min(...sizes)}–${Math.max(...sizes)} bytes, expected ${lo}–${hi}`,
    );
  }
  const gateQuotes = purchases
    .filter((h) => sku(h) === 'rights.ingestion-gate.v1')
    .map((h) => bytes(h.events[0]!.data));
  t.true(
    gateQuotes.length > 5 && gateQuotes.every((b) => b > 4_500 && b < 30_000),
    `gate Quoted: ${Math.min(...gateQuotes)}–${Math.max(...gateQuotes)}`,
  );
  const all = histories.flatMap((h) => h.events.map((e) => bytes(e.data)));
  const average = all.reduce((a, b) => a + b, 0) / all.length;
  t.true(average > 3_000 && average < 5_500, `average ${Math.round(average)} bytes per event`);
});

test(
  'purchases vary: ~20 origins, several purposes and classifications, ' + 'deliveries over ~30 days, many payers',
  (t) => {
    const quotes = purchases.map(
      (h) =>
        h.events[0]!.data as {
          input: { purpose: string; resource: string; resources?: string[] };
          decision_preview: { classification: string };
          reading: { readings?: { origin: string }[]; origin?: string };
        },
    );
    const origins = new Set(
      quotes.flatMap((q) => (q.reading.readings ? q.reading.readings.map((r) => r.origin) : [q.reading.origin!])),
    );
    t.true(origins.size >= 18, `${origins.size} origins`);
    t.true(new Set(quotes.map((q) => q.input.purpose)).size >= 6);
    t.true(new Set(quotes.map((q) => q.decision_preview.classification)).size >= 4);
    t.true(new Set(quotes.map((q) => q.input.resource)).size > 250);
    const delivered = purchases.flatMap((h) =>
      h.events
        .filter((e) => e.type === 'Delivered')
        .map((e) =>
          Date.parse(
            (e.data as { response: { delivery_proof: { payload: { delivered_at: string } } } }).response.delivery_proof
              .payload.delivered_at,
          ),
        ),
    );
    const days = (Math.max(...delivered) - Math.min(...delivered)) / 86_400_000;
    t.true(days > HISTORY_DAYS - 3 && days < HISTORY_DAYS + 1, `deliveries over ${days.toFixed(1)} days`);
    const payers = new Set(
      purchases.flatMap((h) =>
        h.events.filter((e) => e.type === 'AuthorizationCheckpointed').map((e) => (e.data as { payer: string }).payer),
      ),
    );
    t.true(payers.size > 100, `${payers.size} payers`);
  },
);

test('the sealed authorization opens to the x402 payload whose digest is payment_sha256', async (t) => {
  const h = purchases.find((p) => p.events.some((e) => e.type === 'AuthorizationCheckpointed'))!;
  const c = h.events.find((e) => e.type === 'AuthorizationCheckpointed')!.data as {
    sealed_payment: SealedBox;
    payment_sha256: string;
    nonce: string;
    payer: string;
  };
  const clear = JSON.parse(
    await openText(BENCH_CHECKPOINT_KEY, c.sealed_payment, checkpointAad(h.stream.slice('purchase-'.length))),
  );
  t.is(createHash('sha256').update(canonicalJson(clear)).digest('hex'), c.payment_sha256);
  t.is(clear.payload.authorization.nonce, c.nonce);
  t.is(clear.payload.authorization.from, c.payer);
});

test('the same seed gives the same histories, in a worker thread too', async (t) => {
  const again = [...purchaseHistories(40, { seed: 11, start: START })];
  const fromWorker: PurchaseHistory[] = [];
  for await (const h of purchaseHistoriesInWorker(40, { seed: 11, start: START })) fromWorker.push(h);
  t.deepEqual(again, fromWorker);
  t.deepEqual(again, [...purchaseHistories(40, { seed: 11, start: START })]);
  t.notDeepEqual(again[0], [...purchaseHistories(40, { seed: 12, start: START })][0]);
});

test('bulkLoad: an ordinary store comes out (readStream, readAll in order, later appends)', async (t) => {
  const dir = await freshEmbeddedDir();
  const store = await openStore(`file:${dir}`);
  try {
    const result = await bulkLoad(store.sql!, histories, { batchEvents: 500, interleave: true });
    const total = histories.reduce((n, h) => n + h.events.length, 0);
    t.deepEqual([result.events, result.streams], [total, histories.length]);
    t.is(
      result.bytes,
      histories.reduce((n, h) => n + h.events.reduce((m, e) => m + bytes(e.data), 0), 0),
    );

    for (const h of [...histories.slice(0, 20), ...refunds]) {
      const read = await store.readStream(h.stream);
      t.deepEqual(
        read.map((e) => e.revision),
        h.events.map((_, i) => BigInt(i)),
      );
      t.deepEqual(
        read.map((e) => [e.id, e.type, e.data, e.metadata]),
        h.events.map((e) => [e.id, e.type, e.data, {}]),
      );
    }

    const all: RecordedEvent[] = [];
    for (let from = 0n; ; ) {
      const page = await store.readAll(from, 700);
      if (page.length === 0) break;
      all.push(...page);
      from = page[page.length - 1]!.position;
    }
    t.is(all.length, total);
    t.true(all.every((e, i) => i === 0 || e.position > all[i - 1]!.position));
    const seen = new Map<string, bigint>();
    for (const e of all) {
      t.is(e.revision, (seen.get(e.stream) ?? -1n) + 1n, `${e.stream} in revision order`);
      seen.set(e.stream, e.revision);
    }
    // Interleaved: the first streams' events are spread out, not consecutive.
    const first = all.filter((e) => e.stream === histories[0]!.stream).map((e) => Number(e.position));
    t.true(first.length < 2 || first[1]! - first[0]! > 1);

    // A later append at the loaded head works, and a stale expected revision is refused.
    const target = purchases.find((h) => h.path === 'delivered')!;
    const state = fold(await store.readStream(target.stream));
    const hold = decideToAppend(
      {
        type: 'Hold',
        data: { reason: 'BUYER_REPORTED_MISMATCH', details: { field: 'evidence' }, at: '2026-11-20T10:00:00.000Z' },
      },
      state,
      new Date('2026-11-20T10:00:00.000Z'),
    );
    await t.throwsAsync(store.append(target.stream, hold, BigInt(state.version - 2)), {
      instanceOf: WrongExpectedRevision,
    });
    const appended = await store.append(target.stream, hold, BigInt(state.version - 1));
    t.is(appended.nextExpectedRevision, BigInt(target.events.length));
    t.true(appended.position > all[all.length - 1]!.position);
    t.is(fold(await store.readStream(target.stream)).status, 'held');

    // Loading a stream that already exists stops on UNIQUE (stream, revision) and writes nothing.
    await t.throwsAsync(bulkLoad(store.sql!, [histories[1]!]));
    t.is((await store.readStream(histories[1]!.stream)).length, histories[1]!.events.length);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});
