import * as t from 'io-ts';
import { strictType } from './decode.js';
import { UnavailableReason } from '../rsl/unavailable-reason.js';
import {
  BudgetMicro,
  ClaimToken,
  Classification,
  Decision,
  GATEWAY_VERSION,
  IsoTime,
  MicroString,
  PaymentTermsWire,
  PaidPurpose,
  PurchaseId,
  SignedEnvelopeWire,
  Tier,
  UserClass,
} from './common.js';
import { Sha256Hex } from './primitives.js';
import { unavailableMembers } from './unavailable.js';
import { QuoteSignalsPreview } from './report-signals.js';

// POST /v1/rights/quote (spec §2.8/§2.9). `strictType` refuses properties the contract does not
// define (400 UNKNOWN_FIELD).

export const QuoteRequest = strictType(
  {
    resource: t.string, // the URL rule (spec §2.2) is applied by canonicalResourceUrl, which knows the coverage
    purpose: PaidPurpose,
    tier: Tier,
    max_total_micro: BudgetMicro,
  },
  { user_class: UserClass },
  'QuoteRequest',
);
export type QuoteRequest = t.TypeOf<typeof QuoteRequest>;

export const DecisionPreview = t.type({
  purpose: PaidPurpose,
  classification: Classification,
  decision: Decision,
});
export type DecisionPreview = t.TypeOf<typeof DecisionPreview>;

/** What the buyer will be asked to pay (mirrors the 402 offer's accepts[0]; fixed by `signed_quote`). */
export const QuotePayment = t.intersection([PaymentTermsWire, t.type({ amount: MicroString })], 'QuotePayment');

/** The fields of an available quote (McpAvailableQuote shows them all but the claim). */
export const AvailableQuoteFields = {
  version: t.literal(GATEWAY_VERSION),
  available: t.literal(true),
  purchase_id: PurchaseId,
  report_url: t.string, // `/v1/rights/reports/{purchase_id}` (relative to the base URL)
  claim_token: ClaimToken, // private: send as X-Service-Claim; never log it
  resource: t.string, // canonical URL actually evaluated
  purpose: PaidPurpose,
  tier: Tier,
  user_class: UserClass,
  input_sha256: Sha256Hex,
  decision_preview: DecisionPreview,
  charge_micro: MicroString,
  payment: QuotePayment,
  expires_at: IsoTime,
  signed_quote: SignedEnvelopeWire, // payload fields: docs/wire.md §2
  legal_clearance: t.literal(false),
};

export const AvailableQuote = t.intersection(
  [
    t.type(AvailableQuoteFields),
    // Since the signals beside RSL (docs/wire.md §15): quotes made before carry none.
    QuoteSignalsPreview,
  ],
  'AvailableQuote',
);
export type AvailableQuote = t.TypeOf<typeof AvailableQuote>;

/** Nothing to buy, nothing charged: `details` (FETCH_FAILED only) names each channel that could not be read. */
export const UnavailableQuote = t.intersection(
  [
    ...unavailableMembers({
      reason: UnavailableReason,
      resource: t.string,
      purpose: PaidPurpose,
      input_sha256: Sha256Hex,
    }),
    QuoteSignalsPreview,
  ],
  'UnavailableQuote',
);
export type UnavailableQuote = t.TypeOf<typeof UnavailableQuote>;

export const QuoteResponse = t.union([AvailableQuote, UnavailableQuote], 'QuoteResponse');
export type QuoteResponse = t.TypeOf<typeof QuoteResponse>;
