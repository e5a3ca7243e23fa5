import { digestOf } from '../evidence/digest.js';

// The purchase id is deterministic, so a retry always finds its stream without a lookup
// table: sha256hex(JCS({sku, key_sha256, input_sha256})), where key is the buyer's private retry key
// (X-Service-Request) or, in the quote flow, the quote's own random report id. Browser-safe, so the
// buyer client can compute the id of a purchase it is about to make.

export interface PurchaseIdInput {
  sku: string;
  key_sha256: string;
  input_sha256: string;
}

export const purchaseId = (p: PurchaseIdInput): string =>
  digestOf({ sku: p.sku, key_sha256: p.key_sha256, input_sha256: p.input_sha256 });
