import type { CheckpointDocument } from '@rights-preflight/wire/contract/checkpoint.js';
import type { Classification } from '@rights-preflight/wire/contract/common.js';
import type { RevalidationChange } from '@rights-preflight/wire/contract/revalidation.js';

// What changed between a checkpoint and a new observation of the same resource (docs/wire.md §14,
// "Change kinds"), one record per fact, in a fixed order: documents removed, added, changed, moved (each
// by URL as first seen), then the classification. Pure; the engine decides the classification, this
// only compares. An unchanged resource has no changes (`changed: false`).

interface Observed {
  classification: Classification;
  documents: readonly CheckpointDocument[];
}

const sameChannels = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

export function changesSince(before: Observed, now: Observed, rule: string | null): RevalidationChange[] {
  const old = new Map(before.documents.map((d) => [d.url, d]));
  const cur = new Map(now.documents.map((d) => [d.url, d]));
  const changes: RevalidationChange[] = [];
  for (const d of before.documents)
    if (!cur.has(d.url))
      changes.push({ kind: 'document-removed', url: d.url, channels: d.channels, old_sha256: d.sha256 });
  for (const d of now.documents)
    if (!old.has(d.url))
      changes.push({ kind: 'document-added', url: d.url, channels: d.channels, new_sha256: d.sha256 });
  for (const d of now.documents) {
    const o = old.get(d.url);
    if (o && o.sha256 !== d.sha256)
      changes.push({ kind: 'document-changed', url: d.url, old_sha256: o.sha256, new_sha256: d.sha256 });
  }
  for (const d of now.documents) {
    const o = old.get(d.url);
    if (o && !sameChannels(o.channels, d.channels))
      changes.push({ kind: 'association-moved', url: d.url, old_channels: o.channels, new_channels: d.channels });
  }
  if (before.classification !== now.classification)
    changes.push({ kind: 'classification-changed', old: before.classification, new: now.classification, rule });
  return changes;
}
