import test from 'ava';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseSignature, serializeSignature, type Hex } from 'viem';
import { verifyAuthorization, type AuthorizationCheck } from '../../src/payment/verify-authorization.js';
import { AUTHORIZATION_REFUSALS, type AuthorizationRefusalCode } from '../../src/payment/authorization-refusals.js';
import { BASE_SEPOLIA_USDC } from '@rights-preflight/wire/payment/x402-constants.js';
import type { PaymentPayload } from '@rights-preflight/wire/payment/x402-wire.js';
import { MAX_TIMEOUT_SECONDS, PRICE, nonceFor, offer, pay, stockClientPayment } from './support/offer.js';

// Pure checks, no chain: every refusal code is produced by exactly the one wrong thing it names.

const buyerKey = generatePrivateKey();
const buyer = privateKeyToAccount(buyerKey).address;
const payTo = privateKeyToAccount(generatePrivateKey()).address;
const req = offer(payTo);
const NONCE = nonceFor('https://pub.example/articles/one', 'a'.repeat(64));
const now = () => Math.floor(Date.now() / 1000);
const seen = new Set<AuthorizationRefusalCode>();
/** The service's window on Base's 2 s blocks with the default fee bumps (src/payment/settlement-window.ts). */
const WINDOW = 68;

const check = (payload: unknown, o: { budget?: string; requirements?: typeof req; at?: Date } = {}) =>
  verifyAuthorization({
    payload,
    requirements: o.requirements ?? req,
    expectedNonce: NONCE,
    maxTotalMicro: o.budget ?? '1000000',
    now: o.at ?? new Date(),
    settlementWindowSeconds: WINDOW,
  });

function refused(t: import('ava').ExecutionContext, r: AuthorizationCheck, code: AuthorizationRefusalCode) {
  if (r.ok) {
    t.fail(`expected ${code}, got ok`);
    return;
  }
  t.is(r.code, code, r.message);
  t.true(r.message.startsWith(AUTHORIZATION_REFUSALS[code]), "the message starts with the code's description");
  seen.add(r.code);
}

test('a correct bound payment passes and returns the normalized authorization', async (t) => {
  const p = await pay(buyerKey, req, NONCE);
  const r = await check(p);
  t.true(r.ok);
  if (!r.ok) return;
  t.is(r.authorization.from, buyer);
  t.is(r.authorization.value, PRICE);
  t.is(r.authorization.nonce, NONCE);
  t.is(r.signature, p.payload.signature);
});

test('addresses are compared case-insensitively and a nonce in upper case is the same nonce', async (t) => {
  const p = await pay(buyerKey, req, NONCE);
  const shouted = {
    ...p,
    accepted: {
      ...p.accepted,
      payTo: p.accepted.payTo.toLowerCase() as Hex,
      asset: p.accepted.asset.toLowerCase() as Hex,
    },
    payload: {
      ...p.payload,
      authorization: { ...p.payload.authorization, nonce: `0x${NONCE.slice(2).toUpperCase()}` as Hex },
    },
  };
  t.true((await check(shouted)).ok);
});

const cases: [string, () => Promise<unknown>, AuthorizationRefusalCode, { budget?: string }?][] = [
  ['x402 version 1', async () => pay(buyerKey, req, NONCE, { x402Version: 1 }), 'X402_VERSION_UNSUPPORTED'],
  [
    'no x402Version',
    async () => {
      const { x402Version: _v, ...rest } = await pay(buyerKey, req, NONCE);
      return rest;
    },
    'X402_VERSION_UNSUPPORTED',
  ],
  ['not an object', async () => 'PAYMENT', 'PAYMENT_PAYLOAD_INVALID'],
  [
    'no signature',
    async () => {
      const p = await pay(buyerKey, req, NONCE);
      return { ...p, payload: { authorization: p.payload.authorization } };
    },
    'PAYMENT_PAYLOAD_INVALID',
  ],
  [
    'value with a leading zero',
    async () => {
      const p = await pay(buyerKey, req, NONCE);
      return { ...p, payload: { ...p.payload, authorization: { ...p.payload.authorization, value: '020000' } } };
    },
    'PAYMENT_PAYLOAD_INVALID',
  ],
  [
    'nonce of 31 bytes',
    async () => {
      const p = await pay(buyerKey, req, NONCE);
      return {
        ...p,
        payload: { ...p.payload, authorization: { ...p.payload.authorization, nonce: NONCE.slice(0, 64) } },
      };
    },
    'PAYMENT_PAYLOAD_INVALID',
  ],
  [
    'truncated signature',
    async () => {
      const p = await pay(buyerKey, req, NONCE);
      return { ...p, payload: { ...p.payload, signature: p.payload.signature.slice(0, 100) } };
    },
    'PAYMENT_PAYLOAD_INVALID',
  ],
  [
    'no accepted',
    async () => {
      const { accepted: _a, ...rest } = await pay(buyerKey, req, NONCE);
      return rest;
    },
    'PAYMENT_PAYLOAD_INVALID',
  ],
  ['scheme upto', async () => pay(buyerKey, req, NONCE, { accepted: { scheme: 'upto' } }), 'SCHEME_MISMATCH'],
  [
    'other network (Base Sepolia)',
    async () => pay(buyerKey, req, NONCE, { accepted: { network: 'eip155:84532' }, domain: { chainId: 84532 } }),
    'NETWORK_MISMATCH',
  ],
  [
    'other asset (Sepolia USDC address)',
    async () =>
      pay(buyerKey, req, NONCE, {
        accepted: { asset: BASE_SEPOLIA_USDC },
        domain: { verifyingContract: BASE_SEPOLIA_USDC },
      }),
    'ASSET_MISMATCH',
  ],
  ['authorization to another recipient', async () => pay(buyerKey, req, NONCE, { to: buyer }), 'RECIPIENT_MISMATCH'],
  [
    'accepted.payTo another recipient',
    async () => pay(buyerKey, req, NONCE, { accepted: { payTo: buyer } }),
    'RECIPIENT_MISMATCH',
  ],
  [
    'accepted.amount changed',
    async () => pay(buyerKey, req, NONCE, { accepted: { amount: '1' }, value: '1' }),
    'AMOUNT_MISMATCH',
  ],
  ['lower amount', async () => pay(buyerKey, req, NONCE, { value: '19999' }), 'AMOUNT_BELOW_PRICE'],
  ['higher amount', async () => pay(buyerKey, req, NONCE, { value: '20001' }), 'AMOUNT_ABOVE_PRICE'],
  [
    "price above the buyer's max_total_micro",
    async () => pay(buyerKey, req, NONCE),
    'AMOUNT_ABOVE_BUDGET',
    { budget: '19999' },
  ],
  [
    'accepted.maxTimeoutSeconds changed',
    async () => pay(buyerKey, req, NONCE, { accepted: { maxTimeoutSeconds: 3600 } }),
    'ACCEPTED_REQUIREMENTS_MISMATCH',
  ],
  [
    'accepted.extra.name changed',
    async () => pay(buyerKey, req, NONCE, { accepted: { extra: { name: 'USDC', version: '2' } } }),
    'ACCEPTED_REQUIREMENTS_MISMATCH',
  ],
  [
    'validAfter in the future',
    async () => pay(buyerKey, req, NONCE, { validAfter: String(now() + 30) }),
    'PAYMENT_NOT_YET_VALID',
  ],
  [
    'validBefore passed',
    async () => pay(buyerKey, req, NONCE, { validBefore: String(now() - 10) }),
    'PAYMENT_WINDOW_EXPIRED',
  ],
  [
    'validBefore in 4 s (too soon to be mined)',
    async () => pay(buyerKey, req, NONCE, { validBefore: String(now() + 4) }),
    'PAYMENT_WINDOW_EXPIRED',
  ],
  [
    'validBefore in 8 s (inside the settlement window: a fee bump could be mined after it)',
    async () => pay(buyerKey, req, NONCE, { validBefore: String(now() + 8) }),
    'PAYMENT_WINDOW_TOO_SHORT',
  ],
  [
    'validBefore a day ahead',
    async () => pay(buyerKey, req, NONCE, { validBefore: String(now() + 86_400) }),
    'PAYMENT_WINDOW_TOO_LONG',
  ],
  ['random nonce', async () => pay(buyerKey, req, NONCE, { nonce: generatePrivateKey() }), 'NONCE_NOT_BOUND'],
  [
    'nonce bound to another report',
    async () => pay(buyerKey, req, NONCE, { nonce: nonceFor('https://pub.example/articles/two', 'a'.repeat(64)) }),
    'NONCE_BOUND_TO_OTHER_REQUEST',
  ],
  [
    'nonce bound to the same resource with another key',
    async () => pay(buyerKey, req, NONCE, { nonce: nonceFor('https://pub.example/articles/one', 'b'.repeat(64)) }),
    'NONCE_BOUND_TO_OTHER_REQUEST',
  ],
  [
    'signature by another key',
    async () => pay(buyerKey, req, NONCE, { signerKey: generatePrivateKey() }),
    'SIGNATURE_INVALID',
  ],
  [
    'signed over the Sepolia domain name',
    async () => pay(buyerKey, req, NONCE, { domain: { name: 'USDC' } }),
    'SIGNATURE_INVALID',
  ],
  [
    'signed for another chain id',
    async () => pay(buyerKey, req, NONCE, { domain: { chainId: 1 } }),
    'SIGNATURE_INVALID',
  ],
  [
    'validBefore changed after signing',
    async () => {
      const p = await pay(buyerKey, req, NONCE);
      return {
        ...p,
        payload: {
          ...p.payload,
          authorization: {
            ...p.payload.authorization,
            validBefore: String(Number(p.payload.authorization.validBefore) - 1),
          },
        },
      };
    },
    'SIGNATURE_INVALID',
  ],
  [
    'from changed after signing',
    async () => {
      const p = await pay(buyerKey, req, NONCE);
      return { ...p, payload: { ...p.payload, authorization: { ...p.payload.authorization, from: payTo } } };
    },
    'SIGNATURE_INVALID',
  ],
  [
    'malleated (high-s) twin of a valid signature',
    async () => {
      const p = await pay(buyerKey, req, NONCE);
      const s = parseSignature(p.payload.signature);
      const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
      const high = serializeSignature({
        r: s.r,
        s: `0x${(n - BigInt(s.s)).toString(16).padStart(64, '0')}`,
        yParity: s.yParity === 0 ? 1 : 0,
      });
      return { ...p, payload: { ...p.payload, signature: high } };
    },
    'SIGNATURE_INVALID',
  ],
  [
    '66-byte signature',
    async () => {
      const p = await pay(buyerKey, req, NONCE);
      return { ...p, payload: { ...p.payload, signature: `${p.payload.signature}00` } };
    },
    'SIGNATURE_INVALID',
  ],
];

for (const [name, make, code, o] of cases) {
  test.serial(`${name} → ${code}`, async (t) => refused(t, await check(await make(), o ?? {}), code));
}

test.serial('an unmodified @x402/evm client is told it is not compatible and not charged', async (t) => {
  const p = await stockClientPayment(buyerKey, req);
  t.is(p.payload.authorization.to, req.payTo, 'the stock client signs a payment that is otherwise right');
  const r = await check(p);
  refused(t, r, 'NONCE_NOT_BOUND');
  if (!r.ok) {
    t.regex(r.message, /random-nonce x402 client is not compatible/);
    t.regex(r.message, /Nothing was charged/);
  }
});

test.serial(
  'window boundaries: validBefore = now + settlement window and now + maxTimeout + 60 s pass; validAfter = now passes',
  async (t) => {
    const at = new Date();
    const s = Math.floor(at.getTime() / 1000);
    t.true((await check(await pay(buyerKey, req, NONCE, { validBefore: String(s + WINDOW) }), { at })).ok);
    refused(
      t,
      await check(await pay(buyerKey, req, NONCE, { validBefore: String(s + WINDOW - 1) }), { at }),
      'PAYMENT_WINDOW_TOO_SHORT',
    );
    refused(
      t,
      await check(await pay(buyerKey, req, NONCE, { validBefore: String(s + 5) }), { at }),
      'PAYMENT_WINDOW_EXPIRED',
    );
    t.true(
      (await check(await pay(buyerKey, req, NONCE, { validBefore: String(s + MAX_TIMEOUT_SECONDS + 60) }), { at })).ok,
    );
    refused(
      t,
      await check(await pay(buyerKey, req, NONCE, { validBefore: String(s + MAX_TIMEOUT_SECONDS + 61) }), { at }),
      'PAYMENT_WINDOW_TOO_LONG',
    );
    t.true((await check(await pay(buyerKey, req, NONCE, { validAfter: String(s) }), { at })).ok);
  },
);

test.serial('the buyer may add extra keys to accepted.extra (as the x402 SDK allows)', async (t) => {
  t.true(
    (
      await check(
        await pay(buyerKey, req, NONCE, { accepted: { extra: { ...req.extra, assetTransferMethod: 'eip3009' } } }),
      )
    ).ok,
  );
});

test.serial('refusal messages never contain the signature', async (t) => {
  for (const [, make, , o] of cases) {
    const p = (await make()) as Partial<PaymentPayload>;
    const r = await check(p, o ?? {});
    const sig = p?.payload?.signature;
    if (!r.ok && typeof sig === 'string') t.false(r.message.includes(sig.slice(2, 20)));
  }
});

test.serial('every refusal code is exercised', (t) => {
  t.deepEqual([...seen].sort(), (Object.keys(AUTHORIZATION_REFUSALS) as AuthorizationRefusalCode[]).sort());
});
