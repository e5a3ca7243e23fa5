import test from 'ava';
import { createHash } from 'node:crypto';
import { purchaseId, purchaseIdOfStream, streamName } from '../../../streams/purchase/purchase-id.js';

const input = { sku: 'rights.preflight.v1', key_sha256: 'a'.repeat(64), input_sha256: 'b'.repeat(64) };

test('purchaseId = sha256hex(JCS({sku, key_sha256, input_sha256})), computed independently', (t) => {
  const jcs = `{"input_sha256":"${input.input_sha256}","key_sha256":"${input.key_sha256}","sku":"${input.sku}"}`;
  t.is(purchaseId(input), createHash('sha256').update(jcs, 'utf8').digest('hex'));
  t.regex(purchaseId(input), /^[0-9a-f]{64}$/);
});

test('each field changes the id; extra properties do not (only the three are hashed)', (t) => {
  const base = purchaseId(input);
  t.not(purchaseId({ ...input, sku: 'rights.ingestion-gate.v1' }), base);
  t.not(purchaseId({ ...input, key_sha256: 'c'.repeat(64) }), base);
  t.not(purchaseId({ ...input, input_sha256: 'c'.repeat(64) }), base);
  t.is(purchaseId({ ...input, extra: 'ignored' } as typeof input), base);
});

test('stream names', (t) => {
  const id = purchaseId(input);
  t.is(streamName(id), `purchase-${id}`);
  t.is(purchaseIdOfStream(streamName(id)), id);
  t.is(purchaseIdOfStream('refund-123'), undefined);
});
