import { isLeft } from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { SINGLE_REPORT_SKU, Tier } from '@rights-preflight/wire/contract/common.js';
import { GATE_SKU } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { REVALIDATE_SKU } from '@rights-preflight/wire/contract/revalidation.js';
import { GatePurpose, ReportPurpose, UserClass } from '@rights-preflight/wire/rsl/purposes.js';

// The product's own part of a `Quoted` event: its `sku`, the normalized `input` whose digest is
// `input_sha256`, and the `reading` observed at quote time — one member per product, keyed by `sku`
// (docs/decisions.md, "Products on the money path"). Adding a product adds one member here.
//
// `reading` stays a record at this layer: a stored reading is embedded verbatim in the signed evidence,
// was written by whichever RSL reader was current, and is decoded with the product's own codec when it
// is drafted into a report (src/products/*/); decoding it on every fold would cost every load and could
// refuse an old stream whose reading predates a field.

export const SingleReportInput = t.type({
  sku: t.literal(SINGLE_REPORT_SKU),
  resource: t.string,
  purpose: ReportPurpose,
  tier: Tier,
  user_class: UserClass,
});
export type SingleReportInput = t.TypeOf<typeof SingleReportInput>;

export const SingleReportQuoted = t.type({
  sku: t.literal(SINGLE_REPORT_SKU),
  input: SingleReportInput,
  /** A ResourceReading (src/rsl/reading.ts). */
  reading: t.UnknownRecord,
});

/** A gate's input: the single-report fields (resource = the canonical gate URL) plus the request body's. */
export const IngestionGateInput = t.type({
  sku: t.literal(GATE_SKU),
  resource: t.string,
  purpose: GatePurpose,
  tier: Tier,
  user_class: UserClass,
  geo: t.union([t.string, t.null]),
  freshness_seconds: t.number,
  resources: t.array(t.string),
});
export type IngestionGateInput = t.TypeOf<typeof IngestionGateInput>;

const IngestionGateQuoted = t.type({
  sku: t.literal(GATE_SKU),
  input: IngestionGateInput,
  /** `{version: 'rsl-gate-readings-v1', readings: ResourceReading[]}`, one reading per resource. */
  reading: t.UnknownRecord,
});

/** A revalidation's input: the gate-like context (resource = the canonical revalidate URL) and the
 *  checkpoints asked about (their resources, and the digest of each checkpoint envelope, in request order). */
export const RevalidationInput = t.type({
  sku: t.literal(REVALIDATE_SKU),
  resource: t.string,
  purpose: GatePurpose,
  tier: Tier,
  user_class: UserClass,
  geo: t.union([t.string, t.null]),
  resources: t.array(t.string),
  checkpoint_sha256s: t.array(t.string),
});
export type RevalidationInput = t.TypeOf<typeof RevalidationInput>;

const RevalidationQuoted = t.type({
  sku: t.literal(REVALIDATE_SKU),
  input: RevalidationInput,
  /** `{version: 'rsl-revalidation-readings-v1', readings: ResourceReading[],
   *   previous: [{checkpoint, report_sha256}]}` (src/products/revalidation/report.ts). */
  reading: t.UnknownRecord,
});

export const QuotedProduct = t.union([SingleReportQuoted, IngestionGateQuoted, RevalidationQuoted]);
export type QuotedProduct = t.TypeOf<typeof QuotedProduct>;
/** The SKUs sold: the keys of the product registry. */
export type Sku = QuotedProduct['sku'];

const KNOWN_SKUS: ReadonlySet<string> = new Set(QuotedProduct.types.map((member) => member.props.sku.value));
const UnlistedShape = t.type({
  sku: t.string,
  input: t.intersection([t.type({ sku: t.string, resource: t.string }), t.UnknownRecord]),
  reading: t.UnknownRecord,
});
const isUnlisted = (u: unknown): boolean => UnlistedShape.is(u) && !KNOWN_SKUS.has(u.sku) && u.input.sku === u.sku;

/**
 * What a stored `Quoted` holds of its product: a member of the union, or a product no member names (one
 * defined beside the service, as a test's own product is: its `sku` none of the union's, its `input` of
 * that sku naming its binding resource, its reading a record). Typed as the union: the service's code
 * knows only the union's products, and the members stay as strict as they are; an unlisted product types
 * its own quote, and one that ships adds its member above (docs/decisions.md, "One sale flow").
 */
export const StoredQuotedProduct = new t.Type<QuotedProduct, QuotedProduct, unknown>(
  'StoredQuotedProduct',
  (u): u is QuotedProduct => QuotedProduct.is(u) || isUnlisted(u),
  (u, c) => {
    const listed = QuotedProduct.validate(u, c);
    return isLeft(listed) && isUnlisted(u) ? t.success(u as QuotedProduct) : listed;
  },
  (a) => a,
);
