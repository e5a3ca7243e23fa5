import test from 'ava';
import { createNonceManager, isNonceError } from '../../src/payment/settlement/nonce-manager.js';

// The relayer account's nonces (src/payment/settlement/nonce-manager.ts): read from the chain at first
// and after any failed broadcast, assigned locally in between, one broadcast at a time.

const chain = (start: number) => {
  const c = { pending: start, reads: 0 };
  const read = async () => {
    c.reads++;
    return c.pending;
  };
  return { c, read };
};
const tick = () => new Promise((r) => setImmediate(r));

test('consecutive nonces from one chain read; broadcasts never overlap', async (t) => {
  const { c, read } = chain(7);
  const nonces = createNonceManager(read);
  let inFlight = 0;
  let most = 0;
  const used = await Promise.all(
    Array.from({ length: 10 }, () =>
      nonces.broadcast(async (nonce) => {
        most = Math.max(most, ++inFlight);
        await tick();
        inFlight--;
        return nonce;
      }),
    ),
  );
  t.deepEqual(used, [7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  t.is(c.reads, 1);
  t.is(most, 1);
});

test('after a failed broadcast the next nonce is read from the chain again, so no gap is left', async (t) => {
  const { c, read } = chain(3);
  const nonces = createNonceManager(read);
  t.is(await nonces.broadcast(async (n) => n), 3);
  c.pending = 4;
  await t.throwsAsync(
    nonces.broadcast(async () => {
      throw new Error('connection reset');
    }),
    { message: 'connection reset' },
  );
  t.is(await nonces.broadcast(async (n) => n), 4, 'the refused nonce is used by the next broadcast');
  t.is(c.reads, 2);
});

test('a nonce error is retried with a fresh read, at most `attempts` times in all', async (t) => {
  const { c, read } = chain(10);
  const nonces = createNonceManager(read, 3);
  t.is(await nonces.broadcast(async (n) => n), 10);
  c.pending = 13; // another process used 11 and 12
  const tried: number[] = [];
  t.is(
    await nonces.broadcast(async (n) => {
      tried.push(n);
      if (n < 13) throw new Error('Nonce too low. Expected nonce to be 13 but got 11.');
      return n;
    }),
    13,
  );
  t.deepEqual(tried, [11, 13]);
  const stubborn: number[] = [];
  await t.throwsAsync(
    nonces.broadcast(async (n) => {
      stubborn.push(n);
      throw new Error('replacement transaction underpriced');
    }),
  );
  t.is(stubborn.length, 3);
});

test('only nonce refusals count as nonce errors', (t) => {
  t.true(isNonceError(new Error('nonce too high')));
  t.true(isNonceError(new Error('Replacement transaction underpriced')));
  t.false(isNonceError(new Error('insufficient funds for gas * price + value')));
  t.false(isNonceError('nonce too low'));
});
