import { reportRow } from '../../projections/queries/purchases.js';
import { soldLinesOf, type SoldLine } from '../../projections/report-view/resource-lines.js';
import { refundRows, refundRow, type ListedRefund } from '../../projections/queries/refunds.js';
import type { ReportRow } from '../../projections/report-view/report-row.js';
import { purchaseHistory, type HistoryEntry } from './history.js';
import { parsePurchaseIdArg, resolvePurchaseId } from './purchase-id.js';
import { queueEntries, type QueueEntry } from './queue.js';
import { attachedSession } from './session.js';
import { refundStream } from '../../streams/refund/index.js';
import type { OperatorDeps } from './operator-deps.js';
import { orRefuse, OperatorRefused } from './operator-refused.js';

// The operator listener's reads, shared by the JSON API and the console pages: the read models once
// they include every event appended before the call, timelines and revisions from the streams.

const CATCH_UP_MS = 5_000;

export type { QueueEntry };
export interface PurchaseTimeline {
  purchase: ReportRow;
  /** One line per resource sold: a gate's URLs each under its own origin, tied to the one payment. */
  resources: SoldLine[];
  history: HistoryEntry[];
  refund: ListedRefund | null;
  revision: string | null;
}
export interface RefundEntry extends ListedRefund {
  revision: string | null;
}

export function operatorReads(deps: Pick<OperatorDeps, 'config' | 'now' | 'store' | 'models'>) {
  const { store, models } = deps;
  const fresh = () => models.caughtUp(CATCH_UP_MS);
  const revisionOf = async (stream: string) => (await store.readStream(stream)).at(-1)?.revision.toString() ?? null;
  /** The full id an argument names (id, purchase-<id> or unique prefix), or a refusal. */
  const purchaseIdOf = async (arg: string) => orRefuse(await resolvePurchaseId(models.db, parsePurchaseIdArg(arg))).id;

  return {
    fresh,
    purchaseIdOf,

    queue: (): Promise<QueueEntry[]> => queueEntries(attachedSession(deps)),

    async timeline(arg: string): Promise<PurchaseTimeline> {
      await fresh();
      const id = await purchaseIdOf(arg);
      const purchase = await reportRow(models.db, id);
      if (!purchase) throw new OperatorRefused('NO_SUCH_PURCHASE', `no purchase ${id}`);
      const history = await purchaseHistory(store, id);
      return {
        purchase,
        resources: soldLinesOf(purchase),
        history,
        refund: await refundRow(models.db, id),
        revision: history.at(-1)?.revision ?? null,
      };
    },

    /** What the buyer wrote when asking for the refund (its RefundRequested event; the view keeps no text). */
    async refundMessage(purchaseId: string): Promise<string | null> {
      const requested = (await store.readStream(refundStream(purchaseId))).find((e) => e.type === 'RefundRequested');
      const message = (requested?.data as { message?: unknown } | undefined)?.message;
      return typeof message === 'string' && message !== '' ? message : null;
    },

    async refunds(all: boolean): Promise<RefundEntry[]> {
      await fresh();
      const out: RefundEntry[] = [];
      for (const r of await refundRows(models.db, { all }))
        out.push({ ...r, revision: await revisionOf(refundStream(r.purchase_id)) });
      return out;
    },
  };
}
