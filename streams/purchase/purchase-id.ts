import { purchaseId, type PurchaseIdInput } from '@rights-preflight/wire/contract/purchase-id.js';

// A purchase's stream is named by its id (the id itself is computed in the wire package, so the buyer
// computes the same one): `purchase-<id>`.

export { purchaseId, type PurchaseIdInput };

export const STREAM_PREFIX = 'purchase-';
export const streamName = (id: string): string => `${STREAM_PREFIX}${id}`;
/** The purchase id of a stream name, or undefined for streams of other types. */
export const purchaseIdOfStream = (stream: string): string | undefined =>
  stream.startsWith(STREAM_PREFIX) ? stream.slice(STREAM_PREFIX.length) : undefined;
