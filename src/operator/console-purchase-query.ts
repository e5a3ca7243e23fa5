import type { PurchaseFilter } from '../../projections/queries/purchases.js';
import { isCalendarDay } from './calendar-day.js';
import { purchaseFilter } from './purchase-filter.js';
import { UsageError } from './usage-error.js';
import { TxHash } from '@rights-preflight/wire/contract/primitives.js';
import { QuotedProduct, type Sku } from '../../streams/purchase/quoted-product.js';

// The console's purchase list (GET /console/purchases?status=&sku=&origin=&day=): the query string
// as the form sends it (an empty field is no filter) checked into the report view's filter. Status,
// origin and limit are checked as `ops purchases` checks them; a day is one UTC calendar day of quotes.
// The search box (`q`) takes what the console and the CLI print: a purchase id or its prefix (at least 4
// hex characters, `purchase-` allowed), a payer address (0x + 40 hex) or a settlement transaction (0x + 64 hex).

/** Every SKU sold (one per member of `QuotedProduct`): a new product is listed without touching this file. */
export const SKUS: readonly Sku[] = QuotedProduct.types.map((member) => member.props.sku.value);

export interface ConsolePurchaseQuery {
  status: string;
  sku: string;
  origin: string;
  day: string;
  q: string;
}

/** The search box's value as a filter: which field it names is told by its shape. */
export function searchFilter(q: string): Pick<PurchaseFilter, 'idPrefix' | 'payer' | 'transaction'> {
  if (q === '') return {};
  if (TxHash.is(q)) return { transaction: q };
  if (/^0x[0-9a-fA-F]{40}$/.test(q)) return { payer: q };
  const id = /^(?:purchase-)?([0-9a-fA-F]{4,64})$/.exec(q);
  if (id) return { idPrefix: id[1]!.toLowerCase() };
  throw new UsageError(
    'search takes a purchase id or its first 4+ hex characters, a payer (0x + 40 hex) or a transaction ' +
      `(0x + 64 hex); got ${JSON.stringify(q)}`,
  );
}

const field = (query: Record<string, string | string[] | undefined>, name: string): string => {
  const v = query[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() ?? '';
};

export function consolePurchaseQuery(query: Record<string, string | string[] | undefined>): {
  form: ConsolePurchaseQuery;
  filter: PurchaseFilter;
} {
  const form = {
    status: field(query, 'status'),
    sku: field(query, 'sku'),
    origin: field(query, 'origin'),
    day: field(query, 'day'),
    q: field(query, 'q'),
  };
  const limit = field(query, 'limit');
  const base = purchaseFilter({
    ...(form.status ? { status: form.status } : {}),
    ...(form.origin ? { origin: form.origin } : {}),
    ...(limit ? { limit } : {}),
  });
  if (form.sku && !(SKUS as readonly string[]).includes(form.sku))
    throw new UsageError(`sku must be one of ${SKUS.join(' | ')} (got ${JSON.stringify(form.sku)})`);
  if (form.day && !isCalendarDay(form.day))
    throw new UsageError(`day must be a calendar day YYYY-MM-DD (got ${JSON.stringify(form.day)})`);
  const next = form.day ? new Date(Date.parse(`${form.day}T00:00:00Z`) + 86_400_000).toISOString() : undefined;
  return {
    form,
    filter: {
      ...base,
      ...(form.sku ? { sku: form.sku } : {}),
      ...(form.day ? { since: `${form.day}T00:00:00.000Z`, until: next } : {}),
      ...searchFilter(form.q),
    },
  };
}
