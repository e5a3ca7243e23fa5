// Typed refusals of the buyer client. A BuyerRefused is thrown BEFORE anything is signed (or, for
// the after-send codes, when the service gave a definitive non-delivery answer); its message never
// contains a claim token, a request key, a signature or a checkpoint.

export type BuyerRefusalCode =
  | 'QUOTE_INVALID'
  | 'QUOTE_SIGNATURE_INVALID'
  | 'QUOTE_MISMATCH'
  | 'OFFER_MISSING'
  | 'OFFER_INVALID'
  // The offer's maxTimeoutSeconds is shorter than the service's settlement window: it could not be settled.
  | 'OFFER_WINDOW_TOO_SHORT'
  | 'RECIPIENT_MISMATCH'
  | 'NETWORK_MISMATCH'
  | 'ASSET_MISMATCH'
  | 'SCHEME_MISMATCH'
  | 'EIP712_DOMAIN_MISMATCH'
  | 'PRICE_MISMATCH'
  | 'PRICE_ABOVE_REPORT_BUDGET'
  | 'TASK_BUDGET_EXHAUSTED'
  | 'OFFER_RECEIPT_INVALID'
  | 'OFFER_RECEIPT_MISMATCH'
  | 'BINDING_MISMATCH'
  | 'EVIDENCE_KEY_MISMATCH'
  | 'SERVICE_ERROR'
  | 'PAYMENT_REFUSED'
  | 'CHECKPOINT_MISSING'
  | 'RESUME_EXHAUSTED'
  // A revalidation checkpoint (docs/wire.md §14) that does not verify under the pinned key.
  | 'REVALIDATION_CHECKPOINT_INVALID';

export class BuyerRefused extends Error {
  override readonly name = 'BuyerRefused';
  constructor(
    readonly code: BuyerRefusalCode,
    message: string,
    readonly details: Record<string, string | number | boolean> = {},
  ) {
    super(`${code}: ${message}`);
  }
}
