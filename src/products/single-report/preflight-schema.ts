import { PreflightRequest } from '@rights-preflight/wire/contract/preflight.js';
import { jsonSchemaDocument, type JSON_SCHEMA_DIALECT } from '@rights-preflight/wire/contract/json-schema.js';
import type { JsonSchema } from '@rights-preflight/wire/contract/constrained.js';

// GET /v1/rights/preflight: the request contract as a standalone JSON Schema, generated from the
// codec POST /v1/rights/preflight decodes with. Built once: codecs do not change at run time.
let cached: JsonSchema | undefined;

export function preflightRequestSchema(): JsonSchema & { $schema: typeof JSON_SCHEMA_DIALECT } {
  cached ??= jsonSchemaDocument(PreflightRequest, {
    description:
      'Body of POST /v1/rights/preflight (spec §2.8 fields). ' +
      'Also send the header X-Service-Request (your private retry key); ' +
      'an empty POST is discovery only. The resource must also satisfy the URL rule (spec §2.2) ' +
      'and be on a covered origin (GET /v1/capabilities).',
  });
  return cached as JsonSchema & { $schema: typeof JSON_SCHEMA_DIALECT };
}
