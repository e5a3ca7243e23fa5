import { sha256Hex } from '@rights-preflight/wire/evidence/digest.js';
import { envelopeSigner } from '@rights-preflight/wire/evidence/envelope.js';
import { nodeByteSigner } from '../../../src/evidence/sign-node.js';
import { checkpointAad, sealText } from '@rights-preflight/wire/crypto/aes-gcm.js';
import { purchaseId } from '../../../streams/purchase/purchase-id.js';
import type { PurchaseEvent, PurchaseEventData, PurchaseEventType } from '../../../streams/purchase/events.js';
import type { SingleReportInput } from '../../../streams/purchase/quoted-product.js';

// Realistic, codec-valid event data for the purchase stream tests: real signatures, a real sealed
// authorization, Base USDC terms. Times are fixed around NOW; nothing reads the wall clock.

export const NOW = new Date('2026-11-22T12:00:00.000Z');
export const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
export const iso = (seconds: number) => at(seconds).toISOString();

const signer = envelopeSigner(nodeByteSigner(new Uint8Array(32).fill(42)));
const checkpointKey = new Uint8Array(32).fill(3);

export const SKU = 'rights.preflight.v1';
export const INPUT: SingleReportInput = {
  sku: SKU,
  resource: 'https://publisher.example/news/story',
  purpose: 'ai-input',
  tier: 'fresh',
  user_class: 'commercial',
};
export const INPUT_SHA256 = sha256Hex(JSON.stringify(INPUT));
export const PURCHASE_ID = purchaseId({ sku: SKU, key_sha256: sha256Hex('report-id-key'), input_sha256: INPUT_SHA256 });
export const PRICE = '20000';
export const NETWORK = 'eip155:8453' as const;
export const ASSET = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const;
export const PAY_TO = `0x${'c2'.repeat(20)}` as const as `0x${string}`;
export const PAYER = `0x${'b1'.repeat(20)}` as const as `0x${string}`;
export const NONCE = ('0x6163717075627631' + 'd4'.repeat(24)) as `0x${string}`;
export const TX = `0x${'ab'.repeat(32)}` as const as `0x${string}`;
const EXPIRES = iso(900);

type SingleReportQuoted = Extract<PurchaseEventData<'Quoted'>, { sku: typeof SKU }>;

export const quotedData = (over: Partial<SingleReportQuoted> = {}): SingleReportQuoted => ({
  purchase_id: PURCHASE_ID,
  sku: SKU,
  input: INPUT,
  input_sha256: INPUT_SHA256,
  max_total_micro: '50000',
  price_micro: PRICE,
  decision_preview: {
    purpose: 'ai-input',
    classification: 'PERMITTED_BY_OBSERVED_DECLARATION',
    decision: 'ALLOW_DECLARED',
  },
  signed_quote: signer.sign({
    type: 'quote',
    purchase_id: PURCHASE_ID,
    amount: PRICE,
    pay_to: PAY_TO,
    network: NETWORK,
    expires_at: EXPIRES,
    key_id: signer.keyId,
  }),
  expires_at: EXPIRES,
  claim_sha256: sha256Hex('claim-token'),
  reading: {
    resource: INPUT.resource,
    declaration_found: true,
    observations: [{ channel: 'robots', url: 'https://publisher.example/license.xml', status: 200 }],
  },
  ...over,
});

export const REQUIREMENTS = {
  scheme: 'exact',
  network: NETWORK,
  asset: ASSET,
  payTo: PAY_TO,
  amount: PRICE,
  maxTimeoutSeconds: 300,
  extra: { name: 'USD Coin', version: '2' },
};

export const offeredData = (over: Partial<PurchaseEventData<'Offered'>> = {}): PurchaseEventData<'Offered'> => ({
  requirements: REQUIREMENTS,
  payment_required: {
    x402Version: 2,
    error: 'PAYMENT_REQUIRED',
    resource: { url: `https://rights.example/v1/rights/reports/${PURCHASE_ID}` },
    accepts: [REQUIREMENTS],
  },
  nonce: NONCE,
  offer_receipt: signer.sign({
    type: 'offer-receipt',
    purchase_id: PURCHASE_ID,
    amount: PRICE,
    nonce: NONCE,
    expires_at: EXPIRES,
    key_id: signer.keyId,
  }),
  expires_at: EXPIRES,
  ...over,
});

const PAYMENT = JSON.stringify({
  x402Version: 2,
  accepted: REQUIREMENTS,
  payload: {
    signature: `0x${'5a'.repeat(65)}` as const,
    authorization: { from: PAYER, to: PAY_TO, value: PRICE, nonce: NONCE },
  },
});
export const PAYMENT_SHA256 = sha256Hex(PAYMENT);
export const SEALED = await sealText(checkpointKey, PAYMENT, checkpointAad(PURCHASE_ID));
export const CLEAR_PAYMENT = PAYMENT;

export const checkpointData = (
  over: Partial<PurchaseEventData<'AuthorizationCheckpointed'>> = {},
): PurchaseEventData<'AuthorizationCheckpointed'> => ({
  sealed_payment: SEALED,
  payment_sha256: PAYMENT_SHA256,
  payer: PAYER,
  nonce: NONCE,
  amount: PRICE,
  valid_before: String(Math.floor(NOW.getTime() / 1000) + 300),
  at: iso(1),
  ...over,
});

export const submittedData = (
  over: Partial<PurchaseEventData<'SettlementSubmitted'>> = {},
): PurchaseEventData<'SettlementSubmitted'> => ({
  transaction: TX,
  reason: 'receipt_timeout',
  at: iso(2),
  ...over,
});

export const RELAYER = `0x${'e5'.repeat(20)}` as const as `0x${string}`;
export const TX2 = `0x${'cd'.repeat(32)}` as const as `0x${string}`;
export const broadcastData = (
  over: Partial<PurchaseEventData<'SettlementBroadcast'>> = {},
): PurchaseEventData<'SettlementBroadcast'> => ({
  transaction: TX,
  relayer: RELAYER,
  account_nonce: '7',
  gas: '86000',
  max_fee_per_gas: '2000000000',
  max_priority_fee_per_gas: '1000000000',
  at: iso(2),
  ...over,
});

export const settledData = (over: Partial<PurchaseEventData<'Settled'>> = {}): PurchaseEventData<'Settled'> => ({
  network: NETWORK,
  transaction: TX,
  payer: PAYER,
  amount: PRICE,
  block: '1234',
  asset: ASSET,
  pay_to: PAY_TO,
  ...over,
});

export const deliveredData = (transaction = TX): PurchaseEventData<'Delivered'> => {
  const report = {
    sku: SKU,
    profile: 'service-observed-policy-v1',
    legal_clearance: false,
    purchase_id: PURCHASE_ID,
    resources: [],
  };
  const evidence = signer.sign({
    type: 'evidence',
    purchase_id: PURCHASE_ID,
    input_sha256: INPUT_SHA256,
    legal_clearance: false,
    key_id: signer.keyId,
  });
  return {
    response: {
      version: 'service-public-gateway-v1',
      input_sha256: INPUT_SHA256,
      legal_clearance: false,
      report,
      evidence,
      delivery_proof: signer.sign({
        type: 'delivery-proof',
        purchase_id: PURCHASE_ID,
        settlement: {
          network: NETWORK,
          transaction,
          payer: PAYER,
          amount: PRICE,
          asset: ASSET,
          pay_to: PAY_TO,
          nonce: NONCE,
        },
        key_id: signer.keyId,
      }),
      payment_settlement: { success: true, network: NETWORK, transaction },
    } as PurchaseEventData<'Delivered'>['response'],
    payment_response: { success: true, transaction, network: NETWORK, payer: PAYER },
  };
};

export const heldData = (reason = 'BUYER_REPORTED_MISMATCH'): PurchaseEventData<'Held'> => ({
  reason,
  details: { field: 'delivery_proof' },
  at: iso(5),
});
export const stuckData = (): PurchaseEventData<'LockStuck'> => ({
  reason: 'WINDOW_PASSED_UNSETTLED',
  details: {},
  last_step: 'settlement_submitted',
  tried: ['authorizationState: unused', 'settle: timeout'],
  at: iso(400),
  since: iso(1),
});
export const movedData = (
  target: PurchaseEventData<'OperatorMoved'>['target'],
  over: Partial<PurchaseEventData<'OperatorMoved'>> = {},
): PurchaseEventData<'OperatorMoved'> => ({
  target,
  note: 'checked the chain by hand',
  operator: 'ops@example',
  at: iso(600),
  ...over,
});

/** An event of the stream from its type and data (the union's member for that type). */
const event = <T extends PurchaseEventType>(type: T, data: PurchaseEventData<T>): PurchaseEvent =>
  ({ type, data }) as PurchaseEvent;

export const ev = {
  quoted: (over?: Partial<SingleReportQuoted>) => event('Quoted', quotedData(over)),
  offered: (over?: Partial<PurchaseEventData<'Offered'>>) => event('Offered', offeredData(over)),
  checkpointed: (over?: Partial<PurchaseEventData<'AuthorizationCheckpointed'>>) =>
    event('AuthorizationCheckpointed', checkpointData(over)),
  submitted: (over?: Partial<PurchaseEventData<'SettlementSubmitted'>>) =>
    event('SettlementSubmitted', submittedData(over)),
  broadcast: (over?: Partial<PurchaseEventData<'SettlementBroadcast'>>) =>
    event('SettlementBroadcast', broadcastData(over)),
  settled: (over?: Partial<PurchaseEventData<'Settled'>>) => event('Settled', settledData(over)),
  delivered: () => event('Delivered', deliveredData()),
  held: (reason?: string) => event('Held', heldData(reason)),
  stuck: () => event('LockStuck', stuckData()),
  moved: (target: PurchaseEventData<'OperatorMoved'>['target'], over?: Partial<PurchaseEventData<'OperatorMoved'>>) =>
    event('OperatorMoved', movedData(target, over)),
};

/** The happy path up to (and including) each step. */
export const history = {
  quoted: () => [ev.quoted()],
  offered: () => [ev.quoted(), ev.offered()],
  checkpointed: () => [ev.quoted(), ev.offered(), ev.checkpointed()],
  submitted: () => [ev.quoted(), ev.offered(), ev.checkpointed(), ev.submitted()],
  /** Written ahead and broadcast, then the process died before anything else was recorded. */
  broadcast: () => [ev.quoted(), ev.offered(), ev.checkpointed(), ev.broadcast()],
  settled: () => [ev.quoted(), ev.offered(), ev.checkpointed(), ev.settled()],
  delivered: () => [ev.quoted(), ev.offered(), ev.checkpointed(), ev.settled(), ev.delivered()],
};
