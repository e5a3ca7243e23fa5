import { rm } from 'node:fs/promises';
import test from 'ava';
import { openStore } from '../../src/store/open/open.js';
import { MIGRATIONS } from '../../src/store/sql/schema.js';
import { freshEmbeddedDir } from './fixtures/store-under-test.js';

// Store migrations are append-only (src/store/sql/schema.ts). Migration 5 drops the `projections` table that migration
// 1 created and nothing ever used (docs/decisions.md, "Reviewable modules and dead code"); migration 6 computes every
// stored event's facts_v3 (what a delivered report says changed, docs/wire.md §14).

const tableExists = async (store: Awaited<ReturnType<typeof openStore>>, name: string) => {
  const [row] = await store.sql!.query<{ found: string | null }>(`SELECT to_regclass($1)::text AS found`, [name]);
  return row?.found != null;
};

test.serial('a store opened before migration 5 loses its projections table and keeps its events', async (t) => {
  const dir = await freshEmbeddedDir();
  try {
    // A store as it was at migration 4: the table is there and migration 5 is not recorded.
    const old = await openStore(`file:${dir}`);
    await old.append('s-0', [{ id: crypto.randomUUID(), type: 'A', data: {}, metadata: {} }], 'no_stream');
    await old.sql!.query(
      `CREATE TABLE projections (name text PRIMARY KEY, version integer NOT NULL, position bigint NOT NULL,
         state jsonb NOT NULL, updated timestamptz NOT NULL DEFAULT now())`,
    );
    await old.sql!.query(`DELETE FROM store_migrations WHERE version = 5`);
    t.true(await tableExists(old, 'projections'), 'the old table is in place before the upgrade');
    await old.close();

    const upgraded = await openStore(`file:${dir}`);
    t.false(await tableExists(upgraded, 'projections'));
    const versions = await upgraded.sql!.query<{ version: number }>(`SELECT version FROM store_migrations`);
    t.deepEqual(
      versions.map((r) => Number(r.version)).sort((a, b) => a - b),
      MIGRATIONS.map((_, i) => i + 1),
    );
    t.is((await upgraded.readStream('s-0')).length, 1, 'the events are untouched');
    await upgraded.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.serial('a fresh store has no projections table', async (t) => {
  const dir = await freshEmbeddedDir();
  try {
    const store = await openStore(`file:${dir}`);
    t.true(await tableExists(store, 'events'));
    t.false(await tableExists(store, 'projections'));
    await store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.serial(
  'migrations 6 to 8 give events stored before them facts_v5: what a report says changed, and its signals',
  async (t) => {
    const dir = await freshEmbeddedDir();
    try {
      // A store as it was at migration 5: facts_v2, no later facts, migrations 6 to 8 not recorded.
      const old = await openStore(`file:${dir}`);
      const before28 = { sku: 'rights.revalidate.v1', resources: [{ changed: true }, { changed: false }] };
      const tdmrep = { standard: 'tdmrep', sha256: 'a'.repeat(64), channel: 'well-known' };
      const after28 = {
        sku: 'rights.preflight.v1',
        resources: [{ signals: [tdmrep], signals_summary: 'RESTRICTED_BY_OTHER_SIGNAL' }],
      };
      for (const report of [before28, after28])
        await old.append(
          `purchase-${report.sku}`,
          [{ id: crypto.randomUUID(), type: 'Delivered', data: { response: { report }, payment_response: {} } }],
          'no_stream',
        );
      await old.sql!.query(`ALTER TABLE events DROP COLUMN facts_v5`);
      await old.sql!.query(`DROP FUNCTION rp_event_facts_v4(text, text, jsonb)`);
      await old.sql!.query(`DROP FUNCTION rp_event_facts_v3(text, text, jsonb)`);
      await old.sql!.query(
        'ALTER TABLE events ADD COLUMN facts_v2 json ' +
          'GENERATED ALWAYS AS (rp_event_facts_v2(stream, type, data)::json) STORED',
      );
      await old.sql!.query(`DELETE FROM store_migrations WHERE version IN (6, 7, 8)`);
      await old.close();

      const upgraded = await openStore(`file:${dir}`);
      const rows = await upgraded.sql!.query<{ facts_v5: unknown }>(`SELECT facts_v5 FROM events ORDER BY position`);
      t.like(rows[0]?.facts_v5, { changed: [true, false], signals_summary: [null, null], signals: [null, null] });
      t.like(rows[1]?.facts_v5, {
        changed: [],
        signals_summary: ['RESTRICTED_BY_OTHER_SIGNAL'],
        signals: [[`tdmrep:${'a'.repeat(64)}`]],
      });
      const columns = await upgraded.sql!.query<{ name: string }>(
        "SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'events' " +
          "AND column_name LIKE 'facts%'",
      );
      t.deepEqual(
        columns.map((c) => c.name),
        ['facts_v5'],
      );
      await upgraded.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);
