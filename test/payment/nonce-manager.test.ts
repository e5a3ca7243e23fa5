import test from 'ava';
import { createNonceManager, isNonceError, type BroadcastSteps } from '../../src/payment/settlement/nonce-manager.js';

// The relayer account's nonces (src/payment/settlement/nonce-manager.ts): read from the chain at first
// and after any failed broadcast, assigned locally in between; the settlements waiting together prepare
// together, and sends run one at a time in nonce order, stopping at the first failure.

const chain = (start: number) => {
  const c = { pending: start, reads: 0 };
  const read = async () => {
    c.reads++;
    return c.pending;
  };
  return { c, read };
};
const tick = () => new Promise((r) => setImmediate(r));

/** Steps whose send answers the nonce; `log` records every step in order. */
const steps = (log: string[], send?: (nonce: number) => Promise<number>): BroadcastSteps<number, number> => ({
  prepare: async (nonce) => {
    log.push(`prepare ${nonce}`);
    await tick();
    return nonce;
  },
  send: async (_prepared, nonce) => {
    log.push(`send ${nonce}`);
    await tick();
    return send ? send(nonce) : nonce;
  },
});
const sendOnly = (send: (nonce: number) => Promise<number>): BroadcastSteps<number, number> => ({
  prepare: async (nonce) => nonce,
  send: (_p, nonce) => send(nonce),
});

test('consecutive nonces from one chain read; sends never overlap and go in nonce order', async (t) => {
  const { c, read } = chain(7);
  const nonces = createNonceManager(read);
  let inFlight = 0;
  let most = 0;
  const sent: number[] = [];
  const used = await Promise.all(
    Array.from({ length: 10 }, () =>
      nonces.broadcast(
        sendOnly(async (nonce) => {
          most = Math.max(most, ++inFlight);
          await tick();
          sent.push(nonce);
          inFlight--;
          return nonce;
        }),
      ),
    ),
  );
  t.deepEqual(used, [7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  t.deepEqual(sent, used);
  t.is(c.reads, 1);
  t.is(most, 1);
});

test('the settlements waiting behind a batch prepare together, before any of them is sent', async (t) => {
  const { read } = chain(0);
  const nonces = createNonceManager(read);
  const log: string[] = [];
  const all = Array.from({ length: 4 }, () => nonces.broadcast(steps(log)));
  t.deepEqual(await Promise.all(all), [0, 1, 2, 3]);
  // The first arrives alone; the three that waited meanwhile are one batch: three prepares, then the sends.
  t.deepEqual(log, ['prepare 0', 'send 0', 'prepare 1', 'prepare 2', 'prepare 3', 'send 1', 'send 2', 'send 3']);
});

test('after a failed send the next nonce is read from the chain again, and nothing later is sent', async (t) => {
  const { c, read } = chain(3);
  const nonces = createNonceManager(read);
  t.is(await nonces.broadcast(sendOnly(async (n) => n)), 3);
  c.pending = 4;
  await t.throwsAsync(
    nonces.broadcast(
      sendOnly(async () => {
        throw new Error('connection reset');
      }),
    ),
    { message: 'connection reset' },
  );
  t.is(await nonces.broadcast(sendOnly(async (n) => n)), 4, 'the refused nonce is used by the next broadcast');
  t.is(c.reads, 2);
});

test('a failure inside a batch: the failed one rejects, the later ones prepare again at fresh nonces', async (t) => {
  const { c, read } = chain(20);
  const nonces = createNonceManager(read);
  const log: string[] = [];
  const first = nonces.broadcast(steps(log)); // alone: nonce 20
  let failOnce = true;
  const batch = [
    nonces.broadcast(steps(log)),
    nonces.broadcast(
      steps(log, async (n) => {
        if (failOnce) {
          failOnce = false;
          c.pending = n; // the node never took it
          throw new Error('insufficient funds for gas');
        }
        return n;
      }),
    ),
    nonces.broadcast(steps(log)),
  ];
  t.is(await first, 20);
  const [a, b, d] = await Promise.allSettled(batch);
  t.deepEqual(a, { status: 'fulfilled', value: 21 });
  t.is(b!.status, 'rejected');
  t.deepEqual(d, { status: 'fulfilled', value: 22 }, 'the one after the failure took the failed nonce, unsent before');
  t.deepEqual(log, [
    'prepare 20',
    'send 20',
    'prepare 21',
    'prepare 22',
    'prepare 23',
    'send 21',
    'send 22',
    'prepare 22',
    'send 22',
  ]);
  t.is(c.reads, 2);
});

test('a failed prepare (the write-ahead append) sends nothing from there on and rejects only its own', async (t) => {
  const { c, read } = chain(5);
  const nonces = createNonceManager(read);
  const log: string[] = [];
  const first = nonces.broadcast(steps(log));
  const failing: BroadcastSteps<number, number> = {
    prepare: async (n) => {
      log.push(`prepare ${n}`);
      throw new Error('store unavailable');
    },
    send: async () => {
      throw new Error('never sent');
    },
  };
  const batch = [nonces.broadcast(failing), nonces.broadcast(steps(log))];
  t.is(await first, 5);
  const [x, y] = await Promise.allSettled(batch);
  t.is(x!.status, 'rejected');
  t.deepEqual(y, { status: 'fulfilled', value: 6 });
  t.deepEqual(log, ['prepare 5', 'send 5', 'prepare 6', 'prepare 7', 'prepare 6', 'send 6']);
  t.is(c.reads, 1, 'nothing was sent at the failed nonce: it is the next without asking the chain');
});

test('a nonce error is retried with a fresh read, at most `attempts` times in all', async (t) => {
  const { c, read } = chain(10);
  const nonces = createNonceManager(read, 3);
  t.is(await nonces.broadcast(sendOnly(async (n) => n)), 10);
  c.pending = 13; // another process used 11 and 12
  const tried: number[] = [];
  t.is(
    await nonces.broadcast(
      sendOnly(async (n) => {
        tried.push(n);
        if (n < 13) throw new Error('Nonce too low. Expected nonce to be 13 but got 11.');
        return n;
      }),
    ),
    13,
  );
  t.deepEqual(tried, [11, 13]);
  const stubborn: number[] = [];
  await t.throwsAsync(
    nonces.broadcast(
      sendOnly(async (n) => {
        stubborn.push(n);
        throw new Error('replacement transaction underpriced');
      }),
    ),
  );
  t.is(stubborn.length, 3);
});

test('a chain read that fails rejects the batch it was for; the next broadcast reads again', async (t) => {
  let fail = true;
  const nonces = createNonceManager(async () => {
    if (fail) throw new Error('rpc down');
    return 9;
  });
  await t.throwsAsync(nonces.broadcast(sendOnly(async (n) => n)), { message: 'rpc down' });
  fail = false;
  t.is(await nonces.broadcast(sendOnly(async (n) => n)), 9);
});

test('only nonce refusals count as nonce errors', (t) => {
  t.true(isNonceError(new Error('nonce too high')));
  t.true(isNonceError(new Error('Replacement transaction underpriced')));
  t.false(isNonceError(new Error('insufficient funds for gas * price + value')));
  t.false(isNonceError('nonce too low'));
});
