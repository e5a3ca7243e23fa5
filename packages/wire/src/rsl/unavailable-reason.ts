import * as t from 'io-ts';
import { Channel } from './vocabulary.js';

// Why a quote offers nothing to buy, as the wire states it (docs/wire.md): NO_VERIFIABLE_DECLARATION when
// every discovery channel answered and none carried an association; FETCH_FAILED when a channel could not
// be read. How a reading is judged to be one or the other is src/rsl/unavailability.ts.

export const FetchFailureKind = t.keyof({
  'address-policy': null,
  tls: null,
  timeout: null,
  'http-status': null,
  dns: null,
  connection: null,
  'too-large': null,
  'not-fetchable': null,
});
export type FetchFailureKind = t.TypeOf<typeof FetchFailureKind>;

export const FetchFailure = t.type({
  channel: Channel,
  url: t.string,
  kind: FetchFailureKind,
  /** The fetcher's code (FETCH_*) or HTTP_<status>. */
  code: t.string,
  status: t.union([t.number, t.null]),
});
export type FetchFailure = t.TypeOf<typeof FetchFailure>;

export const UnavailableReason = t.keyof({ NO_VERIFIABLE_DECLARATION: null, FETCH_FAILED: null });
export type UnavailableReason = t.TypeOf<typeof UnavailableReason>;

/** `details` of a FETCH_FAILED answer. */
export const FetchFailedDetails = t.type({ failures: t.array(FetchFailure) });
export type FetchFailedDetails = t.TypeOf<typeof FetchFailedDetails>;

export type Unavailability =
  | { reason: 'NO_VERIFIABLE_DECLARATION' }
  | { reason: 'FETCH_FAILED'; details: FetchFailedDetails };
