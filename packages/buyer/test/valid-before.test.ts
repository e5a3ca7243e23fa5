import test from 'ava';
import { BuyerRefused } from '../src/index.js';
import { validBeforeFor } from '../src/pay.js';

// The buyer's validBefore (docs/wire.md §4, "The settlement window"): as far ahead as the offer allows, and
// nothing signed for an offer shorter than the settlement window the service published.

test('validBefore is now + maxTimeoutSeconds, with or without a known window', (t) => {
  t.is(validBeforeFor(1_000, 300, 68), '1300');
  t.is(validBeforeFor(1_000, 300), '1300');
  t.is(validBeforeFor(1_000, 68, 68), '1068', 'exactly the window is enough');
});

test('an offer shorter than the settlement window is refused before signing', (t) => {
  const err = t.throws(() => validBeforeFor(1_000, 60, 68), { instanceOf: BuyerRefused });
  t.is((err as BuyerRefused).code, 'OFFER_WINDOW_TOO_SHORT');
});
