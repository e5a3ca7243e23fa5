import type { BuyResult } from './results.js';

// What buy, gate and revalidate print on stdout once a report is delivered and saved: the summary, never the
// report (it is in the saved file). A revalidation's summary says, per resource, whether it changed since
// its checkpoint and from what (docs/wire.md §14), the one thing a revalidation is bought for.

type Delivered = Extract<BuyResult, { status: 'delivered' }>;

interface RevalidatedResource {
  resource: string;
  changed?: boolean;
  previous_classification?: string;
  classification: string;
}

export function deliveredSummary(r: Delivered, saved: string) {
  const { status, purchase_id, classifications, ingestion_hold, transaction, amount_micro } = r;
  const resources = r.response.report.resources as RevalidatedResource[];
  const revalidated = resources.some((x) => typeof x.changed === 'boolean');
  return {
    status,
    purchase_id,
    classifications,
    ...(revalidated
      ? {
          changed: resources.map(({ resource, changed, previous_classification, classification }) => ({
            resource,
            changed,
            previous_classification,
            classification,
          })),
        }
      : {}),
    ingestion_hold,
    transaction,
    amount_micro,
    saved,
  };
}
