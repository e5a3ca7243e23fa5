import * as t from 'io-ts';
import { codedMessage, strictType } from './decode.js';
import { patternString, type JsonSchema } from './constrained.js';
import { checkResourceUrlSyntax } from '../rsl/resource-url.js';
import {
  BudgetMicro,
  GATEWAY_VERSION,
  MicroString,
  PaidPurpose,
  PaymentTermsWire,
  SINGLE_REPORT_SKU,
  Tier,
  UserClass,
} from './common.js';

// POST/GET /v1/rights/preflight (spec §4). The request is the quote request's fields (spec §2.8) with
// the binding key in `X-Service-Request`; the unavailable and paid answers are the money path's
// (UnavailableQuote, PaidReportResponse), so a preflight result is byte-compatible with a quoted one.

/**
 * A resource as the body carries it: a string that passes the spec §2.2 syntax rule. A failure keeps
 * the rule's own RESOURCE_* code (decodeOrThrow answers 422 with it), so preflight and the gate name
 * the same code as quote and inspect for the same URL. Coverage needs the coverage list and runs
 * after decoding (canonicalResourceUrl). The JSON Schema still publishes the https/length shape.
 */
export const ResourceUrl = Object.assign(
  new t.Type<string, string, unknown>(
    'ResourceUrl',
    (u): u is string => typeof u === 'string' && checkResourceUrlSyntax(u).ok,
    (u, c) => {
      if (typeof u !== 'string') return t.string.validate(u, t.appendContext(c, '', t.string, u));
      const checked = checkResourceUrlSyntax(u);
      return checked.ok ? t.success(u) : t.failure(u, c, codedMessage(checked.code, checked.message));
    },
    t.identity,
  ),
  {
    jsonSchema: {
      type: 'string',
      format: 'uri',
      maxLength: 2048,
      pattern: /^https:\/\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})+$/.source,
    } as JsonSchema,
  },
);

export const PreflightRequest = strictType(
  { resource: ResourceUrl, purpose: PaidPurpose, tier: Tier, max_total_micro: BudgetMicro },
  { user_class: UserClass },
  'PreflightRequest',
);
export type PreflightRequest = t.TypeOf<typeof PreflightRequest>;

/** X-Service-Request: the buyer's private retry/binding key (never logged, stored only as sha256). */
export const ServiceRequestKey = patternString(
  'ServiceRequestKey',
  /^[A-Za-z0-9_-]{32,128}$/,
  'must be 32 to 128 characters of A-Z a-z 0-9 _ -',
);

const HeaderDoc = t.type({ name: t.string, required: t.boolean, description: t.string });

/** The answer to an empty POST: what to send, how to bind, what it costs. Nothing is evaluated or stored. */
export const PreflightDiscovery = t.type({
  version: t.literal(GATEWAY_VERSION),
  discovery: t.literal(true),
  sku: t.literal(SINGLE_REPORT_SKU),
  endpoint: t.literal('/v1/rights/preflight'),
  method: t.literal('POST'),
  request_schema_url: t.literal('/v1/rights/preflight'),
  headers: t.array(HeaderDoc),
  purposes: t.array(PaidPurpose),
  prices_micro: t.type({ fresh: MicroString, deep: MicroString }),
  payment: PaymentTermsWire,
  request_binding: t.type({
    extension: t.literal('service-request-binding'),
    version: t.literal('service-request-v1'),
    nonce_prefix: t.string,
    nonce_rule: t.string,
  }),
  steps: t.array(t.string),
  charge_micro: t.literal('0'),
  legal_clearance: t.literal(false),
});
export type PreflightDiscovery = t.TypeOf<typeof PreflightDiscovery>;
