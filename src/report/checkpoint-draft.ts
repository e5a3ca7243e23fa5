import * as t from 'io-ts';
import type { CheckpointDocument, CheckpointDraft } from '@rights-preflight/wire/contract/checkpoint.js';
import { CHECKPOINT_VERSION } from '@rights-preflight/wire/contract/checkpoint.js';
import type { Classification } from '@rights-preflight/wire/contract/common.js';
import { Channel } from '@rights-preflight/wire/rsl/vocabulary.js';
import type { PurchaseEventData } from '../../streams/purchase/index.js';
import type { ReportReading } from './report-reading.js';

// What every product's drafter puts in a report resource's checkpoint (docs/decisions.md,
// "Revalidation"): the question, the verdict, and each RSL document with the association channels that led
// to it and the validators it was served with. Read from the stored reading as report-reading.ts reads
// it (with `is`, permissive): a reading stored before the validators were kept has no `etag` or
// `last_modified` on its observations, and its checkpoint says null for them.

const StoredObservation = t.intersection([
  t.type({ channel: Channel, url: t.string }),
  t.partial({ etag: t.string, last_modified: t.string }),
]);
const StoredDocument = t.type({ url: t.string, channel: Channel, sha256: t.union([t.string, t.null]) });
const StoredSources = t.type({ observations: t.array(StoredObservation), documents: t.array(StoredDocument) });

/** The documents of a stored reading as a checkpoint lists them (none when the reading predates both lists). */
function checkpointDocuments(reading: unknown): CheckpointDocument[] {
  if (!StoredSources.is(reading)) return [];
  const robotsTxt = `${originOf(reading.observations)}/robots.txt`;
  return reading.documents.map((d) => {
    // A document is observed once per channel that led to it; robots.txt and the page are not documents.
    const seen = reading.observations.filter((o) => o.url === d.url && o.channel !== 'resource' && o.url !== robotsTxt);
    const channels = [...new Set(seen.length ? seen.map((o) => o.channel) : [d.channel])];
    const validators = seen[0];
    return {
      url: d.url,
      channels,
      sha256: d.sha256,
      etag: validators?.etag ?? null,
      last_modified: validators?.last_modified ?? null,
    };
  });
}

function originOf(observations: readonly { channel: Channel; url: string }[]): string {
  const resource = observations.find((o) => o.channel === 'resource');
  try {
    return resource ? new URL(resource.url).origin : '';
  } catch {
    return '';
  }
}

/**
 * One report resource's checkpoint, before the money path ties it to the evidence and signs it: the
 * question is the purchase's (its SKU, the purpose and user class asked).
 */
export function checkpointDraft(
  q: PurchaseEventData<'Quoted'>,
  reading: ReportReading,
  stored: unknown,
  classification: Classification,
): CheckpointDraft {
  return {
    type: 'checkpoint',
    version: CHECKPOINT_VERSION,
    sku: q.sku,
    purchase_id: q.purchase_id,
    resource: reading.resource,
    purpose: q.input.purpose,
    user_class: q.input.user_class,
    geo: reading.geo,
    classification,
    observed_at: reading.observed_at,
    declaration_found: reading.declaration_found,
    documents: checkpointDocuments(stored),
  };
}
