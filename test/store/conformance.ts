import { randomUUID } from 'node:crypto';
import type { ExecutionContext, TestFn } from 'ava';
import { WrongExpectedRevision, type EventStore, type NewEvent, type RecordedEvent } from '../../src/store/port.js';
import type { StoreFactory, StoreUnderTest } from './fixtures/store-under-test.js';
import { nextAppend } from '../../src/store/next-append.js';

// The contract every EventStore adapter must meet (docs/decisions.md, "Event store"). Each adapter's test file calls
// storeConformance with a factory of isolated stores. Tests run serially: an embedded store is a
// whole Postgres in WASM (~300 MB), and serial runs keep "nothing else appended meanwhile" true.
// Streams get random names and reads start after a marker event, so the suite also runs on a
// shared server (EventStoreDB) where other writers exist.

export function storeConformance(test: TestFn, adapter: string, fresh: StoreFactory): void {
  const serial = test.serial;

  serial(`${adapter}: append then read back round trip`, (t) =>
    using(fresh, async ({ store }) => {
      const s = name('roundtrip');
      const events = [
        ev('Quoted', { price: '1.25', nested: { list: [1, 'two', null], ünï: 'cödé ✓' } }, { correlation: 'c-1' }),
        ev('Offered', [1, 2, 3]),
      ];
      const result = await store.append(s, events, 'no_stream');
      t.is(result.nextExpectedRevision, 1n);

      const read = await store.readStream(s);
      t.deepEqual(
        read.map((e) => [e.id, e.stream, e.type, e.revision, e.data, e.metadata]),
        [
          [events[0]!.id, s, 'Quoted', 0n, events[0]!.data, { correlation: 'c-1' }],
          [events[1]!.id, s, 'Offered', 1n, [1, 2, 3], {}],
        ],
      );
      t.true(read[0]!.position < read[1]!.position);
      t.is(result.position, read[1]!.position, 'append reports the global position of its last event');
      t.true(read.every((e) => e.created instanceof Date && !Number.isNaN(e.created.getTime())));
      t.deepEqual(await store.readStream(name('missing')), []);
    }),
  );

  serial(`${adapter}: nextAppend wakes on the stream's next append, not on other streams, and times out`, (t) =>
    using(fresh, async ({ store }) => {
      const s = name('watched');
      const other = name('other');
      const first = await store.append(s, [ev('Quoted', { n: 1 })], 'no_stream');
      t.false(await nextAppend(store, s, first.position, 300), 'nothing appended: false after the timeout');
      const woken = nextAppend(store, s, first.position, 20_000);
      await store.append(other, [ev('Quoted', { n: 2 })], 'no_stream');
      const race = await Promise.race([woken, new Promise((r) => setTimeout(() => r('still waiting'), 300))]);
      t.is(race, 'still waiting', "another stream's append does not wake the waiter");
      await store.append(s, [ev('Offered', { n: 3 })], 0n);
      t.true(await woken, "the stream's own append wakes it");
      const later = await store.append(s, [ev('Offered', { n: 4 })], 1n);
      t.true(await nextAppend(store, s, later.position - 1n, 20_000), 'an append made before the wait counts');
    }),
  );

  serial(`${adapter}: readFirstField reads one field of a stream's first event only`, (t) =>
    using(fresh, async ({ store }) => {
      const s = name('first-field');
      await store.append(s, [ev('Quoted', { claim_sha256: 'ab'.repeat(32), n: 1 })], 'no_stream');
      await store.append(s, [ev('Offered', { claim_sha256: 'cd'.repeat(32) })], 0n);
      t.is(await store.readFirstField(s, 'claim_sha256'), 'ab'.repeat(32), 'the first event, not a later one');
      t.is(await store.readFirstField(s, 'n'), 1);
      t.is(await store.readFirstField(s, 'absent'), null);
      t.is(await store.readFirstField(name('missing'), 'claim_sha256'), undefined);
    }),
  );

  serial(`${adapter}: expected revision conflicts (no_stream on existing, wrong number, any)`, (t) =>
    using(fresh, async ({ store }) => {
      const s = name('conflicts');
      await store.append(s, [ev('A')], 'no_stream');

      const onExisting = await t.throwsAsync(store.append(s, [ev('B')], 'no_stream'), {
        instanceOf: WrongExpectedRevision,
      });
      t.deepEqual([onExisting.stream, onExisting.expected, onExisting.actual], [s, 'no_stream', 0n]);

      const wrongNumber = await t.throwsAsync(store.append(s, [ev('B')], 5n), { instanceOf: WrongExpectedRevision });
      t.deepEqual([wrongNumber.expected, wrongNumber.actual], [5n, 0n]);

      const missing = name('missing');
      const onMissing = await t.throwsAsync(store.append(missing, [ev('B')], 0n), {
        instanceOf: WrongExpectedRevision,
      });
      t.is(onMissing.actual, 'no_stream');

      t.is((await store.append(s, [ev('B')], 0n)).nextExpectedRevision, 1n);
      t.is((await store.append(s, [ev('C'), ev('D')], 'any')).nextExpectedRevision, 3n);
      t.is(
        (await store.append(name('any-new'), [ev('E')], 'any')).nextExpectedRevision,
        0n,
        "'any' also creates a stream",
      );
      t.deepEqual(
        (await store.readStream(s)).map((e) => e.type),
        ['A', 'B', 'C', 'D'],
      );
    }),
  );

  serial(`${adapter}: retrying an append with the same event ids is a no-op with the same result`, (t) =>
    using(fresh, async ({ store }) => {
      const s = name('retry');
      const first = [ev('A'), ev('B')];
      const r1 = await store.append(s, first, 'no_stream');
      t.deepEqual(await store.append(s, first, 'no_stream'), r1, 'immediate retry');

      const second = [ev('C')];
      const r2 = await store.append(s, second, 1n);
      t.deepEqual(
        await store.append(s, first, 'no_stream'),
        r1,
        'retry after the stream moved on still finds the original append',
      );
      t.deepEqual(await store.append(s, second, 1n), r2);
      await t.throwsAsync(
        store.append(s, [ev('D')], 1n),
        { instanceOf: WrongExpectedRevision },
        'new ids at a stale revision still conflict',
      );
      t.deepEqual(
        (await store.readStream(s)).map((e) => e.id),
        [...first, ...second].map((e) => e.id),
        'no event was stored twice',
      );

      const s2 = name('retry-any');
      const third = [ev('E')];
      const r3 = await store.append(s2, third, 'any');
      t.deepEqual(await store.append(s2, third, 'any'), r3, "retry with 'any'");
      t.is((await store.readStream(s2)).length, 1);
    }),
  );

  serial(`${adapter}: concurrent appends at the same expected revision, exactly one wins`, (t) =>
    using(fresh, async (under) => {
      const a = under.store;
      const b = under.peer ? await under.peer() : under.store;
      const how = under.peer
        ? 'two store instances'
        : 'one instance, concurrent calls (embedded is one process by design)';
      const s = name('race');
      const winners: number[] = [];
      for (let round = 0; round < 5; round++) {
        const expected = round === 0 ? 'no_stream' : BigInt(round - 1);
        const outcomes = await Promise.allSettled([
          a.append(s, [ev('FromA')], expected),
          b.append(s, [ev('FromB')], expected),
        ]);
        const won = outcomes.filter((o) => o.status === 'fulfilled').length;
        winners.push(won);
        for (const o of outcomes)
          if (o.status === 'rejected') t.true(o.reason instanceof WrongExpectedRevision, String(o.reason));
      }
      t.log(`${adapter} (${how}): winners per round = [${winners.join(', ')}]`);
      t.deepEqual(winners, [1, 1, 1, 1, 1]);
      t.deepEqual(
        (await a.readStream(s)).map((e) => e.revision),
        [0n, 1n, 2n, 3n, 4n],
      );
    }),
  );

  serial(`${adapter}: readAll returns every stream's events in global order, page by page`, (t) =>
    using(fresh, async ({ store }) => {
      const before = await marker(store);
      const [x, y, z] = [name('x'), name('y'), name('z')];
      const appended: NewEvent[] = [];
      const put = async (s: string, n: number) => {
        const events = Array.from({ length: n }, () => ev('E', { s }));
        appended.push(...events);
        await store.append(s, events, 'any');
      };
      await put(x, 2);
      await put(y, 1);
      await put(x, 1);
      await put(z, 3);
      await put(y, 2);

      const mine = (events: RecordedEvent[]) => events.filter((e) => [x, y, z].includes(e.stream));
      const all = mine(await store.readAll(before, 1000));
      t.deepEqual(
        all.map((e) => e.id),
        appended.map((e) => e.id),
        'global order is append order across streams',
      );
      assertStrictlyIncreasing(
        t,
        all.map((e) => e.position),
      );

      const paged: RecordedEvent[] = [];
      for (let from = before; ; ) {
        const page = await store.readAll(from, 2);
        t.true(page.length <= 2);
        if (page.length === 0) break;
        paged.push(...page);
        from = page[page.length - 1]!.position;
      }
      t.deepEqual(
        mine(paged).map((e) => e.id),
        all.map((e) => e.id),
        'pages of 2 add up to the full read',
      );
      t.deepEqual(await store.readAll(all[all.length - 1]!.position, 10), [], 'nothing after the last event');
      t.deepEqual(await store.readAll(before, 0), []);
    }),
  );

  serial(`${adapter}: subscription catches up, then delivers live events, and stops when closed`, (t) =>
    using(fresh, async (under) => {
      const { store } = under;
      const writer = under.peer ? await under.peer() : store;
      const before = await marker(store);
      const s = name('sub');
      const early = [ev('A'), ev('B'), ev('C')];
      await store.append(s, early, 'no_stream');

      const seen: RecordedEvent[] = [];
      const sub = store.subscribeAll(before, (e) => {
        if (e.stream === s) seen.push(e);
      });
      await until(t, () => seen.length >= 3, 'catch-up delivers the existing events');

      const late = [ev('D'), ev('E')];
      await writer.append(s, late.slice(0, 1), 2n);
      await store.append(s, late.slice(1), 3n);
      await until(
        t,
        () => seen.length >= 5,
        `live delivery${under.peer ? ' (one event appended by another instance)' : ''}`,
      );
      t.deepEqual(
        seen.map((e) => e.id),
        [...early, ...late].map((e) => e.id),
      );
      assertStrictlyIncreasing(
        t,
        seen.map((e) => e.position),
      );

      const fromMiddle: RecordedEvent[] = [];
      const sub2 = store.subscribeAll(seen[1]!.position, (e) => {
        if (e.stream === s) fromMiddle.push(e);
      });
      await until(t, () => fromMiddle.length >= 3, 'a subscription from a position starts after it');
      t.deepEqual(
        fromMiddle.map((e) => e.type),
        ['C', 'D', 'E'],
      );

      await sub.close();
      await sub2.close();
      await store.append(s, [ev('F')], 4n);
      await new Promise((r) => setTimeout(r, 300));
      t.is(seen.length, 5, 'no delivery after close');
      t.is(fromMiddle.length, 3);
    }),
  );

  serial(`${adapter}: reopening after close keeps every event and positions keep growing`, (t) =>
    using(fresh, async (under) => {
      const s = name('reopen');
      const before = await marker(under.store);
      await under.store.append(s, [ev('A', { n: 1 }), ev('B', { n: 2 })], 'no_stream');
      await under.store.append(name('other'), [ev('C')], 'no_stream');
      const stored = await under.store.readAll(before, 100);
      await under.store.close();

      const again = await under.reopen();
      const reread = await again.readAll(before, 100);
      t.deepEqual(reread.map(comparable), stored.map(comparable));
      const next = await again.append(s, [ev('D')], 1n);
      t.is(next.nextExpectedRevision, 2n);
      t.true(next.position > stored[stored.length - 1]!.position);
    }),
  );

  serial(`${adapter}: global positions are unique and increasing under concurrent appends`, (t) =>
    using(fresh, async ({ store }) => {
      const before = await marker(store);
      const streams = Array.from({ length: 5 }, () => name('mono'));
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.append(streams[i % 5]!, [ev('E', { i }), ev('F', { i })], 'any')),
      );
      const positions = results.map((r) => r.position);
      t.is(new Set(positions).size, 20, 'each append reports its own position');

      const read = (await store.readAll(before, 1000)).filter((e) => streams.includes(e.stream));
      t.is(read.length, 40);
      assertStrictlyIncreasing(
        t,
        read.map((e) => e.position),
      );
      for (const p of positions) t.true(read.some((e) => e.position === p));
      for (const s of streams) {
        t.deepEqual(
          read.filter((e) => e.stream === s).map((e) => e.revision),
          Array.from({ length: 8 }, (_, i) => BigInt(i)),
          `revisions of ${s} have no gap`,
        );
      }
    }),
  );

  serial(`${adapter}: concurrent appends of several events at known revisions each land where expected`, (t) =>
    using(fresh, async ({ store }) => {
      const streams = Array.from({ length: 12 }, () => name('known'));
      for (const s of streams) await store.append(s, [ev('A'), ev('B')], 'no_stream');
      const batches = streams.map((s, i) => Array.from({ length: 1 + (i % 3) }, (_, k) => ev('Next', { s, k })));
      const results = await Promise.all(streams.map((s, i) => store.append(s, batches[i]!, 1n)));
      for (const [i, s] of streams.entries()) {
        const read = await store.readStream(s);
        t.deepEqual(
          read.map((e) => e.revision),
          Array.from({ length: 2 + batches[i]!.length }, (_, r) => BigInt(r)),
        );
        t.deepEqual(
          read.slice(2).map((e) => e.id),
          batches[i]!.map((e) => e.id),
        );
        t.is(results[i]!.nextExpectedRevision, BigInt(1 + batches[i]!.length));
        t.is(results[i]!.position, read.at(-1)!.position, 'the position of its own last event');
      }
      // The same appends again (a retry after a lost answer): each is recognised, nothing is written twice.
      const again = await Promise.all(streams.map((s, i) => store.append(s, batches[i]!, 1n)));
      t.deepEqual(again, results);
    }),
  );

  serial(
    `${adapter}: concurrent appends to many streams: ` +
      'a conflict fails only its own append, each result is readable once it resolves',
    (t) =>
      using(fresh, async ({ store }) => {
        const streams = Array.from({ length: 60 }, () => name('burst'));
        const existing = streams[7]!;
        await store.append(existing, [ev('A')], 'no_stream');
        const retried = [ev('R1'), ev('R2')];
        const retriedStream = streams[11]!;
        await store.append(retriedStream, retried, 'no_stream');

        const outcomes = await Promise.allSettled(
          streams.map(async (s, i) => {
            // One stale expectation, one idempotent retry, one race of two writers of revision 0, the rest new streams.
            const events = s === retriedStream ? retried : [ev('Burst', { i })];
            const result = await store.append(
              s,
              events,
              s === retriedStream || s === existing ? 'no_stream' : i % 2 ? 'no_stream' : 'any',
            );
            t.deepEqual(
              (await store.readStream(s)).map((e) => e.id).slice(-events.length),
              events.map((e) => e.id),
              'readable when the append resolves',
            );
            return result;
          }),
        );
        const race = name('race');
        const racers = await Promise.allSettled([
          store.append(race, [ev('X')], 'no_stream'),
          store.append(race, [ev('Y')], 'no_stream'),
        ]);

        for (const [i, o] of outcomes.entries()) {
          if (streams[i] === existing) {
            t.is(o.status, 'rejected');
            t.true(o.status === 'rejected' && o.reason instanceof WrongExpectedRevision);
          } else t.is(o.status, 'fulfilled', `append ${i} succeeded`);
        }
        const retriedResult = outcomes[11]!;
        t.true(
          retriedResult.status === 'fulfilled' && retriedResult.value.nextExpectedRevision === 1n,
          'the retry landed nowhere new',
        );
        t.deepEqual(
          (await store.readStream(retriedStream)).map((e) => e.id),
          retried.map((e) => e.id),
        );
        t.deepEqual(
          racers.map((r) => r.status).sort(),
          ['fulfilled', 'rejected'],
          'exactly one of two writers of revision 0 wins',
        );
        t.true(racers.some((r) => r.status === 'rejected' && r.reason instanceof WrongExpectedRevision));
        t.deepEqual(
          (await store.readStream(existing)).map((e) => e.type),
          ['A'],
          'the refused append wrote nothing',
        );
      }),
  );

  serial(`${adapter}: events without UUID ids are refused before anything is written`, (t) =>
    using(fresh, async ({ store }) => {
      const s = name('bad-id');
      await t.throwsAsync(store.append(s, [{ id: 'not-a-uuid', type: 'A', data: {} }], 'any'), {
        instanceOf: TypeError,
        message: /not a UUID/,
      });
      const dup = randomUUID();
      await t.throwsAsync(
        store.append(
          s,
          [
            { id: dup, type: 'A', data: {} },
            { id: dup, type: 'B', data: {} },
          ],
          'any',
        ),
        { message: /twice/ },
      );
      t.deepEqual(await store.readStream(s), []);
    }),
  );
}

async function using(fresh: StoreFactory, body: (under: StoreUnderTest) => Promise<void>): Promise<void> {
  const under = await fresh();
  try {
    await body(under);
  } finally {
    await under.dispose();
  }
}

export function ev(type: string, data: unknown = {}, metadata?: Record<string, unknown>): NewEvent {
  return metadata ? { id: randomUUID(), type, data, metadata } : { id: randomUUID(), type, data };
}

export function name(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}

/** A position after which only this test's events (and other writers' on shared servers) appear. */
export async function marker(store: EventStore): Promise<bigint> {
  return (await store.append(name('marker'), [ev('Marker')], 'no_stream')).position;
}

/** Waits for a condition the code under test must reach; the bound only stops a hung test. */
export async function until(
  t: ExecutionContext,
  condition: () => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      t.fail(`timed out waiting for: ${what}`);
      throw new Error(`timed out waiting for: ${what}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

function assertStrictlyIncreasing(t: ExecutionContext, positions: bigint[]): void {
  const ok = positions.every((p, i) => i === 0 || p > positions[i - 1]!);
  t.true(ok, `positions strictly increasing: ${positions.join(',')}`);
}

function comparable(e: RecordedEvent) {
  return { ...e, created: e.created.getTime() };
}
