import { randomBytes } from 'node:crypto';
import test from 'ava';
import { rebuild } from '../../projections/catch-up.js';
import { openReadModels } from '../../projections/read-models.js';
import { openReadStore } from '../../src/store/open/read-store.js';
import { readCheckpoint } from '../../projections/schema.js';
import { openStore } from '../../src/store/open/open.js';
import { DECLARED, getReport, postQuote, type MoneyWorld } from '../support/money-env.js';
import { useWorld } from '../support/world.js';
import { relayerPool } from '../support/relayer-pool.js';
import { signPayment } from '../support/pay.js';
import type { ServiceProcess } from '../support/service-process.js';
import { readModelTables } from './support/tables.js';
import { requiredServerUrl } from '../support/required-server.js';

// Two service processes on one PostgreSQL schema: exactly one leads (runs the projector and the
// recovery worker). kill -9 the leader and the other takes over within seconds; after a burst of
// purchases on both sides of the takeover, every read-model table equals a rebuild from the first
// event, so nothing was missed and nothing applied twice.
const PG = requiredServerUrl(test, 'PG_TEST_URL', 'leadership of two service processes on PostgreSQL', {
  requiredInCi: true,
});
const LEADING = 'leading: running the read-model projector and the recovery worker';

const leads = (p: ServiceProcess): number =>
  p
    .output()
    .split('\n')
    .filter((l) => l.includes(LEADING)).length;

async function until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await ok())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
}

/** A burst on one process: quotes (some abandoned) and paid deliveries. */
async function burst(w: MoneyWorld, url: string, buyerIndex: number, quotes: number, paid: number): Promise<void> {
  const bodies = await Promise.all(
    Array.from({ length: quotes }, () =>
      postQuote(url, { resource: DECLARED, purpose: 'ai-input', tier: 'fresh', max_total_micro: '50000' }),
    ),
  );
  for (const q of bodies) if (q.status !== 200) throw new Error(`quote answered ${q.status}`);
  const buyer = w.devnet.buyers[buyerIndex]!;
  for (const q of bodies.slice(0, paid)) {
    const offer = await getReport(url, q.body.report_url, { 'x-service-claim': q.body.claim_token });
    if (offer.status !== 402) throw new Error(`offer answered ${offer.status}`);
    const header = await signPayment(buyer.privateKey, offer.headers.get('payment-required')!);
    // The leader's recovery worker may be resuming this very checkpoint from the other process: the
    // service then answers 409 PURCHASE_IN_PROGRESS, and a buyer sends the same request again.
    let delivered = await getReport(url, q.body.report_url, {
      'x-service-claim': q.body.claim_token,
      'payment-signature': header,
    });
    for (let i = 0; i < 50 && delivered.status === 409; i++) {
      await new Promise((r) => setTimeout(r, 200));
      delivered = await getReport(url, q.body.report_url, {
        'x-service-claim': q.body.claim_token,
        'payment-signature': header,
      });
    }
    if (delivered.status !== 200) throw new Error(`redemption answered ${delivered.status}: ${delivered.text}`);
  }
}

if (PG) {
  const storeUrl = `${PG}?schema=leader_${randomBytes(4).toString('hex')}`;
  const w = useWorld({ service: false, eventStoreUrl: storeUrl });

  test.serial(
    'one leader of two; kill -9 it and the other takes over; every table equals a full rebuild',
    async (t) => {
      // Recovery passes run during the bursts, as they would; each instance leases its own relayer key.
      const pool = await relayerPool(w.devnet.rpcUrl, 2);
      const env = { ...w.env, ...pool.env, RECOVERY_INTERVAL_MS: '1000' };
      const a = await w.startProcess(env);
      const b = await w.startProcess(env);

      await until('one of the two leads', () => leads(a) + leads(b) === 1, 10_000);
      // Stay a while: the follower keeps trying for the lease every second and must keep losing.
      await new Promise((r) => setTimeout(r, 2_500));
      t.is(leads(a) + leads(b), 1, 'exactly one process leads');
      const [leader, follower] = leads(a) === 1 ? [a, b] : [b, a];

      // Purchases through both processes; the follower's writes are projected by the leader.
      await Promise.all([burst(w, leader.url, 1, 12, 2), burst(w, follower.url, 2, 12, 2)]);

      await leader.kill9();
      const tookOver = await until('the follower takes over', () => leads(follower) === 1, 15_000);
      t.log(`follower took over ${tookOver} ms after the leader was killed`);
      await burst(w, follower.url, 3, 12, 2);

      const store = await openStore(storeUrl);
      const readModels = await openReadModels(store, { readStore: await openReadStore(store, storeUrl) });
      try {
        const head = await readModels.feed.head();
        await readModels.caughtUp(20_000);
        t.true((await readCheckpoint(readModels.db)).position >= head, 'the new leader projected every event');
        await follower.stop();

        const live = await readModelTables(readModels.db);
        t.is((live.rm_purchases as unknown[]).length, 36, 'one report-view row per quoted purchase');
        t.is((live.rm_compliance as unknown[]).length, 6, 'one compliance row per delivered report');
        await rebuild(readModels.db, readModels.feed);
        t.deepEqual(live, await readModelTables(readModels.db), 'nothing missed, nothing applied twice');
      } finally {
        await readModels.close();
        await store.close();
      }
    },
  );
}
