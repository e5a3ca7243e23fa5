import test from 'ava';
import { groupCommit, type Outcome } from '../../src/store/sql/group-commit.js';

// The batcher under the SQL stores' appends: the first request goes at once, requests that arrive
// while a commit runs go together in the next one, each caller hears only its own outcome.

function recorder(outcomeOf: (n: number) => Outcome<string> = (n) => ({ ok: true, value: `done ${n}` })) {
  const batches: number[][] = [];
  const commit = async (batch: readonly number[]) => {
    batches.push([...batch]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return batch.map(outcomeOf);
  };
  return { batches, commit };
}

test('a lone request commits at once, alone; requests arriving meanwhile share the next commit', async (t) => {
  const r = recorder();
  const append = groupCommit(r.commit);
  const first = append(0);
  const rest = [1, 2, 3, 4].map((n) => append(n));
  t.deepEqual(await Promise.all([first, ...rest]), ['done 0', 'done 1', 'done 2', 'done 3', 'done 4']);
  t.deepEqual(r.batches, [[0], [1, 2, 3, 4]]);
});

test('a refused request rejects only its own caller', async (t) => {
  const r = recorder((n) =>
    n === 2 ? { ok: false, error: new Error('conflict 2') } : { ok: true, value: `done ${n}` },
  );
  const append = groupCommit(r.commit);
  const results = await Promise.allSettled([0, 1, 2, 3].map((n) => append(n)));
  t.deepEqual(
    results.map((x) => x.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
  );
  t.is((results[2] as PromiseRejectedResult).reason.message, 'conflict 2');
});

test('a commit that throws rejects every request of that batch and the next batch still runs', async (t) => {
  let calls = 0;
  const append = groupCommit<number, number>(async (batch) => {
    calls++;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (calls === 2) throw new Error('database gone');
    return batch.map((n) => ({ ok: true, value: n }));
  });
  const a = append(1);
  const bc = [append(2), append(3)];
  await a;
  const settled = await Promise.allSettled(bc);
  t.deepEqual(
    settled.map((x) => x.status),
    ['rejected', 'rejected'],
  );
  t.is(await append(4), 4, 'the batcher keeps working after a failed commit');
});

test('batches never exceed maxBatch, and order is kept', async (t) => {
  const r = recorder();
  const append = groupCommit(r.commit, 3);
  await Promise.all(Array.from({ length: 10 }, (_, n) => append(n)));
  t.true(r.batches.every((b) => b.length <= 3));
  t.deepEqual(
    r.batches.flat(),
    Array.from({ length: 10 }, (_, n) => n),
  );
  t.throws(() => groupCommit(r.commit, 0), { instanceOf: RangeError });
});

test(
  'a commit answering the wrong number of outcomes ' + 'rejects its batch instead of leaving callers waiting',
  async (t) => {
    const append = groupCommit<number, number>(async () => []);
    await t.throwsAsync(append(1), { message: /0 outcomes for 1 requests/ });
  },
);
