import test from 'ava';
import { presentRefusal, PURCHASE_REFUSAL_ON_WIRE, STATUS_OF } from '../../src/http/status-of.js';
import { PurchaseRefused, REFUSAL_CODES } from '../../streams/purchase/index.js';

// Every purchase-stream refusal has exactly one HTTP answer, and it is a code the wire contract knows.

test('one answer per refusal code; each is a documented wire code with its documented status', (t) => {
  t.deepEqual(Object.keys(PURCHASE_REFUSAL_ON_WIRE).sort(), [...REFUSAL_CODES].sort());
  for (const code of REFUSAL_CODES) {
    const a = PURCHASE_REFUSAL_ON_WIRE[code];
    if (a === 'internal') continue;
    t.true(STATUS_OF[a.code] !== undefined, `${code} → ${a.code} has a status`);
    t.is(presentRefusal(new PurchaseRefused(code, 'x'))?.status, STATUS_OF[a.code], `${code} → ${a.code}`);
  }
  t.is(STATUS_OF.PAYMENT_WINDOW_EXPIRED, 402);
});

test('lock and conflict states are 409, expiry and closed are 410, internal invariants stay errors', (t) => {
  const status = (code: (typeof REFUSAL_CODES)[number]) =>
    presentRefusal(new PurchaseRefused(code, 'x'))?.status ?? 'internal';
  for (const c of [
    'PURCHASE_LOCKED',
    'PURCHASE_ALREADY_PAYING',
    'NOT_SETTLED',
    'ALREADY_DELIVERED',
    'ALREADY_SETTLED',
  ] as const)
    t.is(status(c), 409, c);
  for (const c of ['OFFER_EXPIRED', 'QUOTE_EXPIRED', 'PURCHASE_CLOSED'] as const) t.is(status(c), 410, c);
  for (const c of ['INVALID_EVENT', 'OFFER_MISMATCH', 'DELIVERY_MISMATCH'] as const) t.is(status(c), 'internal', c);
  const locked = presentRefusal(new PurchaseRefused('PURCHASE_LOCKED', 'x'))!;
  t.is(locked.code, 'PURCHASE_HELD');
  t.deepEqual(locked.details, { refusal: 'PURCHASE_LOCKED' });
  const expired = presentRefusal(new PurchaseRefused('OFFER_EXPIRED', 'x'))!;
  t.is(expired.code, 'OFFER_EXPIRED');
  t.is(presentRefusal(new PurchaseRefused('NOT_SETTLED', 'x'))!.headers['Retry-After'], '2');
});
