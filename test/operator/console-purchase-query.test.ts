import test from 'ava';
import { consolePurchaseQuery, SKUS } from '../../src/operator/console-purchase-query.js';
import { usdc } from '../../src/operator/console-html.js';

// The console list's query string: empty fields are no filter, a day is one UTC day of quotes, and a
// wrong status, sku or day is refused with words naming the field.

test('empty fields filter nothing; a day becomes [day, next day) of quote times', (t) => {
  t.deepEqual(consolePurchaseQuery({ status: '', sku: '', origin: ' ', day: '' }).filter, { limit: 100 });
  t.deepEqual(
    consolePurchaseQuery({
      status: 'delivered',
      sku: 'rights.ingestion-gate.v1',
      origin: 'https://pub.example',
      day: '2026-02-28',
    }).filter,
    {
      status: 'delivered',
      sku: 'rights.ingestion-gate.v1',
      origin: 'https://pub.example',
      since: '2026-02-28T00:00:00.000Z',
      until: '2026-03-01T00:00:00.000Z',
      limit: 100,
    },
  );
});

test('every SKU sold can be filtered on, revalidations too', (t) => {
  t.deepEqual([...SKUS].sort(), ['rights.ingestion-gate.v1', 'rights.preflight.v1', 'rights.revalidate.v1']);
  t.like(consolePurchaseQuery({ sku: 'rights.revalidate.v1' }).filter, { sku: 'rights.revalidate.v1' });
});

test('a wrong status, sku or day is refused naming it', (t) => {
  t.throws(() => consolePurchaseQuery({ status: 'paid' }), { message: /--status must be one of/ });
  t.throws(() => consolePurchaseQuery({ sku: 'rights.other' }), { message: /^sku must be one of/ });
  t.throws(() => consolePurchaseQuery({ day: '2026-02-30' }), { message: /^day must be a calendar day/ });
});

test('revenue is shown in USDC with six decimals', (t) => {
  t.is(usdc('0'), '0.000000');
  t.is(usdc('20000'), '0.020000');
  t.is(usdc('123456789'), '123.456789');
});
