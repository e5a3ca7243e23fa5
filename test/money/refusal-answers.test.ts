import test from 'ava';
import { ApiError } from '../../src/http/errors.js';
import { MONEY_CODES } from '../../src/http/wire/codes.js';
import { REFUSAL_ANSWERS, refusalAnswer } from '../../src/purchase/refusal-answers.js';
import { PurchaseRefused, REFUSAL_CODES } from '../../streams/purchase/index.js';

// Every purchase-stream refusal has exactly one HTTP answer, and it is a code the wire contract knows.

const PAYMENT_402_CODES = new Set(['PAYMENT_WINDOW_EXPIRED']);

test('one answer per refusal code; each is a documented wire code with its documented status', (t) => {
  t.deepEqual(Object.keys(REFUSAL_ANSWERS).sort(), [...REFUSAL_CODES].sort());
  for (const code of REFUSAL_CODES) {
    const a = REFUSAL_ANSWERS[code];
    if (a === 'internal') continue;
    if (PAYMENT_402_CODES.has(a.code)) { t.is(a.status, 402, code); continue; }
    t.is(MONEY_CODES[a.code as keyof typeof MONEY_CODES] as number, a.status, `${code} → ${a.code}`);
  }
});

test('lock and conflict states are 409, expiry and closed are 410, internal invariants stay errors', (t) => {
  const status = (code: (typeof REFUSAL_CODES)[number]) => {
    const r = refusalAnswer(new PurchaseRefused(code, 'x'));
    return r instanceof ApiError ? r.status : 'internal';
  };
  for (const c of ['PURCHASE_LOCKED', 'PURCHASE_ALREADY_PAYING', 'NOT_SETTLED', 'ALREADY_DELIVERED', 'ALREADY_SETTLED'] as const) t.is(status(c), 409, c);
  for (const c of ['OFFER_EXPIRED', 'QUOTE_EXPIRED', 'PURCHASE_CLOSED'] as const) t.is(status(c), 410, c);
  for (const c of ['INVALID_EVENT', 'OFFER_MISMATCH', 'DELIVERY_MISMATCH'] as const) t.is(status(c), 'internal', c);
  const locked = refusalAnswer(new PurchaseRefused('PURCHASE_LOCKED', 'x')) as ApiError;
  t.is(locked.code, 'PURCHASE_HELD');
  t.deepEqual(locked.details, { refusal: 'PURCHASE_LOCKED' });
  const expired = refusalAnswer(new PurchaseRefused('OFFER_EXPIRED', 'x')) as ApiError;
  t.is(expired.code, 'OFFER_EXPIRED');
});
