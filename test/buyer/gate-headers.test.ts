import test from 'ava';
import fc from 'fast-check';
import { privateKeyToAccount } from 'viem/accounts';
import { formatSIWEMessage } from '@x402/extensions/sign-in-with-x';
import { siweMessage } from '../../packages/buyer/src/siwe-message.js';
import { paymentIntentHeader, signInWithX, signInWithXHeader } from '../../packages/buyer/src/gate-headers.js';
import { verifySiwxHeader } from '../../src/products/ingestion-gate/siwx.js';
import { siwxChallenge } from '@rights-preflight/wire/ingestion-gate/siwx-challenge.js';
import { checkPaymentIntent } from '../../src/products/ingestion-gate/intent.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';

// The buyer renders the EIP-4361 text itself (browser-safe, no viem); the service verifies with the x402
// extension's formatter. If the two ever render a challenge differently, every gate sign-in fails:
// these tests hold them to the same text and run the buyer's headers through the service's checks.

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
const host = fc.constantFrom('rights.example', '127.0.0.1:4567', 'api.rights-preflight.example:8443', 'localhost:3000');

test("the buyer's renderer and the x402 formatter give every gate challenge the same EIP-4361 text", (t) => {
  fc.assert(
    fc.property(
      host,
      fc.string({ minLength: 1, maxLength: 40 }),
      hex64,
      fc.constantFrom('eip155:8453', 'eip155:84532'),
      fc.date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }),
      (h, key, input, network, issued) => {
        const info = siwxChallenge(
          { gateUrl: `https://${h}/v1/rights/ingestion-gate`, key, inputSha256: input, network },
          issued.toISOString(),
        );
        const ours = siweMessage({
          domain: info.domain,
          address: account.address,
          statement: info.statement,
          uri: info.uri,
          version: '1',
          chainId: Number(network.split(':')[1]),
          nonce: info.nonce,
          issuedAt: issued,
          resources: info.resources,
        });
        t.is(ours, formatSIWEMessage(info, account.address));
      },
    ),
    { numRuns: 200 },
  );
});

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
