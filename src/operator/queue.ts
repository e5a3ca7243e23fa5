import type { QueueItem } from '../../projections/investigation-queue/queue-item.js';
import { queueItems } from '../../projections/queries/purchases.js';
import { purchaseHistory, type HistoryEntry } from './history.js';
import type { OperatorSession } from './session.js';

// The investigation queue — held and lock_stuck purchases — from the read model, each with its history
// read from its stream (`ops queue`, GET /operator/v1/queue, the console's front page).

export interface QueueEntry extends QueueItem {
  history: HistoryEntry[];
}

export async function queueEntries(session: OperatorSession): Promise<QueueEntry[]> {
  const models = await session.models();
  const store = await session.store();
  const out: QueueEntry[] = [];
  for (const item of await queueItems(models.db))
    out.push({ ...item, history: await purchaseHistory(store, item.purchase_id) });
  return out;
}
