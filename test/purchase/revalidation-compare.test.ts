import test from 'ava';
import type { CheckpointDocument } from '@rights-preflight/wire/contract/checkpoint.js';
import { changesSince } from '../../src/products/revalidation/compare.js';

// What a revalidation reports as changed (docs/wire.md §14, "Change kinds"): pure, one record per fact,
// removed → added → changed → moved → classification.

const A = 'https://pub.example/a.xml';
const B = 'https://pub.example/b.xml';
const doc = (url: string, sha: string | null, channels: CheckpointDocument['channels'] = ['robots']) => ({
  url,
  channels,
  sha256: sha,
  etag: null,
  last_modified: null,
});
const PERMITTED = 'PERMITTED_BY_OBSERVED_DECLARATION' as const;

test('the same documents through the same channels and the same verdict: no change', (t) => {
  const same = { classification: PERMITTED, documents: [doc(A, '1'.repeat(64), ['robots', 'link-header'])] };
  const reordered = { classification: PERMITTED, documents: [doc(A, '1'.repeat(64), ['link-header', 'robots'])] };
  t.deepEqual(changesSince(same, reordered, 'permitted-free'), []);
});

test('every kind of change, in its order, each once', (t) => {
  const before = { classification: PERMITTED, documents: [doc(A, '1'.repeat(64)), doc(B, '2'.repeat(64))] };
  const now = {
    classification: 'CONFLICT' as const,
    documents: [doc(A, '3'.repeat(64), ['html-link']), doc('https://pub.example/c.xml', null, ['link-header'])],
  };
  t.deepEqual(changesSince(before, now, 'equal-scope-conflict'), [
    { kind: 'document-removed', url: B, channels: ['robots'], old_sha256: '2'.repeat(64) },
    { kind: 'document-added', url: 'https://pub.example/c.xml', channels: ['link-header'], new_sha256: null },
    { kind: 'document-changed', url: A, old_sha256: '1'.repeat(64), new_sha256: '3'.repeat(64) },
    { kind: 'association-moved', url: A, old_channels: ['robots'], new_channels: ['html-link'] },
    { kind: 'classification-changed', old: PERMITTED, new: 'CONFLICT', rule: 'equal-scope-conflict' },
  ]);
});
