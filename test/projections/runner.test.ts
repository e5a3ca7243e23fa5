import { randomUUID } from 'node:crypto';
import test, { type TestFn } from 'ava';
import { projectionRunner, type Projection } from '../../projections/runner.js';
import type { EventStore, RecordedEvent } from '../../src/store/port.js';
import { embeddedStore, postgresStore, type StoreFactory } from '../store/fixtures/store-under-test.js';
import { requiredServerUrl } from '../store/fixtures/required-env.js';

// A view that shows every way a runner can go wrong: `ids` lists every folded event in order, so
// a skipped event, a double application or a reordering all change it.
interface Tally {
  ids: string[];
  byType: Record<string, number>;
  amountMicro: bigint; // not JSON: exercises toJson/fromJson
}

function tallyProjection(version = 1, onApply: () => void = () => {}): Projection<Tally> {
  return {
    name: 'tally',
    version,
    initial: { ids: [], byType: {}, amountMicro: 0n },
    apply(state, event) {
      onApply();
      const amount = (event.data as { amount?: string } | null)?.amount;
      return {
        ids: [...state.ids, event.id],
        byType: { ...state.byType, [event.type]: (state.byType[event.type] ?? 0) + 1 },
        amountMicro: state.amountMicro + (amount ? BigInt(amount) : 0n),
      };
    },
    toJson: (s) => ({ ...s, amountMicro: s.amountMicro.toString() }),
    fromJson: (j) => {
      const o = j as { ids: string[]; byType: Record<string, number>; amountMicro: string };
      return { ...o, amountMicro: BigInt(o.amountMicro) };
    },
  };
}

async function foldAll(store: EventStore): Promise<Tally> {
  const projection = tallyProjection();
  let state = structuredClone(projection.initial);
  for (let from = 0n; ; ) {
    const page = await store.readAll(from, 1000);
    if (page.length === 0) return state;
    for (const e of page) state = projection.apply(state, e);
    from = page[page.length - 1]!.position;
  }
}

async function appendSome(store: EventStore, count: number): Promise<bigint> {
  let last = 0n;
  for (let i = 0; i < count; i++) {
    const stream = `purchase-${i % 3}`;
    const type = ['Quoted', 'Offered', 'Settled'][i % 3]!;
    last = (await store.append(stream, [{ id: randomUUID(), type, data: { amount: String(1_000_000 + i) } }], 'any')).position;
  }
  return last;
}

function runnerSuite(test: TestFn, label: string, fresh: StoreFactory): void {
  test.serial(`${label}: a rebuild from zero gives the same view as the incremental run`, async (t) => {
    const under = await fresh();
    try {
      const { store } = under;
      await appendSome(store, 5); // before the runner starts: catch-up
      const runner = projectionRunner({ store, projection: tallyProjection(), saveEvery: 4 });
      await runner.start();
      const last = await appendSome(store, 12); // while it runs: live
      const incremental = await runner.waitFor(last);
      t.is(incremental.ids.length, 17);
      t.deepEqual(incremental, await foldAll(store), 'incremental view equals an independent fold of $all');

      await runner.rebuild();
      t.deepEqual(runner.view(), incremental);
      t.is(runner.position(), last);

      const more = await appendSome(store, 2);
      t.is((await runner.waitFor(more)).ids.length, 19, 'after a rebuild the runner follows live events again');
      await runner.stop();
      const stored = await store.projectionStates().load('tally');
      t.is(stored?.position, more, 'stop saves the checkpoint');
    } finally {
      await under.dispose();
    }
  });

  test.serial(`${label}: a restart resumes from the stored checkpoint and applies each event once`, async (t) => {
    const under = await fresh();
    try {
      let store = under.store;
      let applied = 0;
      const first = projectionRunner({ store, projection: tallyProjection(1, () => applied++) });
      await first.start();
      const checkpoint = await appendSome(store, 6);
      await first.waitFor(checkpoint);
      await first.stop();
      const saved = await store.projectionStates().load('tally');
      t.is(saved?.position, checkpoint);
      t.is(saved?.version, 1);

      const missed = await appendSome(store, 4); // appended while no runner runs
      await store.close();
      store = await under.reopen(); // and the storage itself was closed and reopened

      applied = 0;
      const second = projectionRunner({ store, projection: tallyProjection(1, () => applied++) });
      await second.start();
      t.is(applied, 4, 'only the events after the checkpoint are applied');
      t.is(second.position(), missed);
      const view = second.view();
      t.is(view.ids.length, 10);
      t.is(new Set(view.ids).size, 10, 'no event folded twice');
      t.deepEqual(view, await foldAll(store));
      await second.stop();

      applied = 0;
      const bumped = projectionRunner({ store, projection: tallyProjection(2, () => applied++) });
      await bumped.start();
      t.is(applied, 10, 'a new projection version discards the stored state and replays everything');
      t.deepEqual(bumped.view(), view);
      await bumped.stop();
    } finally {
      await under.dispose();
    }
  });

  test.serial(`${label}: waitFor resolves once the view includes a position and rejects when it never comes`, async (t) => {
    const under = await fresh();
    try {
      const { store } = under;
      const runner = projectionRunner({ store, projection: tallyProjection() });
      await t.throwsAsync(runner.waitFor(1n), { message: /not running/ });
      await runner.start();
      const pending = runner.waitFor(await appendSome(store, 1));
      t.is((await pending).ids.length, 1);
      await t.throwsAsync(runner.waitFor(1_000_000n, { timeoutMs: 200 }), { message: /did not reach position 1000000/ });
      await runner.stop();
    } finally {
      await under.dispose();
    }
  });

  test.serial(`${label}: a reducer that throws stops the runner, keeps the last good view and fails waiters`, async (t) => {
    const under = await fresh();
    try {
      const { store } = under;
      const base = tallyProjection();
      const fragile: Projection<Tally> = {
        ...base,
        apply: (s, e: RecordedEvent) => {
          if (e.type === 'Poison') throw new Error('cannot fold Poison');
          return base.apply(s, e);
        },
      };
      const runner = projectionRunner({ store, projection: fragile });
      await runner.start();
      const good = await appendSome(store, 2);
      await runner.waitFor(good);
      const poison = await store.append('p', [{ id: randomUUID(), type: 'Poison', data: {} }], 'any');
      await t.throwsAsync(runner.waitFor(poison.position), { message: /failed on event at position/ });
      t.is(runner.position(), good);
      t.is(runner.view().ids.length, 2);
      await runner.stop();
    } finally {
      await under.dispose();
    }
  });
}

runnerSuite(test, 'runner on embedded', embeddedStore);

const pgUrl = requiredServerUrl(test, 'PG_TEST_URL', 'projection runner on PostgreSQL', { requiredInCi: true });
if (pgUrl) runnerSuite(test, 'runner on postgres', postgresStore(pgUrl));
