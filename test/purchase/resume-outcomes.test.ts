import test from 'ava';
import { openText } from '@rights-preflight/wire/crypto/aes-gcm.js';
import { createSigner } from '@rights-preflight/wire/evidence/envelope.js';
import { evidenceKeyFromSeed } from '../../src/evidence/keys.js';
import { createLogger } from '../../src/runtime/log.js';
import { InFlight } from '../../src/money-path/inflight.js';
import { loadPurchase } from '../../src/money-path/purchase-stream.js';
import { redeem } from '../../src/money-path/redeem.js';
import { resumePurchase, type ResumeDeps } from '../../src/money-path/resume.js';
import type { Broadcast, SettleOutcome, TransferFound } from '../../src/payment/settlement/port.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { toNewEvents } from '../../src/command/new-events.js';
import { fold } from '../../streams/purchase/evolve.js';
import { streamName, type PurchaseEvent } from '../../streams/purchase/index.js';
import { memoryEventStore } from '../support/memory/memory-event-store.js';
import { scriptedSettlement, type SettlementScript } from '../support/scripted-settlement.js';
import {
  ASSET,
  broadcastData,
  history,
  NETWORK,
  NOW,
  PAY_TO,
  PAYER,
  PRICE,
  PURCHASE_ID,
  RELAYER,
  SKU,
  TX,
  TX2,
} from '../streams/purchase/fixtures.js';

// The middle layer: resume and redeem on an in-memory store (held to the store conformance suite) with
// a scripted settlement backend, one test per settlement outcome. Fast, and no chain needed; the same
// paths run end to end on the devnet in test/money/.

const CHECKPOINT_KEY = new Uint8Array(32).fill(3); // the key the fixtures sealed the authorization with

async function world(events: PurchaseEvent[], script: SettlementScript) {
  const store = memoryEventStore();
  await store.append(streamName(PURCHASE_ID), toNewEvents(events), 'no_stream');
  const settlement = scriptedSettlement(script);
  const key = evidenceKeyFromSeed(new Uint8Array(32).fill(7));
  const deps: ResumeDeps = {
    store,
    log: createLogger('silent'),
    now: () => new Date(NOW.getTime() + 10_000),
    baseUrl: 'https://rights.example',
    coveredOrigins: ['https://publisher.example'],
    quoteTtlSeconds: 900,
    terms: {
      network: NETWORK,
      asset: ASSET,
      payTo: PAY_TO,
      eip712: { name: 'USD Coin', version: '2' },
      maxTimeoutSeconds: 300,
      settlementWindowSeconds: 68,
    },
    claimSecret: new Uint8Array(32),
    sign: createSigner(key),
    evidenceKeyId: key.keyId,
    seal: async () => {
      throw new Error('nothing is sealed here');
    },
    unseal: async (sealed) =>
      openText(
        CHECKPOINT_KEY,
        sealed as Parameters<typeof openText>[1],
        `service-payment-checkpoint-v1:${PURCHASE_ID}`,
      ),
    inflight: new InFlight<unknown>(),
    products: {
      [SKU]: {
        sku: SKU,
        draft: (q) => ({
          report: () => ({ sku: SKU, purchase_id: q.purchase_id }) as never,
          evidence: { type: 'evidence', purchase_id: q.purchase_id },
          checkpoints: [],
        }),
      },
    },
    settlement,
  };
  return { deps, settlement, types: async () => (await store.readStream(streamName(PURCHASE_ID))).map((e) => e.type) };
}

const transfer = (over: Partial<TransferFound> = {}): TransferFound => ({
  transaction: TX,
  from: PAYER,
  to: PAY_TO,
  value: BigInt(PRICE),
  block: 101n,
  asset: ASSET,
  network: NETWORK,
  ...over,
});
const success: SettleOutcome = { kind: 'success', transaction: TX, payer: PAYER, amount: PRICE };

test(
  'success: the same sealed authorization is submitted once, ' + 'the transfer recorded, the report delivered',
  async (t) => {
    const w = await world(history.checkpointed(), { used: [false], settle: success, transfer: transfer() });
    const state = await resumePurchase(w.deps, PURCHASE_ID);
    t.is(state.status, 'delivered');
    t.deepEqual(await w.types(), ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'Settled', 'Delivered']);
    t.is(w.settlement.calls.filter((c) => c === 'settle').length, 1);
    t.is(state.settled?.pay_to, PAY_TO, 'the recipient the chain showed is recorded');
  },
);

/** Records the event types of every append the walk makes. */
function countAppends(deps: ResumeDeps): string[][] {
  const appends: string[][] = [];
  const inner = deps.store;
  deps.store = {
    ...inner,
    append: (stream, events, expected) => {
      appends.push(events.map((e) => e.type));
      return inner.append(stream, events, expected);
    },
  };
  return appends;
}

test('the transfer and the delivery it leads to are one append', async (t) => {
  const w = await world(history.checkpointed(), { used: [false], settle: success, transfer: transfer() });
  const appends = countAppends(w.deps);
  t.is((await resumePurchase(w.deps, PURCHASE_ID)).status, 'delivered');
  t.deepEqual(appends, [['Settled', 'Delivered']]);
});

test('a delivery that cannot be built leaves the transfer recorded alone, and the walk delivers next', async (t) => {
  const w = await world(history.checkpointed(), { used: [false], settle: success, transfer: transfer() });
  const product = w.deps.products[SKU]!;
  let failures = 1;
  w.deps.products = {
    [SKU]: {
      ...product,
      draft: (...args: Parameters<typeof product.draft>) => {
        if (failures-- > 0) throw new Error('the draft failed once');
        return product.draft(...args);
      },
    },
  };
  const appends = countAppends(w.deps);
  t.is((await resumePurchase(w.deps, PURCHASE_ID)).status, 'delivered');
  t.deepEqual(appends, [['Settled'], ['Delivered']]);
});

test('ambiguous: recorded as a submission and decided later, nothing else', async (t) => {
  const w = await world(history.checkpointed(), {
    used: [false],
    settle: { kind: 'ambiguous', reason: 'receipt_timeout', transaction: TX },
  });
  const state = await resumePurchase(w.deps, PURCHASE_ID);
  t.is(state.status, 'settlement_submitted');
  t.is(state.submissions, 1);
  t.deepEqual((await w.types()).slice(3), ['SettlementSubmitted']);
});

test(
  'reverted (a definite refusal, the authorization still unused): ' + 'held for an operator, never retried',
  async (t) => {
    const w = await world(history.checkpointed(), {
      used: [false, false],
      settle: { kind: 'failed', reason: 'reverted' },
    });
    const state = await resumePurchase(w.deps, PURCHASE_ID);
    t.is(state.status, 'held');
    t.is(state.held?.reason, 'SETTLEMENT_FAILED');
    const refused = await t.throwsAsync(
      redeem(w.deps, {
        purchaseId: PURCHASE_ID,
        binding: { key: 'k', source: 'x-service-claim' },
        paymentSignature: undefined,
      }),
    );
    t.true(refused instanceof Refusal);
    t.is((refused as Refusal).code, 'SETTLEMENT_FAILED');
  },
);

test(
  'transfer found on recovery: ' + 'the used authorization is recorded from the chain without submitting anything',
  async (t) => {
    const w = await world(history.submitted(), { used: [true], transfer: transfer() });
    const state = await resumePurchase(w.deps, PURCHASE_ID);
    t.is(state.status, 'delivered');
    t.false(w.settlement.calls.includes('settle'));
  },
);

test(
  'a transfer that differs from the offer (recipient, asset, network) is Held by decide, ' + 'with what differed',
  async (t) => {
    const other = `0x${'ee'.repeat(20)}` as const;
    const w = await world(history.submitted(), {
      used: [true],
      transfer: transfer({ to: other, asset: other, network: 'eip155:84532' }),
    });
    const state = await resumePurchase(w.deps, PURCHASE_ID);
    t.is(state.status, 'held');
    t.is(state.held?.reason, 'SETTLEMENT_MISMATCH');
    t.deepEqual(Object.keys((state.held?.details as { mismatches: object }).mismatches).sort(), [
      'asset',
      'network',
      'recipient',
    ]);
    t.is((await loadPurchase(w.deps.store, PURCHASE_ID)).status, 'held');
  },
);

test('a delivered purchase answers its stored delivery without touching the chain', async (t) => {
  const w = await world(history.delivered(), { used: [true] });
  const r = await redeem(w.deps, {
    purchaseId: PURCHASE_ID,
    binding: { key: 'k', source: 'x-service-claim' },
    paymentSignature: undefined,
  });
  t.is(r.kind, 'delivered');
  t.deepEqual(w.settlement.calls, []);
});

test(
  'a PAYMENT-SIGNATURE that is not plain JSON is refused before ' +
    'anything is hashed (deep nesting, lone surrogate, 1e400)',
  async (t) => {
    const w = await world(history.offered(), { used: [false] });
    const header = (json: string) => Buffer.from(json, 'utf8').toString('base64');
    for (const json of ['['.repeat(40) + ']'.repeat(40), '{"x402Version":2,"a":"\\ud800"}', '{"x402Version":1e400}']) {
      const err = await t.throwsAsync(
        redeem(w.deps, {
          purchaseId: PURCHASE_ID,
          binding: { key: 'k', source: 'x-service-claim' },
          paymentSignature: header(json),
        }),
      );
      t.is((err as Refusal).code, 'PAYMENT_SIGNATURE_MALFORMED', json.slice(0, 20));
    }
    t.deepEqual(await w.types(), ['Quoted', 'Offered']);
  },
);

test(
  'a request that read the purchase as offered joins a ' + 'payment another request recorded meanwhile (no refusal)',
  async (t) => {
    const stale = fold(history.offered());
    const delivered = await world(history.delivered(), { used: [true] });
    const r = await redeem(
      delivered.deps,
      { purchaseId: PURCHASE_ID, binding: { key: 'k', source: 'x-service-claim' }, paymentSignature: undefined },
      stale,
    );
    t.is(r.kind, 'delivered', 'the delivery made meanwhile is the answer');

    const paying = await world(history.checkpointed(), { used: [false] });
    const err = await t.throwsAsync(
      redeem(
        paying.deps,
        { purchaseId: PURCHASE_ID, binding: { key: 'k', source: 'x-service-claim' }, paymentSignature: undefined },
        stale,
      ),
    );
    t.is((err as Refusal).code, 'PURCHASE_IN_PROGRESS', 'retry the same request, never PURCHASE_ALREADY_PAYING');
    t.deepEqual(await paying.types(), ['Quoted', 'Offered', 'AuthorizationCheckpointed'], 'nothing appended');
  },
);

// ── Write-ahead submission record (docs/decisions.md, "Write-ahead submission record") ─────────────

const signed = (transaction: `0x${string}` = TX): Broadcast => ({
  transaction,
  relayer: RELAYER,
  accountNonce: 7,
  gas: 86_000n,
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
});

test('the signed transaction is on the stream before settle answers; its receipt gives the transfer', async (t) => {
  const w = await world(history.checkpointed(), {
    used: [false],
    settle: success,
    broadcast: signed(),
    outcomes: { [TX]: { state: 'mined', transfer: transfer() } },
  });
  const state = await resumePurchase(w.deps, PURCHASE_ID);
  t.is(state.status, 'delivered');
  t.deepEqual((await w.types()).slice(3), ['SettlementBroadcast', 'Settled', 'Delivered']);
  const events = await w.deps.store.readStream(streamName(PURCHASE_ID));
  const { at: _at, ...broadcast } = broadcastData(); // the fixture's broadcast: what the script broadcast
  t.like(events[3]!.data as object, broadcast);
  t.false(w.settlement.calls.includes('findTransfer'), 'no log search: the recorded hash answered');
});

test('after a crash past the broadcast, a pending recorded transaction is waited for, never sent again', async (t) => {
  const w = await world(history.broadcast(), {
    used: [false, true],
    settle: success,
    outcomes: { [TX]: { state: 'mined', transfer: transfer() } },
  });
  const state = await resumePurchase(w.deps, PURCHASE_ID);
  t.is(state.status, 'delivered');
  t.is(state.settled?.transaction, TX);
  t.false(w.settlement.calls.includes('settle'));
  t.false(w.settlement.calls.includes('findTransfer'));
  t.true(w.settlement.calls.includes(`transactionOutcome:${TX}`));
});

test('the authorization used and a transaction on record: its receipt is the settlement, no log search', async (t) => {
  const w = await world(history.broadcast(), {
    used: [true],
    outcomes: { [TX]: { state: 'mined', transfer: transfer() } },
  });
  const state = await resumePurchase(w.deps, PURCHASE_ID);
  t.is(state.status, 'delivered');
  t.deepEqual(
    w.settlement.calls.filter((c) => c === 'settle' || c === 'findTransfer'),
    [],
  );
});

test('a recorded transaction still pending after the wait: recorded as a submission, nothing sent', async (t) => {
  const w = await world(history.broadcast(), {
    used: [false],
    settle: success,
    outcomes: { [TX]: { state: 'pending' } },
  });
  const state = await resumePurchase(w.deps, PURCHASE_ID);
  t.is(state.status, 'settlement_submitted');
  t.is(state.last_submission?.reason, 'broadcast_pending');
  t.is(state.last_submission?.transaction, TX);
  t.false(w.settlement.calls.includes('settle'));
});

test('a recorded transaction the node never kept: the authorization is sent again, written ahead too', async (t) => {
  const w = await world(history.broadcast(), {
    used: [false],
    settle: { ...success, transaction: TX2 },
    broadcast: signed(TX2),
    outcomes: { [TX2]: { state: 'mined', transfer: transfer({ transaction: TX2 }) } },
  });
  const state = await resumePurchase(w.deps, PURCHASE_ID);
  t.is(state.status, 'delivered');
  t.deepEqual(
    state.broadcasts.map((b) => b.transaction),
    [TX, TX2],
  );
  t.is(state.settled?.transaction, TX2);
});

test('a write-ahead record that cannot be appended stops the broadcast: nothing sent, nothing held', async (t) => {
  const w = await world(history.checkpointed(), {
    used: [false],
    settle: success,
    broadcast: signed(),
    outcomes: { [TX]: { state: 'mined', transfer: transfer() } },
  });
  // Another process moves the stream between this pass's read and its write-ahead append.
  const settle = w.settlement.settle;
  let raced = false;
  w.settlement.settle = async (payload, requirements, options) =>
    settle(payload, requirements, {
      async beforeBroadcast(b) {
        if (!raced) {
          raced = true;
          await w.deps.store.append(
            streamName(PURCHASE_ID),
            toNewEvents([
              { type: 'SettlementSubmitted', data: { transaction: null, reason: 'elsewhere', at: NOW.toISOString() } },
            ]),
            2n,
          );
        }
        return options?.beforeBroadcast?.(b);
      },
    });
  const state = await resumePurchase(w.deps, PURCHASE_ID);
  t.is(state.status, 'delivered', 'a refused write-ahead is not a failed settlement: the next look settles');
  t.deepEqual((await w.types()).slice(3), ['SettlementSubmitted', 'SettlementBroadcast', 'Settled', 'Delivered']);
  t.is(w.settlement.calls.filter((c) => c === 'settle').length, 2, 'the first settle sent nothing');
});

// ── One walk (docs/decisions.md, "One walk for a paid redemption") ─────────────────────────────────

/** Counts the stream reads a call makes (the store's readStream; readFirstField is not a stream read). */
function countReads(deps: ResumeDeps): { reads: () => number } {
  let n = 0;
  const readStream = deps.store.readStream.bind(deps.store);
  deps.store.readStream = (stream) => {
    n++;
    return readStream(stream);
  };
  return { reads: () => n };
}

test('a walk from the state its caller read settles and delivers without reading the stream again', async (t) => {
  const w = await world(history.checkpointed(), {
    used: [false],
    settle: success,
    broadcast: signed(),
    outcomes: { [TX]: { state: 'mined', transfer: transfer() } },
    transfer: transfer(),
  });
  const known = await loadPurchase(w.deps.store, PURCHASE_ID);
  const counted = countReads(w.deps);
  const state = await resumePurchase(w.deps, PURCHASE_ID, known);
  t.is(state.status, 'delivered');
  t.deepEqual((await w.types()).slice(3), ['SettlementBroadcast', 'Settled', 'Delivered'], 'three appends');
  t.is(counted.reads() - 1, 0, 'no read between the appends (the one counted is the assertion above)');
});

test('a walk whose stream another writer moved reads it again and goes on from there', async (t) => {
  const w = await world(history.checkpointed(), { used: [true], transfer: transfer() });
  const known = await loadPurchase(w.deps.store, PURCHASE_ID);
  // Another process recorded the settlement after this request read the stream.
  await w.deps.store.append(
    streamName(PURCHASE_ID),
    toNewEvents(history.settled().slice(3, 4)),
    BigInt(known.version - 1),
  );
  const counted = countReads(w.deps);
  const state = await resumePurchase(w.deps, PURCHASE_ID, known);
  t.is(state.status, 'delivered', 'the conflict was met by reading the stream, then delivering');
  t.deepEqual((await w.types()).slice(3), ['Settled', 'Delivered'], 'the settlement recorded once');
  t.is(counted.reads() - 1, 1, 'one read: after the conflict');
});
