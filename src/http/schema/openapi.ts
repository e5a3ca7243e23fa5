import * as t from 'io-ts';
import { jsonSchemaOf } from '@rights-preflight/wire/contract/json-schema.js';
import type { JsonSchema } from '@rights-preflight/wire/contract/constrained.js';
import { Capabilities } from '@rights-preflight/wire/contract/capabilities.js';
import { QuoteRequest, QuoteResponse, UnavailableQuote } from '@rights-preflight/wire/contract/quote.js';
import { PaidReportResponse } from '@rights-preflight/wire/contract/report.js';
import { PaymentRequiredBody } from '@rights-preflight/wire/contract/offer.js';
import { PreflightDiscovery, PreflightRequest } from '@rights-preflight/wire/contract/preflight.js';
import {
  IngestionGateRequest,
  IngestionGateResponse,
  IngestionGateUnavailable,
  PaymentIntent,
  SiwxProof,
} from '@rights-preflight/wire/contract/ingestion-gate.js';
import {
  RevalidateRequest,
  RevalidationResponse,
  RevalidationUnavailable,
} from '@rights-preflight/wire/contract/revalidation.js';
import { InspectRequest, InspectResponse } from '../../rsl/inspect-answer.js';
import { RefundRequestBody, RefundView } from '@rights-preflight/wire/contract/refund.js';
import { withOperations } from './openapi-operations.js';
import { ReadinessBody } from '@rights-preflight/wire/contract/readiness.js';
import { Landing } from '@rights-preflight/wire/contract/landing.js';
import { headers, parameters } from './openapi-common.js';
import { PATHS } from './openapi-paths.js';

// GET /openapi.json: OpenAPI 3.1 of every HTTP endpoint. Every request and response body schema is
// generated from the io-ts codec the route decodes with or encodes through (json-schema.ts); only the
// prose and the header list are written here. OpenAPI 3.1 uses JSON Schema 2020-12, like the schemas.

export const ErrorBody = t.type(
  { error: t.type({ code: t.string, message: t.string, details: t.UnknownRecord }) },
  'ErrorBody',
);
const Health = t.type({ status: t.string }, 'Health');

const COMPONENTS: Record<string, t.Mixed> = {
  ErrorBody,
  Landing,
  Health,
  ReadinessBody,
  Capabilities,
  QuoteRequest,
  QuoteResponse,
  UnavailableQuote,
  PaidReportResponse,
  PaymentRequiredBody,
  PreflightRequest,
  PreflightDiscovery,
  IngestionGateRequest,
  IngestionGateResponse,
  IngestionGateUnavailable,
  RevalidateRequest,
  RevalidationResponse,
  RevalidationUnavailable,
  PaymentIntent,
  SiwxProof,
  InspectRequest,
  InspectResponse,
  RefundRequestBody,
  RefundView,
};

export function buildOpenApi(opts: { version: string; serverUrl?: string }) {
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, codec] of Object.entries(COMPONENTS)) schemas[name] = jsonSchemaOf(codec);
  return withOperations({
    // No jsonSchemaDialect: the default, OAS 3.1's base dialect, is JSON Schema 2020-12 with the OAS vocabulary,
    // which the schemas below are written in; Swagger UI warns on any other value (docs/decisions.md,
    // "The API reference without warnings").
    openapi: '3.1.0',
    info: {
      title: 'Rights Preflight Service',
      version: opts.version,
      description:
        'Signed reports of the RSL declarations observed for supported HTTPS URLs, ' +
        'sold per report in USDC over HTTP x402 v2. ' +
        'legal_clearance is always false: a report is not a license or legal advice.',
      // The repository grants no license (package.json names none); npm's word for that (docs/decisions.md).
      license: {
        name: 'UNLICENSED (no license is granted)',
        url: 'https://docs.npmjs.com/cli/v10/configuring-npm/package-json#license',
      },
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    paths: PATHS,
    components: { schemas, parameters, headers },
  });
}
