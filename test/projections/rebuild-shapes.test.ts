import test, { type TestFn } from 'ava';
import { catchUp, rebuild } from '../../projections/catch-up.js';
import { openReadModels } from '../../projections/read-models.js';
import { bulkLoad } from '../bench/support/bulk-load.js';
import { type HistoryOptions, purchaseHistories } from '../bench/support/purchase-histories.js';
import { embeddedStore, postgresStore, sqliteStore, type StoreFactory } from '../store/fixtures/store-under-test.js';
import { requiredServerUrl } from '../support/required-server.js';
import { readModelTables } from './support/tables.js';

// The purchases `npm run bench:replay` rebuilds (quoted only, the whole way in seven events, and the
// production mix), on a real store: the read models a projector writes page by page as the events
// come (tiny pages: purchases cut across pages, rows carried from the previous page or loaded back from
// the tables, columns set and later cleared) are the very rows a rebuild from zero writes in large pages.

const SHAPES: { shape: NonNullable<HistoryOptions['shape']>; purchases: number }[] = [
  { shape: 'quoted', purchases: 40 },
  { shape: 'full', purchases: 40 },
  { shape: 'mix', purchases: 150 },
];

function suite(t: TestFn, label: string, open: StoreFactory) {
  t.serial(`${label}: a live projection and a rebuild give the same rows, purchase shape by shape`, async (t) => {
    const under = await open();
    try {
      const store = under.store;
      const models = await openReadModels(store);
      let purchases = 0;
      let events = 0;
      for (const [i, { shape, purchases: n }] of SHAPES.entries()) {
        const loaded = await bulkLoad(store.sql!, purchaseHistories(n, { seed: 11 + i, shape }), {
          interleave: true,
        });
        purchases += n;
        events += loaded.events;
        // As the live projector follows `$all`: small pages, each written on top of the rows before it.
        await catchUp(models.db, models.feed, { pageSize: 7 });
        const [counted] = await models.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM rm_purchases`);
        t.is(Number(counted?.n), purchases, `${shape}: one row per purchase`);
      }
      const shapes = await models.db.query<{ status: string; n: string }>(
        `SELECT status, count(*)::text AS n FROM rm_purchases GROUP BY status`,
      );
      const byStatus = Object.fromEntries(shapes.map((r) => [r.status, Number(r.n)]));
      t.true((byStatus.quoted ?? 0) >= 40, 'the quoted-only purchases stay quoted');
      t.true((byStatus.delivered ?? 0) >= 40, 'the full purchases are delivered');
      const live = await readModelTables(models.db);
      const done = await rebuild(models.db, models.feed);
      t.is(done.events, events, 'the rebuild read every event');
      t.deepEqual(await readModelTables(models.db), live, 'a rebuild from zero gives the same rows, row for row');
      await models.close();
    } finally {
      await under.dispose();
    }
  });
}

suite(test, 'embedded', embeddedStore);
suite(test, 'sqlite', sqliteStore);
const pgUrl = requiredServerUrl(test, 'PG_TEST_URL', 'rebuild shapes on PostgreSQL', { requiredInCi: true });
if (pgUrl) suite(test, 'postgres', postgresStore(pgUrl));
