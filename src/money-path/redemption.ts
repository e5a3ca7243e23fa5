import type { PurchaseEventData } from '../../streams/purchase/index.js';

// What redeeming a purchase comes to, in the terms of the purchase and not of a transport:
//   offer      the stored offer stands; pay it (x402 presents it as 402 + PAYMENT-REQUIRED). `refused`
//              names why a payment sent with the request was not accepted (nothing was charged).
//   delivered  the paid report and the settlement response, the same every time it is asked for.
// Anything else (held, in progress, expired) is a Refusal (packages/wire/src/refusal.ts).

interface PaymentNotAccepted {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export type Redemption =
  | { kind: 'offer'; purchaseId: string; offered: PurchaseEventData<'Offered'>; refused?: PaymentNotAccepted }
  | { kind: 'delivered'; delivered: PurchaseEventData<'Delivered'> };
