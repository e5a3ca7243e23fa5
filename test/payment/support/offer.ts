import { getAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme as ExactEvmClientScheme } from '@x402/evm/exact/client';
import type { PaymentRequired as CorePaymentRequired } from '@x402/core/types';
import { boundNonce, inputSha256 } from '@rights-preflight/wire/payment/binding.js';
import { BASE_USDC, USDC } from '@rights-preflight/wire/payment/x402-constants.js';
import type { PaymentPayload, PaymentRequirements } from '@rights-preflight/wire/payment/x402-wire.js';
import { signAuthorization } from '../../support/pay.js';

// Offers and payments for the payment tests, built the way the service and a bound-nonce buyer build
// them; every field of a payment can be overridden so a test changes exactly one thing.

export const PRICE = '20000';
export const MAX_TIMEOUT_SECONDS = 300;

export function offer(payTo: Hex, over: Partial<PaymentRequirements> = {}): PaymentRequirements {
  return {
    scheme: 'exact',
    network: 'eip155:8453',
    asset: BASE_USDC,
    amount: PRICE,
    payTo: getAddress(payTo),
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: { ...USDC['eip155:8453'].eip712 },
    ...over,
  };
}

/** A bound nonce for a purchase, as the routes derive it (a fresh claim-like key per call unless given). */
export function nonceFor(
  resource: string,
  key: string,
  input: unknown = {
    sku: 'rights.preflight.v1',
    resource,
    purpose: 'ai-input',
    tier: 'fresh',
    user_class: 'commercial',
  },
): Hex {
  return boundNonce({ resource, key, input_sha256: inputSha256(input) });
}

export interface PayOver {
  from?: Hex;
  to?: Hex;
  value?: string;
  validAfter?: string;
  validBefore?: string;
  nonce?: Hex;
  /** Sign with this key instead of the buyer's (the payload still says from = buyer). */
  signerKey?: Hex;
  /** Sign over this domain instead of the offer's. */
  domain?: { name?: string; version?: string; chainId?: number; verifyingContract?: Hex };
  accepted?: Partial<PaymentRequirements>;
  x402Version?: number;
}

export async function pay(
  buyerKey: Hex,
  req: PaymentRequirements,
  nonce: Hex,
  o: PayOver = {},
): Promise<PaymentPayload> {
  const buyer = privateKeyToAccount(buyerKey);
  const signer = o.signerKey ? privateKeyToAccount(o.signerKey) : buyer;
  const now = Math.floor(Date.now() / 1000);
  const authorization = {
    from: o.from ?? buyer.address,
    to: getAddress(o.to ?? req.payTo),
    value: o.value ?? req.amount,
    validAfter: o.validAfter ?? '0',
    validBefore: o.validBefore ?? String(now + req.maxTimeoutSeconds),
    nonce: o.nonce ?? nonce,
  };
  const signature = await signAuthorization(
    signer,
    {
      name: String(req.extra.name),
      version: String(req.extra.version),
      chainId: 8453,
      verifyingContract: getAddress(req.asset),
      ...o.domain,
    },
    authorization,
  );
  return {
    x402Version: o.x402Version ?? 2,
    resource: { url: 'http://127.0.0.1/v1/rights/reports/x' },
    accepted: { ...req, ...o.accepted },
    payload: { signature, authorization },
  };
}

/** Exactly what an unmodified @x402/evm client produces for our offer: a random nonce. */
export async function stockClientPayment(buyerKey: Hex, req: PaymentRequirements): Promise<PaymentPayload> {
  const client = new x402Client().register('eip155:*', new ExactEvmClientScheme(privateKeyToAccount(buyerKey)));
  const pr = {
    x402Version: 2,
    resource: { url: 'http://127.0.0.1/v1/rights/reports/x' },
    accepts: [req],
  } as CorePaymentRequired;
  return (await client.createPaymentPayload(pr)) as unknown as PaymentPayload;
}
