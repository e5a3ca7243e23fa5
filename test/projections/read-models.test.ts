import { randomUUID } from 'node:crypto';
import test, { type TestFn } from 'ava';
import { rebuild } from '../../projections/catch-up.js';
import { deliveredFactsFromData, incompleteDelivered } from '../../projections/feed/delivered-digests.js';
import { factsOf } from '../../projections/feed/event-facts.js';
import { sqlFactFeed } from '../../projections/feed/sql-feed.js';
import { startProjector } from '../../projections/projector.js';
import { complianceOf } from '../../projections/compliance/compliance-of.js';
import { complianceDaily, complianceRows } from '../../projections/queries/compliance.js';
import { listPurchases, purchaseIdsWithPrefix, queueItems, reportRow } from '../../projections/queries/purchases.js';
import { recoveryCandidates } from '../../projections/queries/recovery-candidates.js';
import { refundRow } from '../../projections/queries/refunds.js';
import { openReadModels } from '../../projections/read-models.js';
import { digestOf } from '@rights-preflight/wire/evidence/digest.js';
import type { EventStoreWithProjections } from '../../src/store/store-with-projections.js';
import { fold } from '../../streams/purchase/evolve.js';
import { purchaseIdOfStream, streamName } from '../../streams/purchase/purchase-id.js';
import { GATE_SKU } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { REVALIDATE_SKU } from '@rights-preflight/wire/contract/revalidation.js';
import { purchaseHistories } from '../bench/support/purchase-histories.js';
import { refundStream } from '../../streams/refund/events.js';
import { checkpointed, deliveredData, deliveredPurchase, run, stuckPurchase } from '../ops/seed.js';
import { heldData, NOW, PAYER, PRICE, settledData, TX } from '../streams/purchase/fixtures.js';
import { embeddedStore, postgresStore, sqliteStore, type StoreFactory } from '../store/fixtures/store-under-test.js';
import { requiredServerUrl } from '../support/required-server.js';
import { readModelTables } from './support/tables.js';

// The read models on a real store (embedded PGlite and PostgreSQL): the database's facts column says
// exactly what the TypeScript extraction says; the tables follow the streams' own evolve; a live
// projector and a rebuild from zero end in the same rows; only held and stuck purchases are queued.

async function seedMix(store: EventStoreWithProjections) {
  const delivered = await deliveredPurchase(store);
  const stuck = await stuckPurchase(store);
  const paid = await checkpointed(store);
  const paid2 = await checkpointed(store);
  const heldAfter = await deliveredPurchase(store);
  await run(store, heldAfter, { type: 'Hold', data: heldData('BUYER_REPORTED_MISMATCH') });
  // A delivery written the way the service writes it now, with its proof digest.
  const fresh = await checkpointed(store);
  await run(store, fresh, { type: 'RecordSettlement', data: settledData() });
  const d = deliveredData(fresh);
  await run(store, fresh, {
    type: 'Deliver',
    data: { ...d, delivery_proof_sha256: digestOf(d.response.delivery_proof) },
  });
  await store.append(
    refundStream(delivered),
    [
      {
        id: randomUUID(),
        type: 'RefundRequested',
        data: {
          purchase_id: delivered,
          reason: 'OTHER',
          message: 'please check',
          charge: { purchase_status: 'delivered', amount_micro: PRICE, payer: PAYER, transaction: TX },
          at: NOW.toISOString(),
        },
      },
    ],
    'no_stream',
  );
  // An ingestion gate over several URLs on several origins, delivered (a benchmark history: the deciders'
  // own events): one compliance row per resource, each under its own origin.
  const [gate, other] = [...purchaseHistories(200, { seed: 22 })].filter(
    (h) => h.path === 'delivered' && (h.events[0]!.data as { sku: string }).sku === GATE_SKU,
  );
  await store.append(gate!.stream, gate!.events, 'no_stream');
  // A revalidation, delivered then held: its reading stores the new readings as a gate's, and its report says
  // per resource whether it changed (here the first did, the others not).
  const revalidation = revalidationOf(other!);
  await store.append(revalidation.stream, revalidation.events, 'no_stream');
  return {
    delivered,
    stuck,
    paid,
    paid2,
    heldAfter,
    fresh,
    gate: purchaseIdOfStream(gate!.stream)!,
    revalidation: purchaseIdOfStream(revalidation.stream)!,
  };
}

const RESTRICTED = 'RESTRICTED_BY_OTHER_SIGNAL';
const TDMREP = { standard: 'tdmrep', channel: 'well-known', sha256: '1'.repeat(64), url: 'https://x/', readings: [] };
const AIPREF = { ...TDMREP, standard: 'aipref', channel: 'header', sha256: '2'.repeat(64) };

type History = { stream: string; events: { id: string; type: string; data: unknown }[] };
function revalidationOf(h: History): History {
  const events = structuredClone(h.events).map((e) => {
    const data = e.data as {
      sku?: string;
      input?: { sku: string; resources: string[]; checkpoint_sha256s?: string[] };
      reading?: { version: string; previous?: unknown[] };
      response?: { report: { sku: string; resources: object[] } };
    };
    if (e.type === 'Quoted') {
      data.sku = data.input!.sku = REVALIDATE_SKU;
      data.input!.checkpoint_sha256s = data.input!.resources.map(() => 'c'.repeat(64));
      // What each reading is compared with is the report's business; no read model looks at it.
      Object.assign(data.reading!, { version: 'rsl-revalidation-readings-v1', previous: [] });
    }
    if (e.type === 'Delivered') {
      // The report is edited, so its proof's digest no longer holds: written as events were before they carried
      // `delivery_proof_sha256`, its digests and what changed are read from the response (delivered-digests.ts).
      delete (data as { delivery_proof_sha256?: string }).delivery_proof_sha256;
      data.response!.report.sku = REVALIDATE_SKU;
      const stated = [
        { signals_summary: RESTRICTED, signals: [TDMREP, AIPREF] },
        { signals_summary: 'CONSISTENT', signals: [] },
      ];
      data.response!.report.resources = data.response!.report.resources.map((r, i) => {
        // Signals beside RSL: the first resource restricted by another signal, the second consistent, the rest
        // stated as a report drafted before signals were read states them (no signals at all).
        const { signals: _signals, signals_summary: _summary, ...before28 } = r as Record<string, unknown>;
        return { ...before28, changed: i === 0, ...stated[i] };
      });
    }
    return e;
  });
  return { stream: h.stream, events: [...events, { id: randomUUID(), type: 'Held', data: heldData() }] };
}

function suite(t: TestFn, label: string, factory: StoreFactory): void {
  t.serial(`${label}: the facts column equals the TypeScript extraction for every event`, async (t) => {
    const under = await factory();
    try {
      await seedMix(under.store);
      // SQLite keeps data and facts as text (its facts computed at append: src/store/sqlite/sqlite-event-store.ts).
      const sql = under.store.sql!;
      const rows = (
        await sql.query<{ stream: string; type: string; data: unknown; facts_v5: unknown }>(
          sql.dialect === 'sqlite'
            ? `SELECT stream, type, data, facts AS facts_v5 FROM events ORDER BY events.position`
            : `SELECT stream, type, data, facts_v5 FROM events ORDER BY events.position`,
        )
      ).map((r) =>
        sql.dialect === 'sqlite'
          ? { ...r, data: JSON.parse(r.data as string), facts_v5: JSON.parse(r.facts_v5 as string) }
          : r,
      );
      t.true(rows.length > 20);
      // SQLite completes a Delivered event's digests from its data at append, where the feed of PostgreSQL does
      // it at read (projections/feed/sql-feed.ts).
      const expected = (r: (typeof rows)[number]) => {
        const facts = factsOf(r.stream, r.type, r.data);
        return sql.dialect === 'sqlite' && facts !== null && incompleteDelivered(r.type, facts)
          ? deliveredFactsFromData(r.data)
          : facts;
      };
      for (const r of rows) t.deepEqual(r.facts_v5, expected(r), `${r.type} of ${r.stream.slice(0, 16)}`);
      const delivered = rows
        .filter((r) => r.type === 'Delivered')
        .map((r) => r.facts_v5 as { changed: unknown[]; signals_summary: unknown[]; signals: unknown[] });
      t.true(
        delivered.some(({ changed: c }) => c[0] === true && c.length > 1),
        'a revalidation says what changed',
      );
      t.true(
        delivered.some((f) => f.signals_summary[0] === RESTRICTED && f.signals_summary.includes(null)),
        "the revalidation's signals: a summary per resource, null where its report states none",
      );
    } finally {
      await under.dispose();
    }
  });

  t.serial(
    `${label}: tables follow evolve; the queue holds only held and stuck; a live projector equals a rebuild`,
    async (t) => {
      const under = await factory();
      try {
        const store = under.store;
        const models = await openReadModels(store);
        const projector = startProjector({
          db: models.db,
          feed: models.feed,
          onAppend: (wake) => store.onAppend!(wake),
          pollMs: 50,
          onAdvance: () => models.advanced(),
        });
        const ids = await seedMix(store);
        await models.caughtUp(20_000);

        for (const id of Object.values(ids)) {
          const row = await reportRow(models.db, id);
          t.is(
            row?.status,
            fold(await store.readStream(streamName(id))).status,
            `status of ${id.slice(0, 8)} is evolve's`,
          );
        }
        t.deepEqual(
          (await queueItems(models.db)).map((q) => `${q.purchase_id}:${q.kind}`).sort(),
          [`${ids.stuck}:lock_stuck`, `${ids.heldAfter}:held`, `${ids.revalidation}:held`].sort(),
        );
        t.deepEqual((await recoveryCandidates(models.db)).sort(), [ids.paid, ids.paid2].sort());

        // The operator moves the stuck purchase back to settlement: off the queue, a recovery candidate again.
        await run(store, ids.stuck, {
          type: 'OperatorMove',
          data: { target: 'retry_settlement', note: 'checked the chain', operator: 'ops', at: NOW.toISOString() },
        });
        await models.caughtUp(20_000);
        t.is((await reportRow(models.db, ids.stuck))?.status, 'checkpointed');
        t.false((await queueItems(models.db)).some((q) => q.purchase_id === ids.stuck));
        t.true((await recoveryCandidates(models.db)).includes(ids.stuck));

        // Compliance: one row per delivered report, digests as the delivery's own, held and refund joined.
        const rows = [];
        for await (const r of complianceRows(models.db)) rows.push(r);
        const delivered = [ids.delivered, ids.heldAfter, ids.fresh, ids.gate, ids.revalidation].sort();
        t.deepEqual([...new Set(rows.map((r) => r.purchase_id))].sort(), delivered);
        for (const r of rows) {
          const stream = await store.readStream(streamName(r.purchase_id));
          const response = (
            stream.find((e) => e.type === 'Delivered')!.data as {
              response: { report: unknown; evidence: unknown; delivery_proof: unknown };
            }
          ).response;
          t.is(r.report_sha256, digestOf(response.report));
          t.is(r.evidence_sha256, digestOf(response.evidence));
          t.is(r.delivery_proof_sha256, digestOf(response.delivery_proof));
        }
        for (const id of delivered) {
          const expected = complianceOf(await reportRow(models.db, id), await refundRow(models.db, id));
          const actual = rows.filter((r) => r.purchase_id === id);
          t.deepEqual(actual, expected, 'the rm_compliance view says what complianceOf says');
        }
        // The gate: one row per resource it sold, each with its own origin and classification, one payment.
        const gateRows = rows.filter((r) => r.purchase_id === ids.gate);
        const quoted = (await store.readStream(streamName(ids.gate)))[0]!.data as {
          input: { purpose: string };
          reading: {
            readings: { resource: string; origin: string; purposes: { purpose: string; classification: string }[] }[];
          };
        };
        const readings = quoted.reading.readings;
        t.true(readings.length >= 2);
        t.deepEqual(
          gateRows.map((r) => [r.line, r.lines, r.resource, r.origin, r.classification]),
          readings.map((g, i) => [
            i + 1,
            readings.length,
            g.resource,
            g.origin,
            g.purposes.find((p) => p.purpose === quoted.input.purpose)!.classification,
          ]),
        );
        t.is(new Set(gateRows.map((r) => r.transaction)).size, 1, 'all tied to the one payment');
        t.is(
          gateRows.reduce((sum, r) => sum + BigInt(r.line_amount_micro!), 0n).toString(),
          gateRows[0]!.amount_micro ?? 'no amount',
          'the line shares sum to the payment',
        );
        t.true(rows.find((r) => r.purchase_id === ids.heldAfter)!.held);
        t.is(rows.find((r) => r.purchase_id === ids.delivered)!.refund_status, 'requested');
        // The revalidation: its resources under its own SKU, each with what its report says changed.
        const revalidated = rows.filter((r) => r.purchase_id === ids.revalidation);
        t.true(revalidated.length >= 2);
        t.deepEqual(
          revalidated.map((r) => [r.sku, r.line, r.changed, r.held]),
          revalidated.map((_, i) => [REVALIDATE_SKU, i + 1, i === 0, true]),
        );
        t.true(rows.filter((r) => r.sku !== REVALIDATE_SKU).every((r) => r.changed === null));
        // Its signals beside RSL per line, as its report states them; none stated before the signals beside RSL were
        // read.
        t.deepEqual(
          revalidated.map((r) => [r.signals_summary, r.signals]),
          revalidated.map(
            (_, i) =>
              [
                [RESTRICTED, [`tdmrep:${'1'.repeat(64)}`, `aipref:${'2'.repeat(64)}`]],
                ['CONSISTENT', []],
              ][i] ?? [null, null],
          ),
        );
        t.is(
          rows.find((r) => r.purchase_id === ids.delivered)!.signals_summary,
          null,
          'a report before signals were read',
        );
        t.is((await reportRow(models.db, ids.revalidation))?.sku, REVALIDATE_SKU);
        const daily = await complianceDaily(models.db);
        t.is(
          daily.reduce((n, d) => n + d.reports, 0),
          3 + readings.length + revalidated.length,
          'one per delivered resource',
        );
        t.deepEqual(
          [REVALIDATE_SKU, GATE_SKU].map((sku) =>
            daily.filter((d) => d.sku === sku).reduce((n, d) => n + d.reports, 0),
          ),
          [revalidated.length, readings.length],
        );
        t.is(
          daily.reduce((n, d) => n + d.changed, 0),
          1,
          'the changed revalidated resource',
        );
        t.is(
          daily.reduce((n, d) => n + d.restricted_by_other_signal, 0),
          1,
          'the revalidated resource another signal restricted',
        );
        t.is(
          daily.reduce((n, d) => n + BigInt(d.amount_micro), 0n),
          rows.reduce((n, r) => n + (r.line === 1 ? BigInt(r.amount_micro ?? '0') : 0n), 0n),
          'the days sum to the payments',
        );
        t.is(
          daily.reduce((n, d) => n + d.held, 0),
          1 + revalidated.length,
        );

        t.deepEqual(await purchaseIdsWithPrefix(models.db, ids.fresh.slice(0, 12)), [ids.fresh]);
        t.is((await listPurchases(models.db, { status: 'lock_stuck' })).length, 0);
        t.is((await listPurchases(models.db)).length, 8);

        const live = await readModelTables(models.db);
        await projector.stop();
        await rebuild(models.db, sqlFactFeed(store.sql!));
        t.deepEqual(await readModelTables(models.db), live, 'a rebuild from zero gives the same rows');
        await models.close();
      } finally {
        await under.dispose();
      }
    },
  );
}

suite(test, 'embedded', embeddedStore);
suite(test, 'sqlite', sqliteStore);
const pgUrl = requiredServerUrl(test, 'PG_TEST_URL', 'read models on PostgreSQL', { requiredInCi: true });
if (pgUrl) suite(test, 'postgres', postgresStore(pgUrl));
