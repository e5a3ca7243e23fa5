import type { BuyerRefusalCode } from '@rights-preflight/buyer';

// The ways a peer between buyer and service can alter a 402 offer, each with the refusal code the buyer
// must answer before it signs (shared by the single-report and the gate tests; the price is per product).

/** [what is altered, the alteration of the decoded PAYMENT-REQUIRED, the buyer's refusal code] */
export type OfferTampering = readonly [what: string, edit: (pr: any) => void, code: BuyerRefusalCode];

export const anotherRecipient: OfferTampering = [
  'another recipient',
  (pr) => {
    pr.accepts[0].payTo = '0x000000000000000000000000000000000000dEaD';
  },
  'RECIPIENT_MISMATCH',
];

export const priced = (what: string, amount: string, code: BuyerRefusalCode): OfferTampering => [
  what,
  (pr) => {
    pr.accepts[0].amount = amount;
  },
  code,
];

export const anotherNetwork: OfferTampering = [
  'another network',
  (pr) => {
    pr.accepts[0].network = 'eip155:84532';
  },
  'NETWORK_MISMATCH',
];

export const unboundNonce: OfferTampering = [
  'a nonce not bound to this request',
  (pr) => {
    pr.extensions['service-request-binding'].info.nonce = `0x6163717075627631${'0'.repeat(48)}`;
  },
  'BINDING_MISMATCH',
];
