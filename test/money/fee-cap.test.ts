import test from 'ava';
import { createPublicClient, http, type Hex } from 'viem';
import { queueItems } from '../../projections/queries/purchases.js';
import { auditCli } from '../support/audit-cli.js';
import { devnetRpc } from '../support/devnet-rpc.js';
import { signPayment } from '../support/pay.js';
import { DECLARED, getReport, postQuote } from '../support/money-env.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { useWorld } from '../support/world.js';

// At the fee cap (docs/decisions.md, "Fee cap, filler transaction and confirmation levels"), on a devnet
// that mines every 2 s: the block after the purchase's broadcast has a base fee far above
// SETTLEMENT_MAX_FEE_GWEI, so the transaction waits, and the first bump would pass the cap. The relayer
// gives up on it and fills its account nonce with a 0-value self-transfer priced for the chain; the
// purchase is LockStuck on the investigation queue with its hashes, the buyer is not charged, and a
// later purchase through the same relayer settles right after the filler.

const BLOCK_MS = 2000;
const GWEI = 1_000_000_000n;
const CAP_GWEI = 5n;
const claims: string[] = [];
const paymentHeaders: string[] = [];
const w = useWorld({
  devnet: { blockMs: BLOCK_MS },
  service: {
    env: {
      CHAIN_BLOCK_MS: String(BLOCK_MS),
      SETTLEMENT_BUMP_BLOCKS: '1',
      SETTLEMENT_MAX_FEE_GWEI: String(CAP_GWEI),
    },
  },
});

const paidOffer = async (buyer: (typeof w.devnet.buyers)[number]) => {
  const q = (
    await postQuote(w.url, { resource: DECLARED, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' })
  ).body;
  const offer = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token });
  const header = await signPayment(buyer.privateKey, offer.headers.get('payment-required')!);
  claims.push(q.claim_token);
  paymentHeaders.push(header);
  return { q, header };
};

test.serial(
  'at the fee cap: LockStuck with its hashes, the nonce filled, no transfer; later ones settle',
  async (t) => {
    const pub = createPublicClient({ transport: http(w.devnet.rpcUrl) });
    const relayer = w.devnet.relayer.address;
    const [buyer, later] = [w.devnet.buyers[0]!, w.devnet.buyers[1]!];
    const before = await w.devnet.balanceOf(buyer.address);
    const stuck = await paidOffer(buyer);
    const nonce = await pub.getTransactionCount({ address: relayer, blockTag: 'pending' });

    // No block until the purchase's transaction is at the node, priced for today's base fee; the next block's
    // base fee is then 4× the cap, so it is not mined, and any bump would pass the cap.
    await devnetRpc(w.devnet.rpcUrl, 'evm_setIntervalMining', [0]);
    await devnetRpc(w.devnet.rpcUrl, 'hardhat_setNextBlockBaseFeePerGas', [`0x${(CAP_GWEI * 4n * GWEI).toString(16)}`]);
    const answer = getReport(w.url, stuck.q.report_url, {
      'x-service-claim': stuck.q.claim_token,
      'payment-signature': stuck.header,
    });
    // Sent when the node knows the hash written ahead (a transaction the next block cannot take is not in the
    // node's pending count).
    const stream = `purchase-${stuck.q.purchase_id}`;
    for (;;) {
      const ahead = (await w.service!.store.readStream(stream)).find((e) => e.type === 'SettlementBroadcast');
      const hash = (ahead?.data as { transaction?: Hex } | undefined)?.transaction;
      if (hash && (await pub.getTransaction({ hash }).catch(() => undefined))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await devnetRpc(w.devnet.rpcUrl, 'evm_setIntervalMining', [BLOCK_MS]);
    const answered = await answer;
    t.is(answered.status, 409, answered.text);
    t.is(answered.body.error.code, 'PURCHASE_HELD');

    // The ledger: every transaction written ahead (the first, and a bump if one was sent before the base
    // fee jumped: on a loaded machine the bump may come before that block), all under the cap and at one
    // account nonce, then LockStuck naming all of them, the relayer and the nonce.
    const events = await w.service!.store.readStream(stream);
    const types = events.map((e) => e.type);
    t.deepEqual(types.slice(0, 4), ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'SettlementBroadcast']);
    t.is(types.at(-1), 'LockStuck');
    const written = events
      .filter((e) => e.type === 'SettlementBroadcast')
      .map((e) => e.data as { transaction: Hex; account_nonce: string; max_fee_per_gas: string });
    t.is(written.length, types.length - 4, 'only write-ahead records between the checkpoint and the lock');
    for (const b of written) {
      t.is(b.account_nonce, String(nonce));
      t.true(BigInt(b.max_fee_per_gas) <= CAP_GWEI * GWEI, 'no transaction for the purchase past the cap');
    }
    const hashes = written.map((b) => b.transaction);
    const lock = events.at(-1)!.data as { reason: string; details: Record<string, unknown>; tried: string[] };
    t.is(lock.reason, 'SETTLEMENT_FEE_CAP');
    t.deepEqual(lock.details.transactions, hashes);
    t.is(lock.details.relayer, relayer);
    t.is(lock.details.account_nonce, String(nonce));
    const filler = lock.details.filler as Hex;
    t.regex(filler, /^0x[0-9a-f]{64}$/);
    t.deepEqual(lock.tried, ['submit_settlement', 'bump_fees', 'fill_account_nonce']);

    // The queue shows it with its hashes.
    await w.service!.readModels.waitFor(events.at(-1)!.position);
    const item = (await queueItems(w.service!.readModels.db)).find((i) => i.purchase_id === stuck.q.purchase_id);
    t.is(item?.kind, 'lock_stuck');
    t.is(item?.reason, 'SETTLEMENT_FEE_CAP');
    t.deepEqual(item?.details.transactions, hashes);

    // A later purchase through the same relayer settles: its nonce follows the filler's.
    const next = await paidOffer(later);
    const delivered = await getReport(w.url, next.q.report_url, {
      'x-service-claim': next.q.claim_token,
      'payment-signature': next.header,
    });
    t.is(delivered.status, 200, delivered.text);
    const [transfer] = await w.devnet.transfers(later.address, w.devnet.payTo);
    t.is(delivered.body.payment_settlement.transaction, transfer!.transaction);
    const nextTx = await pub.getTransaction({ hash: transfer!.transaction });
    t.is(nextTx.from.toLowerCase(), relayer.toLowerCase());
    t.is(nextTx.nonce, nonce + 1, 'the next account nonce, not left waiting');

    // The chain: the filler took the stuck nonce (relayer to itself, nothing moved), the stuck transfer was
    // never mined, and the buyer paid nothing.
    const fill = await pub.getTransaction({ hash: filler });
    t.is(fill.nonce, nonce);
    t.is(fill.to?.toLowerCase(), relayer.toLowerCase());
    t.is(fill.value, 0n);
    t.is((await pub.getTransactionReceipt({ hash: filler })).status, 'success');
    for (const hash of hashes) await t.throwsAsync(pub.getTransactionReceipt({ hash }), undefined, 'never mined');
    t.is((await w.devnet.transfers(buyer.address, w.devnet.payTo)).length, 0, 'no transfer for the stuck purchase');
    t.is(await w.devnet.balanceOf(buyer.address), before);
    t.is((await pub.getTransactionCount({ address: relayer, blockTag: 'pending' })) - nonce, 2);

    await w.service!.stop();
    const audit = await auditCli(w.env);
    t.is(audit.code, 0, audit.text);
    t.regex(audit.text, /audited 2 purchase stream\(s\) .*: no violations/);
  },
);

test.serial('the suite logged no claim, payment signature or authorization', (t) => {
  assertNoSecretsLogged(t, w.logs(), { claims, paymentHeaders });
});
