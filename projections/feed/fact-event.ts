import { isLeft } from 'fp-ts/lib/Either.js';
import { isPurchaseFacts, type PurchaseFacts } from '../../streams/purchase/facts.js';
import { purchaseIdOfStream } from '../../streams/purchase/purchase-id.js';
import { RefundEvent, REFUND_STREAM_PREFIX } from '../../streams/refund/events.js';

// One event as the read models see it: its place on `$all` and its facts, decoded with the streams'
// own codecs into a union the projections switch over exhaustively.

export interface RawFactEvent {
  position: bigint;
  stream: string;
  type: string;
  /** When the event was stored, as the store wrote it (convert with isoTime where it is shown). */
  created: string;
  /** The facts column (or factsOf in TypeScript); null for streams no read model follows. */
  facts: unknown;
}

interface Placed {
  position: bigint;
  created: string;
  purchase_id: string;
}
export type PurchaseFactEvent = Placed & { stream: 'purchase' } & PurchaseFacts;
export type RefundFactEvent = Placed & { stream: 'refund' } & RefundEvent;
export type FactEvent = PurchaseFactEvent | RefundFactEvent;

/** A store timestamp ("2026-11-23 12:00:00.123456+00", JSON or ISO forms) as ISO 8601 UTC. */
export const isoTime = (created: string): string => new Date(created).toISOString();

export class UndecodableEvent extends Error {
  readonly code = 'UNDECODABLE_EVENT';
}

/** Decodes the facts of a purchase or refund event; undefined for events of other streams. */
export function decodeFactEvent(raw: RawFactEvent): FactEvent | undefined {
  const purchase = purchaseIdOfStream(raw.stream);
  if (purchase !== undefined) {
    // `is` validates exactly what `decode` would (these codecs only check, never transform) without
    // building a result per event; and the event is one object literal, not spreads: rebuilds handle
    // hundreds of thousands of them.
    const event = {
      position: raw.position,
      created: raw.created,
      purchase_id: purchase,
      stream: 'purchase' as const,
      type: raw.type,
      facts: raw.facts,
    };
    if (!isPurchaseFacts(event))
      throw new UndecodableEvent(`purchase event ${raw.type} at position ${raw.position} does not decode`);
    return event;
  }
  if (raw.stream.startsWith(REFUND_STREAM_PREFIX)) {
    const d = RefundEvent.decode({ type: raw.type, data: raw.facts });
    if (isLeft(d)) throw new UndecodableEvent(`refund event ${raw.type} at position ${raw.position} does not decode`);
    const place = { position: raw.position, created: raw.created };
    return { ...place, purchase_id: raw.stream.slice(REFUND_STREAM_PREFIX.length), stream: 'refund', ...d.right };
  }
  return undefined;
}
