import type { EventStore } from '../../src/store/port.js';
import { toNewEvents } from '../../src/command/new-events.js';
import { fold } from '../../streams/purchase/evolve.js';
import { streamName } from '../../streams/purchase/purchase-id.js';
import { decideRefund, foldRefund, refundStream, type PurchaseCharge } from '../../streams/refund/index.js';
import { NOW } from '../streams/purchase/fixtures.js';

// A refund request on a seeded purchase, decided the way the public route decides it (the charge of
// the folded purchase, decideRefund, append at the folded revision). The claim is checked by the route,
// not the decider, so any 64-hex value stands for the buyer's here.

export async function requestRefund(store: EventStore, purchaseId: string): Promise<void> {
  const purchase = fold(await store.readStream(streamName(purchaseId)));
  const charge: PurchaseCharge = {
    status: purchase.status,
    ...(purchase.checkpoint
      ? { authorization: { amount: purchase.checkpoint.amount, payer: purchase.checkpoint.payer } }
      : {}),
    ...(purchase.settled
      ? {
          settlement: {
            amount: purchase.settled.amount,
            payer: purchase.settled.payer,
            transaction: purchase.settled.transaction,
          },
        }
      : {}),
    closedWithoutCharge: false,
  };
  const stream = refundStream(purchaseId);
  const state = foldRefund(await store.readStream(stream));
  const events = decideRefund(
    {
      type: 'RequestRefund',
      data: {
        purchase_id: purchaseId,
        reason: 'NOT_DELIVERED',
        message: 'nothing arrived',
        purchase: charge,
        claim: 'c'.repeat(64),
      },
      metadata: { now: NOW },
    },
    state,
  );
  await store.append(stream, toNewEvents(events), state.version === 0 ? 'no_stream' : BigInt(state.version - 1));
}
