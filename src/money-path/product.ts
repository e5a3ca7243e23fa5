import type { PurchaseEventData, Sku } from '../../streams/purchase/index.js';
import type { DraftedReport } from './report-drafter.js';

// A product is what a SKU sells on the money path (docs/decisions.md, "One sale flow"). The money path
// quotes, offers, takes payment, settles and delivers the same way for every SKU (./sale.ts); what differs
// is asked of the product: the question in its normal form with its price (the `Quoted` input, whose
// digest binds the payment), what is observed to answer it (the `Quoted` reading), what the quote says of
// that reading (or the free answer that nothing is for sale), and the report drafted from both. A product
// lives in its own folder under src/products/, adds one member to the `Quoted` union
// (streams/purchase/quoted-product.ts) and one line to the registry (src/service/product-registry.ts).

export type { DraftedReport } from './report-drafter.js';
export type { Sku } from '../../streams/purchase/index.js';

/** The `Quoted` event of one SKU: its `input` and `reading` typed by that SKU's member of the union. */
export type QuotedOf<S extends Sku> = Extract<PurchaseEventData<'Quoted'>, { sku: S }>;

/**
 * A request in its normal form, before anything is fetched or stored: the `Quoted` input, the digest the
 * payment nonce binds (input_sha256), the published price of this input and the buyer's budget.
 */
export interface Asked<S extends Sku = Sku> {
  input: QuotedOf<S>['input'];
  input_sha256: string;
  price_micro: bigint;
  max_total_micro: string;
}

/** What a product's normalize may need of the service besides the request. */
export interface AskContext {
  coveredOrigins: readonly string[];
  /** The service's public base URL: a many-resource product's binding resource is its own endpoint there. */
  baseUrl: string;
}

/**
 * What a product makes of its reading: the quote's own words (signed with the money fields the sale adds,
 * after `purchase_id` and `sku`) and the decision preview, or the product's free answer that nothing is
 * for sale (no fee, nothing stored).
 */
export type Assessment<Unavailable> =
  | {
      available: true;
      /** The signed quote's fields after purchase_id and sku, in the order they are signed. */
      subject: { resource: string; input_sha256: string } & Record<string, unknown>;
      preview: PurchaseEventData<'Quoted'>['decision_preview'];
    }
  | { available: false; body: Unavailable };

/**
 * One product. `Request` is its decoded wire request; `Normalized` what normalizing it yields (`Asked`,
 * possibly with what the product derives beside it); `ObserveDeps` what observing needs (the RSL reader as
 * the service wires it); `Reading` what observing yields, stored as the `Quoted` reading; `Unavailable`
 * its free answer when nothing is for sale.
 */
export interface Product<
  S extends Sku,
  Request = unknown,
  Normalized extends Asked<S> = Asked<S>,
  ObserveDeps = never,
  Reading extends QuotedOf<S>['reading'] = QuotedOf<S>['reading'],
  Unavailable = unknown,
> {
  readonly sku: S;
  /** The request in its one normal form, or a Refusal (bad URL, uncovered origin…); pure. */
  normalize(request: Request, context: AskContext): Normalized;
  /** What is observed to answer it, stored as the `Quoted` reading (the only I/O a product does). */
  observe(deps: ObserveDeps, normalized: Normalized): Promise<Reading>;
  /** What the quote says of the reading, or that nothing is for sale; pure. */
  assess(normalized: Normalized, reading: Reading, purchaseId: string): Assessment<Unavailable>;
  /** The report and evidence payload, from the quote alone, so a resumed delivery drafts the same. */
  draft(quoted: QuotedOf<S>, evidenceKeyId: string): DraftedReport;
}

/** What the money path needs of a product after the quote: its draft. */
export type Drafting<S extends Sku> = Pick<Product<S>, 'sku' | 'draft'>;

/** The registry by SKU; a deployment (or a test) may sell fewer SKUs than the union knows. */
export type Products = { readonly [S in Sku]?: Drafting<S> };

/** The report of a quote, by its SKU's product. */
export function draftReport<S extends Sku>(
  products: Products,
  sku: S,
  quoted: QuotedOf<S>,
  evidenceKeyId: string,
): DraftedReport {
  const product = products[sku];
  if (!product) throw new Error(`no product for SKU ${sku}`);
  return product.draft(quoted, evidenceKeyId);
}
