import test from 'ava';
import { decodeOrThrow } from '../../src/http/decode.js';
import { ApiError } from '../../src/http/errors.js';
import { RefundRequestBody } from '../../src/http/wire/refund.js';

// A refund message is stored in an event and printed by operator tools: it must be valid Unicode.
// A lone surrogate used to pass the codec and fail in the store (500); it is a 422 now.

const body = (message: string) => ({ purchase_id: 'a'.repeat(64), reason: 'OTHER', message });

test('a refund message with a lone surrogate is refused with 422', (t) => {
  for (const bad of ['\ud800', 'ok \udfff ok', 'tail \ud83d']) {
    const error = t.throws(() => decodeOrThrow(RefundRequestBody, body(bad)));
    t.true(error instanceof ApiError);
    t.is((error as ApiError).status, 422);
    t.is((error as ApiError).code, 'VALIDATION_FAILED');
    t.is((error as ApiError).details.field, 'message');
  }
});

test('any valid Unicode, astral characters included, is accepted', (t) => {
  t.notThrows(() => decodeOrThrow(RefundRequestBody, body('réfund 😀 漢字 \u{10ffff}')));
});
