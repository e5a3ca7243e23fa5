import * as t from 'io-ts';
import { jsonSchemaOf } from '@rights-preflight/wire/contract/json-schema.js';
import type { JsonSchema } from '@rights-preflight/wire/contract/constrained.js';
import { Capabilities } from '@rights-preflight/wire/contract/capabilities.js';
import { PaymentRequiredBody } from '@rights-preflight/wire/contract/offer.js';
import { InspectRequest, InspectResponse } from '../../rsl/inspect-answer.js';
import { RefundRequestBody, RefundView } from '@rights-preflight/wire/contract/refund.js';
import { withOperations } from './openapi-operations.js';
import { ReadinessBody } from '@rights-preflight/wire/contract/readiness.js';
import { Landing } from '@rights-preflight/wire/contract/landing.js';
import { headers, parameters, type OpenApiFragment } from '@rights-preflight/wire/contract/openapi-common.js';
import { PATHS, reportPathItem } from './openapi-paths.js';

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
  PaymentRequiredBody,
  InspectRequest,
  InspectResponse,
  RefundRequestBody,
  RefundView,
};

/** `products`: each product's fragment (its paths, operations and bodies), from the product registry. */
export function buildOpenApi(opts: { version: string; serverUrl?: string; products: readonly OpenApiFragment[] }) {
  const schemas: Record<string, JsonSchema> = {};
  const components = Object.assign({}, COMPONENTS, ...opts.products.map((p) => p.components));
  for (const [name, codec] of Object.entries(components)) schemas[name] = jsonSchemaOf(codec as t.Mixed);
  const paths = Object.assign(
    { ...PATHS, '/v1/rights/reports/{id}': reportPathItem(opts.products.map((p) => p.delivered)) },
    ...opts.products.map((p) => p.paths),
  );
  const operations = Object.assign({}, ...opts.products.map((p) => p.operations));
  return withOperations(
    {
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
      paths,
      components: { schemas, parameters, headers },
    },
    operations,
  );
}
