import * as t from 'io-ts';
import { Classification, IsoTime, SignedEnvelopeWire } from './common.js';
import { Sha256Hex } from './primitives.js';
import { GatePurpose, UserClass } from '../rsl/purposes.js';
import { Channel } from '../rsl/vocabulary.js';

// The revalidation checkpoint (spec §2.5 "a revalidation checkpoint"; docs/wire.md §14): what
// the service observed of one resource, signed on its own so a buyer can keep it without the report
// and later ask POST /v1/rights/revalidate whether it still stands. It rides in each report resource's
// `checkpoint` as an evidence envelope (same key, same format) whose payload is CheckpointPayload.
// The payload names the report it belongs to by `evidence_sha256`, the digest of the evidence
// *payload* (which does not contain the checkpoint), not of the report (which does).

export const CHECKPOINT_VERSION = 'rights-checkpoint-v1' as const;

/** One RSL document seen for the resource, with the validators it was served with (null when absent). */
export const CheckpointDocument = t.type({
  url: t.string,
  /** The association channels it was reached through (robots, link-header, html-link, html-inline). */
  channels: t.array(Channel),
  /** sha256 of the bytes as fetched; null when it could not be fetched. */
  sha256: t.union([Sha256Hex, t.null]),
  etag: t.union([t.string, t.null]),
  last_modified: t.union([t.string, t.null]),
});
export type CheckpointDocument = t.TypeOf<typeof CheckpointDocument>;

export const CheckpointPayload = t.type(
  {
    type: t.literal('checkpoint'),
    version: t.literal(CHECKPOINT_VERSION),
    /** The SKU and purchase of the report it was delivered in. */
    sku: t.string,
    purchase_id: Sha256Hex,
    resource: t.string,
    purpose: GatePurpose,
    user_class: UserClass,
    geo: t.union([t.string, t.null]),
    classification: Classification,
    observed_at: IsoTime,
    declaration_found: t.boolean,
    documents: t.array(CheckpointDocument),
    /** sha256hex(JCS(evidence.payload)) of the report this checkpoint was delivered in. */
    evidence_sha256: Sha256Hex,
    key_id: t.string,
  },
  'CheckpointPayload',
);
export type CheckpointPayload = t.TypeOf<typeof CheckpointPayload>;

/** What a product drafts for each report resource; the money path adds the report tie and signs. */
export type CheckpointDraft = Omit<CheckpointPayload, 'evidence_sha256' | 'key_id'>;

/** A checkpoint on the wire: an evidence envelope over a CheckpointPayload. */
export const Checkpoint = t.intersection([SignedEnvelopeWire, t.type({ payload: CheckpointPayload })], 'Checkpoint');
export type Checkpoint = t.TypeOf<typeof Checkpoint>;

/** A report resource's `checkpoint`: the envelope, or null in reports delivered before revalidation. */
export const ReportCheckpoint = t.union([Checkpoint, t.null], 'ReportCheckpoint');
