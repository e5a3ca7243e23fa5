import test from 'ava';
import { decodeOrThrow } from '@rights-preflight/wire/contract/decode.js';
import { RefundRequestBody } from '@rights-preflight/wire/contract/refund.js';
import { STATUS_OF } from '../../src/http/status-of.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';

// A refund message is stored in an event and printed by operator tools: it must be valid Unicode.
// A lone surrogate used to pass the codec and fail in the store (500); it is a 422 now.

const body = (message: string) => ({ purchase_id: 'a'.repeat(64), reason: 'OTHER', message });

test('a refund message with a lone surrogate is refused with 422', (t) => {
  for (const bad of ['\ud800', 'ok \udfff ok', 'tail \ud83d']) {
    const error = t.throws(() => decodeOrThrow(RefundRequestBody, body(bad)));
    t.true(error instanceof Refusal);
    t.is((error as Refusal).code, 'VALIDATION_FAILED');
    t.is(STATUS_OF[(error as Refusal).code], 422);
    t.is((error as Refusal).details.field, 'message');
  }
});

test('any valid Unicode, astral characters included, is accepted', (t) => {
  t.notThrows(() => decodeOrThrow(RefundRequestBody, body('réfund 😀 漢字 \u{10ffff}')));
});
