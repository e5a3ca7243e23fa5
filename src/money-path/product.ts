import type { PurchaseEventData, Sku } from '../../streams/purchase/index.js';
import type { DraftedReport } from './report-drafter.js';

// A product is what a SKU sells on the money path (docs/decisions.md, "Products on the money path").
// The money path quotes, offers, takes payment, settles and delivers the same way for every SKU; what
// differs is asked of the product: the question in its normal form (the `Quoted` input, whose digest
// binds the payment), what is observed to answer it (the `Quoted` reading), and the report drafted from
// both. A product lives in its own folder under src/products/ and adds one member to the `Quoted` union
// (streams/purchase/quoted-product.ts); service.ts hands the money path the registry below.

/** The `Quoted` event of one SKU: its `input` and `reading` typed by that SKU's member of the union. */
export type QuotedOf<S extends Sku> = Extract<PurchaseEventData<'Quoted'>, { sku: S }>;

/**
 * One product. `Request` is its decoded wire request; `Normalized` what normalizing it yields (the
 * `Quoted` input, possibly with what the product derives beside it, such as the price); `ObserveDeps`
 * what observing needs (the RSL reader as the service wires it); `Reading` what observing yields, which
 * is stored as the `Quoted` reading.
 */
export interface Product<
  S extends Sku,
  Request = unknown,
  Normalized = unknown,
  ObserveDeps = never,
  Reading extends QuotedOf<S>['reading'] = QuotedOf<S>['reading'],
> {
  readonly sku: S;
  /** The request in its one normal form, or a Refusal (bad URL, uncovered origin…); pure. */
  normalize(request: Request, coveredOrigins: readonly string[]): Normalized;
  /** What is observed to answer it, stored as the `Quoted` reading (the only I/O a product does). */
  observe(deps: ObserveDeps, normalized: Normalized): Promise<Reading>;
  /** The report and evidence payload, from the quote alone, so a resumed delivery drafts the same. */
  draft(quoted: QuotedOf<S>, evidenceKeyId: string): DraftedReport;
}

/** What the money path needs of a product: its draft (quoting and observing run in the product's flow). */
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
