import * as t from 'io-ts';
import { FetchFailedDetails } from '../rsl/unavailable-reason.js';
import { GATEWAY_VERSION } from './common.js';

// The answer when there is nothing to buy (a quote, a gate call or a revalidation): nothing is offered,
// stored or charged, and `details` (FETCH_FAILED only) names each channel that could not be read. Each
// answer names its own fields between `available` and `charge_micro`; the codec is otherwise the same.

/** The two members of an unavailable answer's t.intersection, `fields` in the order given. */
export function unavailableMembers<P extends t.Props>(fields: P) {
  const answer = t.type({
    version: t.literal(GATEWAY_VERSION),
    available: t.literal(false),
    ...fields,
    charge_micro: t.literal('0'),
    legal_clearance: t.literal(false),
  });
  const details = t.partial({ details: FetchFailedDetails });
  return [answer, details] as [typeof answer, typeof details];
}
