import test from 'ava';
import { readFile } from 'node:fs/promises';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { x402Client } from '@x402/core/client';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentRequired as CorePaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import {
  decodePaymentRequired,
  decodePaymentResponse,
  decodePaymentSignature,
  encodePaymentRequired,
  encodePaymentResponse,
  encodePaymentSignature,
} from '../src/payment/x402-headers.js';
import { USDC, chainIdOf } from '../src/payment/x402-constants.js';
import type { PaymentPayload, PaymentRequired } from '../src/payment/x402-wire.js';

// The x402 headers on the service's own offer (the first 402 of the published vectors) and on what an
// unmodified @x402/evm client pays it with. test/payment/ holds the payments the service accepts.

const vectors = JSON.parse(await readFile(new URL('../vectors/offer-receipt.json', import.meta.url), 'utf8')) as {
  vectors: { input: { payment_required: PaymentRequired } }[];
};
const offered = vectors.vectors[0]!.input.payment_required;
const buyerKey = generatePrivateKey();
const stockClient = new x402Client().register('eip155:*', new ExactEvmScheme(privateKeyToAccount(buyerKey)));
const pay = async () =>
  (await stockClient.createPaymentPayload(offered as unknown as CorePaymentRequired)) as unknown as PaymentPayload;

test('PAYMENT-SIGNATURE round-trips and is standard padded base64 of JSON', async (t) => {
  const p = await pay();
  const header = encodePaymentSignature(p);
  t.regex(header, /^[A-Za-z0-9+/]*={0,2}$/);
  t.deepEqual(JSON.parse(Buffer.from(header, 'base64').toString('utf8')), p);
  const back = decodePaymentSignature(header);
  t.true(back.ok);
  if (back.ok) t.deepEqual(back.value, p);
});

test('a stock @x402/evm client payment decodes with our codec (same wire shape)', async (t) => {
  const header = encodePaymentSignatureHeader((await pay()) as never);
  t.true(decodePaymentSignature(header).ok);
});

test('garbage, wrong shapes and bad fields are refused with a path, not the value', async (t) => {
  const bad = decodePaymentSignature('not*base64');
  t.false(bad.ok);
  const p = await pay();
  const noSig = encodePaymentSignature({ ...p, payload: { ...p.payload, signature: '0x12' } } as never);
  const r = decodePaymentSignature(noSig);
  t.false(r.ok);
  if (!r.ok) {
    t.regex(r.problem, /payload\.signature/);
    t.false(r.problem.includes(p.payload.authorization.nonce));
  }
  const amount = decodePaymentSignature(
    encodePaymentSignature({ ...p, accepted: { ...p.accepted, amount: '-1' } } as never),
  );
  t.false(amount.ok);
});

test('PAYMENT-REQUIRED and PAYMENT-RESPONSE round-trip; PAYMENT-REQUIRED must be version 2', (t) => {
  const pr = {
    x402Version: 2 as const,
    resource: { url: 'https://svc.example/v1/rights/reports/1' },
    accepts: offered.accepts,
    error: 'PAYMENT_REQUIRED',
    extensions: { x: { info: {}, schema: {} } },
  };
  const r = decodePaymentRequired(encodePaymentRequired(pr));
  t.true(r.ok);
  if (r.ok) t.deepEqual(r.value, pr);
  t.false(decodePaymentRequired(encodePaymentRequired({ ...pr, x402Version: 1 } as never)).ok);
  const sr = {
    success: true,
    transaction: `0x${'ab'.repeat(32)}`,
    network: 'eip155:8453' as const,
    payer: privateKeyToAccount(buyerKey).address,
  };
  const s = decodePaymentResponse(encodePaymentResponse(sr));
  t.true(s.ok);
  if (s.ok) t.deepEqual(s.value, sr);
});

test('constants: EIP-712 names per network and CAIP-2 chain ids', (t) => {
  t.deepEqual(USDC['eip155:8453'].eip712, { name: 'USD Coin', version: '2' });
  t.deepEqual(USDC['eip155:84532'].eip712, { name: 'USDC', version: '2' });
  t.is(chainIdOf('eip155:8453'), 8453);
  t.is(chainIdOf('eip155:84532'), 84532);
  t.is(chainIdOf('solana:mainnet'), undefined);
});
