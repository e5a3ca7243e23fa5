import test from 'ava';
import { checkedBody } from '@rights-preflight/wire/contract/checked-body.js';
import { InspectResponse } from '../../src/http/routes/inspect.js';
import { PaymentRequiredBody } from '@rights-preflight/wire/contract/offer.js';

// Every route writes its body through its published codec (docs/decisions.md, "Hard inputs"). A body the codec rejects
// is a bug of ours that a buyer would trust, so it is never sent: the route answers a logged 500 instead.

const offer = {
  error: {
    code: 'PAYMENT_REQUIRED',
    message: 'payment required',
    details: {
      purchase_id: 'a'.repeat(64),
      charge_micro: '20000',
      network: 'eip155:8453',
      asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      pay_to: '0x000000000000000000000000000000000000bEEF',
      nonce: `0x${'1'.repeat(64)}`,
      expires_at: '2026-11-24T10:00:00.000Z',
    },
  },
};

test('a body its codec accepts is sent as the codec encodes it', (t) => {
  t.deepEqual(checkedBody(PaymentRequiredBody, offer), offer);
});

test('a body its codec rejects is never sent: the route fails instead, naming the codec', (t) => {
  const { network: _, ...withoutNetwork } = offer.error.details;
  const broken = { error: { ...offer.error, details: withoutNetwork } };
  t.throws(() => checkedBody(PaymentRequiredBody, broken), { message: /PaymentRequiredBody/ });
  // The inspect answer that once went out without a classification (docs/decisions.md, "RSL reading") is such a body.
  t.throws(() => checkedBody(InspectResponse, { classification: undefined }), { message: /does not satisfy/ });
});
