import test from 'ava';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { DEMO_RESOURCES } from '../../src/devnet/demo-site.js';
import { demoWorld, useWorld } from '../support/world.js';
import { buyerFor } from '../buyer/support/buyer-world.js';
import { gateInput } from '@rights-preflight/wire/ingestion-gate/gate-input.js';
import { GATE_PATH } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { authorizationTypes } from '@x402/evm';
import { DEFAULT_CHECK_CONCURRENCY, paymentIntentHeader, signInWithXHeader } from '@rights-preflight/buyer';
import { boundNonce } from '@rights-preflight/wire/payment/binding.js';
import { encodePaymentSignature } from '@rights-preflight/wire/payment/x402-headers.js';

// Paid work is not free work (docs/wire.md, "Rate limits"), with the default limits (gate: 30 a minute,
// burst 10, per client address; every client here is 127.0.0.1). A request whose payment verifies for
// exactly that request spends nothing of the address's bucket; a forged one spends it as an unpaid one does.

const w = useWorld(
  demoWorld({ env: { RATE_LIMIT_GATE_PER_MINUTE: '30', RATE_LIMIT_GATE_BURST: '10', LOG_LEVEL: 'warn' } }),
);

interface Caps {
  paid_requests: { rate_limits_skipped: string[]; concurrent_per_payer: number; max_timeout_seconds: number };
  payment: { eip712: { name: string; version: string } };
  rate_limits: Record<string, { requests_per_minute: number; burst: number }>;
}
const caps = async () => (await (await fetch(`${w.url}/v1/capabilities`)).json()) as Caps;
const upfront = async () => {
  const c = await caps();
  return { maxTimeoutSeconds: c.paid_requests.max_timeout_seconds, eip712: c.payment.eip712 };
};

/** Unpaid gate requests refused at once (no body): each spends one token of the address's gate bucket. */
async function spendGateBucket(): Promise<number[]> {
  const statuses: number[] = [];
  for (;;) {
    const res = await fetch(`${w.url}${GATE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    await res.arrayBuffer();
    statuses.push(res.status);
    if (res.status === 429) return statuses;
    if (statuses.length > 40) throw new Error('the gate bucket never ran out');
  }
}

test.serial('capabilities publish that paid gate and preflight requests skip the bucket, per payer', async (t) => {
  const c = await caps();
  t.deepEqual(c.paid_requests.rate_limits_skipped.sort(), ['gate', 'preflight', 'revalidate']);
  t.true(
    c.paid_requests.concurrent_per_payer > DEFAULT_CHECK_CONCURRENCY,
    'a bulk check at its default never meets it',
  );
  t.deepEqual(c.rate_limits.gate, { ...c.rate_limits.gate, requests_per_minute: 30, burst: 10 });
});

test.serial("a paid gate request still succeeds after its address's free bucket is spent", async (t) => {
  const b = buyerFor(w, { buyerIndex: 1, maxPerReportMicro: 300_000n });
  const spent = await spendGateBucket();
  t.is(spent.at(-1), 429, 'the free bucket is spent: an unpaid request is refused');
  const transfersBefore = (await w.devnet.transfers(b.address, w.devnet.payTo)).length;
  const r = await b.buyer.ingestionGateUpfront(
    { resources: [DEMO_RESOURCES.permitted, DEMO_RESOURCES.prohibited], purpose: 'rag-ingestion' },
    { terms: await upfront() },
  );
  if (r.status !== 'delivered') return t.fail(JSON.stringify(r));
  t.is(r.amount_micro, '80000');
  t.is((await w.devnet.transfers(b.address, w.devnet.payTo)).length, transfersBefore + 1);
  t.false(
    b.events.some((e) => e.step === 'ambiguous'),
    'never throttled, never resent',
  );
});

test.serial('a forged payment does not bypass the free bucket', async (t) => {
  // The bucket is spent (previous test) and stays spent for a minute at least.
  const buyerKey = w.devnet.buyers[2]!.privateKey;
  const buyer = privateKeyToAccount(buyerKey);
  const { maxTimeoutSeconds, eip712 } = await upfront();
  const q = gateInput({ resources: [DEMO_RESOURCES.permitted], purpose: 'ai-input' });
  const gateUrl = `${w.url}${GATE_PATH}`;
  const run = Date.now().toString(36);
  /** A fresh X-Service-Request value per name (32–128 of A-Z a-z 0-9 _ -). */
  const keyOf = (name: string) => `paid-not-free-${run}-${name}`.padEnd(40, '0');
  const chainId = Number(w.devnet.network.split(':')[1]);
  /** A PAYMENT-SIGNATURE for this question under `key`, signed by `signer` (from `from`, nonce bound to `nonceKey`). */
  const payment = async (o: { key: string; signer: typeof buyer; from: `0x${string}`; nonceKey?: string }) => {
    const requirements = {
      scheme: 'exact',
      network: w.devnet.network,
      asset: w.devnet.usdc,
      payTo: w.devnet.payTo,
      amount: q.price_micro.toString(),
      maxTimeoutSeconds,
      extra: eip712,
    };
    const nonce = boundNonce({ resource: gateUrl, key: keyOf(o.nonceKey ?? o.key), input_sha256: q.input_sha256 });
    const authorization = {
      from: o.from,
      to: w.devnet.payTo,
      value: q.price_micro.toString(),
      validAfter: '0',
      validBefore: String(Math.floor(Date.now() / 1000) + maxTimeoutSeconds),
      nonce,
    };
    const signature = await o.signer.signTypedData({
      domain: { ...eip712, chainId, verifyingContract: w.devnet.usdc },
      types: authorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: {
        ...authorization,
        value: q.price_micro,
        validAfter: 0n,
        validBefore: BigInt(authorization.validBefore),
      },
    });
    return encodePaymentSignature({ x402Version: 2, accepted: requirements, payload: { signature, authorization } });
  };
  /** The request with its headers made (the sign-in is signed now), sent when called. */
  const prepared = async (paymentSignature: string, short: string) => {
    const key = keyOf(short);
    // The gate's private headers as the buyer makes them: the retry key, the payment intent, the sign-in.
    const network = w.devnet.network;
    const headers = {
      'x-service-request': key,
      'x-service-payment-intent': paymentIntentHeader({
        payer: buyer.address,
        resource: gateUrl,
        input_sha256: q.input_sha256,
        network,
      }),
      'sign-in-with-x': await signInWithXHeader(buyer, { gateUrl, key, inputSha256: q.input_sha256, network }),
    };
    return async () => {
      const res = await fetch(gateUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers, 'payment-signature': paymentSignature },
        body: JSON.stringify({ ...q.body, max_total_micro: q.price_micro.toString() }),
      });
      const text = await res.text();
      return {
        status: res.status,
        code: res.status === 200 ? 'OK' : (JSON.parse(text) as { error: { code: string } }).error.code,
      };
    };
  };
  const stranger = privateKeyToAccount(generatePrivateKey());
  const forged = {
    'signed by another key than its from': await payment({ key: 'k1', signer: stranger, from: buyer.address }),
    'nonce bound to another request': await payment({ key: 'k2', signer: buyer, from: buyer.address, nonceKey: 'x' }),
    'signed by a key that holds nothing': await payment({ key: 'k3', signer: stranger, from: stranger.address }),
    'not a payment at all': 'bm90IGEgcGF5bWVudA==',
  };
  // Each is sent right after the bucket is spent (it refills a token every 2 s): refused as free work.
  for (const [i, [what, header]] of Object.entries(forged).entries()) {
    const request = await prepared(header, `k${i + 1}`);
    t.is((await spendGateBucket()).at(-1), 429);
    const t0 = Date.now();
    t.deepEqual(await request(), { status: 429, code: 'RATE_LIMITED' }, `${what} ${Date.now() - t0} ms`);
  }
  // The same kind of request, paid for real, is admitted although the bucket is spent.
  const paid = await prepared(await payment({ key: 'k5', signer: buyer, from: buyer.address }), 'k5');
  t.is((await spendGateBucket()).at(-1), 429);
  t.deepEqual(await paid(), { status: 200, code: 'OK' });
});
