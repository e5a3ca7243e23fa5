import test from 'ava';
import { openReadModels } from '../../projections/read-models.js';
import { openReadStore } from '../../src/store/open/read-store.js';
import { CHECKPOINT, READ_MODEL_VERSION, readCheckpoint } from '../../projections/schema.js';
import { openStore } from '../../src/store/open/open.js';
import { bulkLoad } from '../bench/support/bulk-load.js';
import { purchaseHistories } from '../bench/support/purchase-histories.js';
import { DECLARED, postQuote } from '../support/money-env.js';
import { useWorld } from '../support/world.js';
import { dropSchema, freshSchemaName, withSchema } from '../store/fixtures/store-under-test.js';
import { requiredServerUrl } from '../support/required-server.js';

// A read-model version change makes the service drop and rebuild its tables from the first event.
// That rebuild runs in the background: the service listens, and health, capabilities and quotes
// answer while the checkpoint is still far behind the head of the store.
const PG = requiredServerUrl(test, 'PG_TEST_URL', 'background rebuild on PostgreSQL', { requiredInCi: true });
const PURCHASES = 6_000;

if (PG) {
  const schema = freshSchemaName();
  const storeUrl = withSchema(PG, schema);
  const w = useWorld({ service: false, eventStoreUrl: storeUrl });
  test.after.always(async () => {
    await dropSchema(PG, schema);
  });

  test.serial('a version change rebuilds the read models while the service answers', async (t) => {
    // A store that already holds thousands of purchases, with read models from an older version.
    const store = await openStore(storeUrl);
    await bulkLoad(store.sql!, purchaseHistories(PURCHASES, { seed: 11 }), { interleave: true });
    const old = await openReadModels(store, { readStore: await openReadStore(store, storeUrl) });
    await old.db.query(`UPDATE rm_checkpoint SET version = version - 1 WHERE name = $1`, [CHECKPOINT]);
    await old.close();
    await store.close();

    const service = await w.start();
    const head = await service.readModels.feed.head();
    const seenAt = async () => (await readCheckpoint(service.readModels.db)).position;

    const answered: { what: string; status: number; checkpoint: bigint }[] = [];
    const ask = async (what: string, f: () => Promise<number>) =>
      answered.push({ what, status: await f(), checkpoint: await seenAt() });
    await Promise.all([
      ask('healthz', async () => (await fetch(`${service.url}/healthz`)).status),
      ask('capabilities', async () => (await fetch(`${service.url}/v1/capabilities`)).status),
      ask(
        'quote',
        async () =>
          (
            await postQuote(service.url, {
              resource: DECLARED,
              purpose: 'ai-input',
              tier: 'fresh',
              max_total_micro: '50000',
            })
          ).status,
      ),
    ]);
    t.log(answered.map((a) => `${a.what} ${a.status} with the checkpoint at ${a.checkpoint} of ${head}`).join('\n'));
    t.deepEqual(
      answered.map((a) => a.status),
      [200, 200, 200],
    );
    t.true(
      answered.some((a) => a.checkpoint < head),
      'an answer came while the rebuild was still under way',
    );

    await service.readModels.caughtUp(120_000);
    const cp = await readCheckpoint(service.readModels.db);
    const [purchases] = await service.readModels.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM rm_purchases`,
    );
    t.is(cp.version, READ_MODEL_VERSION, 'the tables were recreated at the current version');
    t.true(cp.position > head, 'the rebuilt read models went on to include the new quote');
    t.is(Number(purchases?.n), PURCHASES + 1, 'every stored purchase and the new quote are in the rebuilt report view');
  });
}
