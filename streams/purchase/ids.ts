import { createHash } from 'node:crypto';
import { canonicalJson } from '../../src/evidence/canonical-json.js';

// DESIGN.md §3: deterministic purchase id, so a retry always finds its stream without a lookup table.
export const purchaseId = (p: { sku: string; key_sha256: string; input_sha256: string }): string =>
  createHash('sha256').update(canonicalJson({ sku: p.sku, key_sha256: p.key_sha256, input_sha256: p.input_sha256 }), 'utf8').digest('hex');

export const STREAM_PREFIX = 'purchase-';
export const streamName = (id: string): string => `${STREAM_PREFIX}${id}`;
