import test from 'ava';
import { privateKeyToAccount } from 'viem/accounts';
import { paymentIntentHeader, signInWithX, signInWithXHeader } from '@rights-preflight/buyer';
import { verifySiwxHeader } from '../../src/products/ingestion-gate/siwx.js';
import { checkPaymentIntent } from '../../src/products/ingestion-gate/intent.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';

// The buyer's gate headers (its sign-in proof and payment intent) run through the service's checks: if the
// two ever disagree, every gate request is refused. The buyer's EIP-4361 text against the x402 extension's
// formatter, which the service verifies with, is held in packages/buyer/test/siwe-message.test.ts.

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const binding = {
  gateUrl: 'https://rights.example/v1/rights/ingestion-gate',
  key: 'k'.repeat(43),
  inputSha256: 'c'.repeat(64),
  network: 'eip155:8453',
};

test("the buyer's sign-in proof passes the service's profile check and names its signer", async (t) => {
  const header = await signInWithXHeader(account, binding);
  const checked = await verifySiwxHeader(header, binding, new Date());
  t.deepEqual(checked, { ok: true, signer: account.address });
});

test('the proof is for one request only: another key, input or gate URL is refused', async (t) => {
  const header = await signInWithXHeader(account, binding);
  for (const [other, reason] of [
    [{ ...binding, key: 'x'.repeat(43) }, 'nonce_mismatch'],
    [{ ...binding, inputSha256: 'd'.repeat(64) }, 'nonce_mismatch'],
    [{ ...binding, gateUrl: 'https://other.example/v1/rights/ingestion-gate' }, 'domain_mismatch'],
    [{ ...binding, network: 'eip155:84532' }, 'chain_mismatch'],
  ] as const) {
    const checked = await verifySiwxHeader(header, other, new Date());
    t.deepEqual(checked.ok ? 'accepted' : (checked as { reason: string }).reason, reason);
  }
});

test('a proof signed by another wallet than the address it names does not verify', async (t) => {
  const proof = await signInWithX(account, binding);
  const forged = { ...proof, address: privateKeyToAccount(`0x${'11'.repeat(32)}`).address };
  const header = Buffer.from(JSON.stringify(forged)).toString('base64');
  const checked = await verifySiwxHeader(header, binding, new Date());
  t.false(checked.ok);
  t.is((checked as { reason: string }).reason, 'signature');
});

test(
  "the payment intent header decodes to its payer under the service's rules, " + 'and a changed field is refused',
  (t) => {
    const intent = {
      payer: account.address,
      resource: binding.gateUrl,
      input_sha256: binding.inputSha256,
      network: 'eip155:8453',
    };
    const expectation = { gateUrl: binding.gateUrl, inputSha256: binding.inputSha256, network: 'eip155:8453' };
    t.deepEqual(checkPaymentIntent(paymentIntentHeader(intent), expectation), { payer: account.address });
    const err = t.throws(
      () => checkPaymentIntent(paymentIntentHeader({ ...intent, input_sha256: 'e'.repeat(64) }), expectation),
      { instanceOf: Refusal },
    );
    t.is(err?.code, 'PAYMENT_INTENT_MISMATCH');
  },
);
