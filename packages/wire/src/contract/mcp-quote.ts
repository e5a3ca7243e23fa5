import * as t from 'io-ts';
import { ClaimToken } from './common.js';
import { AvailableQuoteFields, UnavailableQuote } from './quote.js';
import { QuoteSignalsPreview } from './report-signals.js';

// The MCP quote tool's result (spec §2.9: the claim never enters model context). Hosts hand a tool's
// text and structuredContent to the model, so both carry the quote without its claim_token; the claim
// travels only in the result's `_meta`, under CLAIM_META_KEY, which is protocol metadata for the client
// application. The buyer's client reads it there and redeems exactly as over HTTP (docs/wire.md §12).

export const CLAIM_META_KEY = 'io.service/claim';

const { claim_token: _secret, ...shareable } = AvailableQuoteFields;

/** An available quote as MCP shows it: everything but the claim, and where the claim is. */
export const McpAvailableQuote = t.intersection(
  [t.type({ ...shareable, claim_in_meta: t.literal(CLAIM_META_KEY) }), QuoteSignalsPreview],
  'McpAvailableQuote',
);
export type McpAvailableQuote = t.TypeOf<typeof McpAvailableQuote>;

export const McpQuoteResult = t.union([McpAvailableQuote, UnavailableQuote], 'McpQuoteResult');
export type McpQuoteResult = t.TypeOf<typeof McpQuoteResult>;

/** `_meta[CLAIM_META_KEY]` of an available quote: what the buyer's client needs to open the offer. */
export const McpClaimMeta = t.type(
  {
    claim_token: ClaimToken,
    secret: t.literal(true),
    header: t.literal('X-Service-Claim'),
    report_url: t.string,
  },
  'McpClaimMeta',
);
export type McpClaimMeta = t.TypeOf<typeof McpClaimMeta>;
