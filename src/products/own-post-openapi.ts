import type * as t from 'io-ts';
import {
  json,
  paidAnswer,
  paramRef,
  paymentResponses,
  ref,
  type OpenApiFragment,
  type Operation,
} from '@rights-preflight/wire/contract/openapi-common.js';

// The OpenAPI fragment of a product offered and paid only at its own POST (./own-post-listing.ts): one
// operation taking a JSON body, answering 200 with its paid report or its free answer, 402 with the offer,
// and the payment refusals every paid POST shares. What differs is the product's own words.

export interface OwnPostOperation {
  path: string;
  summary: string;
  /** Its header parameters (components/parameters), in order. */
  parameters: readonly string[];
  /** The component names of its request body, its paid report and its free answer. */
  request: string;
  delivered: string;
  unavailable: string;
  /** What its 200 says it answers. */
  answers: string;
  /** Its refusals by status, beside the payment answers every paid POST has (a status here overrides one). */
  refusals: Record<number, unknown>;
  operation: Operation;
  components: Record<string, t.Mixed>;
}

export const ownPostOpenApi = (o: OwnPostOperation): OpenApiFragment => ({
  delivered: o.delivered,
  paths: {
    [o.path]: {
      post: {
        summary: o.summary,
        parameters: o.parameters.map((p) => paramRef(p)),
        requestBody: { required: true, content: json(ref(o.request)) },
        responses: { 200: paidAnswer(o.answers, [o.delivered, o.unavailable]), ...paymentResponses, ...o.refusals },
      },
    },
  },
  operations: { [`post ${o.path}`]: o.operation },
  components: o.components,
});
