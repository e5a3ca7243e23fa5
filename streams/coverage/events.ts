import * as t from 'io-ts';
import { IsoTime, NonEmpty } from '@rights-preflight/wire/contract/primitives.js';
import { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';

// Events of the coverage ledger, the one stream `coverage` (spec §1.4: coverage is an explicit list of
// reviewed origins). Who changed it, when, why, and what the review observed are recorded here, so the
// list any instance serves is the fold of this stream (docs/decisions.md, "Coverage in the ledger").

/** An exact https origin in `URL.origin` form, e.g. "https://publisher.example". */
export const CoveredOrigin = new t.Type<string, string, unknown>(
  'CoveredOrigin',
  (u): u is string => typeof u === 'string' && exactHttpsOrigin(u) === u,
  (u, c) => {
    const o = typeof u === 'string' ? exactHttpsOrigin(u) : undefined;
    return o !== undefined && o === u ? t.success(o) : t.failure(u, c, 'must be an exact https origin');
  },
  t.identity,
);

/** The origin a string names exactly (scheme https, no path, query, credentials or port), else undefined. */
export function exactHttpsOrigin(s: string): string | undefined {
  let u: URL;
  try {
    u = new URL(s.trim());
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' || u.port !== '' || u.username || u.password) return undefined;
  if (u.origin !== s.trim().replace(/\/$/, '')) return undefined;
  return u.origin;
}

const ChannelSeen = t.type({
  channel: t.string,
  url: t.string,
  status: t.union([t.number, t.null]),
  /** The fetch failure's code (FETCH_TIMEOUT, FETCH_REDIRECT…), null when it was read. */
  error: t.union([t.string, t.null]),
});

const LicenseDocumentSeen = t.type({
  url: t.string,
  channel: t.string,
  parsed: t.boolean,
  conformant: t.boolean,
});

const PurposeSeen = t.type({ purpose: t.string, classification: t.string, decision: t.string });

/** What a review's discovery on the origin's home page observed: what a buyer of a report would get. */
export const ReviewObservation = t.type({
  /** The resource discovery was run on: the origin's home page. */
  resource: t.string,
  observed_at: IsoTime,
  declaration_found: t.boolean,
  discovery_complete: t.boolean,
  /** robots.txt and the page, as fetched. */
  channels: t.array(ChannelSeen),
  /** The RSL license documents it names, fetched and parsed. */
  license_documents: t.array(LicenseDocumentSeen),
  /** The report's answer for each paid purpose. */
  purposes: t.array(PurposeSeen),
  /** The other AI-use signals met (TDMRep, aipref Content-Usage, Content Signals, noai). */
  signals: t.array(SignalObservation),
  diagnostics: t.array(t.string),
});
export type ReviewObservation = t.TypeOf<typeof ReviewObservation>;

export const Change = t.type({ origin: CoveredOrigin, operator: NonEmpty, reason: NonEmpty, at: IsoTime });

export const OriginReviewedData = t.intersection([Change, t.type({ observed: ReviewObservation })]);
export const OriginAddedData = t.intersection([
  Change,
  /** The review the decision rests on (its observed_at). */
  t.type({ reviewed_at: IsoTime }),
]);
export const OriginWithdrawnData = Change;
/** COVERED_ORIGINS given to the first instance that found the ledger empty (never applied again). */
export const CoverageSeededData = t.type({ origins: t.array(CoveredOrigin), source: NonEmpty, at: IsoTime });

export const CoverageEvent = t.union(
  [
    t.type({ type: t.literal('CoverageSeeded'), data: CoverageSeededData }),
    t.type({ type: t.literal('OriginReviewed'), data: OriginReviewedData }),
    t.type({ type: t.literal('OriginAdded'), data: OriginAddedData }),
    t.type({ type: t.literal('OriginWithdrawn'), data: OriginWithdrawnData }),
  ],
  'CoverageEvent',
);
export type CoverageEvent = t.TypeOf<typeof CoverageEvent>;
export type CoverageEventData<K extends CoverageEvent['type']> = Extract<CoverageEvent, { type: K }>['data'];

export const COVERAGE_STREAM = 'coverage';
