import * as t from 'io-ts';
import { Micro, Sha256Hex, TxHash } from './primitives.js';
import { Classification, Decision } from '../rsl/vocabulary.js';
import { SignalsSummary } from '../signals/signal-observation.js';

// One line of a bulk check's manifest (`rights-preflight check`, README "Check a crawl"; ../../vectors/
// README.md spells every field for other languages). The manifest is JSON Lines, appended as the check
// goes; for a URL the LAST line is its state, so a run killed half-way is resumed by reading it back.
// No secret is ever written here: the binding key and the signed payment live only in the encrypted
// checkpoint store, found again by `purchase_id`.
//
//   pending     a gate call is about to be paid: purchase_id is known (derived from the key and input
//               before anything is sent); nothing is known to be charged yet.
//   bought      a paid report that verified: classification, decision, report_file, transaction.
//   held        paid (or maybe paid) and never a verified report: kept for an operator; reason says why.
//   not_bought  nothing charged for this URL: reason.code says why (ORIGIN_NOT_COVERED, INVALID_URL,
//               NO_VERIFIABLE_DECLARATION, FETCH_FAILED, BUDGET_EXHAUSTED, or the refusal's code).

export const CHECK_MANIFEST_FORMAT = 'rights-preflight-check-v1' as const;

export const ManifestStatus = t.keyof({ pending: null, bought: null, held: null, not_bought: null });
export type ManifestStatus = t.TypeOf<typeof ManifestStatus>;

export const ManifestReason = t.type({ code: t.string, message: t.string });
export type ManifestReason = t.TypeOf<typeof ManifestReason>;

const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

export const ManifestLine = t.exact(
  t.type(
    {
      format: t.literal(CHECK_MANIFEST_FORMAT),
      /** The URL as the input listed it (trimmed). The key of the line. */
      url: t.string,
      /** The canonical resource URL the service answers for; null when the URL is not one it accepts. */
      resource: nullable(t.string),
      status: ManifestStatus,
      classification: nullable(Classification),
      decision: nullable(Decision),
      /** The AI-use signals beside RSL, summarized (docs/wire.md §15); null when no report says. */
      signals_summary: nullable(SignalsSummary),
      /** The saved report (verifiable offline with `rights-preflight verify`), relative to the manifest. */
      report_file: nullable(t.string),
      /** The gate call's purchase; every URL of one call shares it (and its one transfer). */
      purchase_id: nullable(Sha256Hex),
      transaction: nullable(TxHash),
      /** What the gate call charged or will charge, whole (not per URL): sum it over distinct purchase_id. */
      charge_micro: Micro,
      reason: nullable(ManifestReason),
    },
    'ManifestLine',
  ),
);
export type ManifestLine = t.TypeOf<typeof ManifestLine>;
