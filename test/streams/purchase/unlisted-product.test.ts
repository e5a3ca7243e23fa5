import test from 'ava';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { StoredQuotedProduct } from '../../../streams/purchase/quoted-product.js';

// A stored `Quoted` may be of a product the union does not name (a test's own, test/README.md), and the
// union's members stay as strict as they were: a known SKU is never let through as an unlisted one.

const unlisted = {
  sku: 'test.echo.v1',
  input: { sku: 'test.echo.v1', resource: 'https://svc/v1/test/echo' },
  reading: {},
};

test('an unlisted product whose input is of its own sku is stored', (t) => {
  t.true(isRight(StoredQuotedProduct.decode(unlisted)));
  t.true(StoredQuotedProduct.is(unlisted));
});

test('an unlisted product is refused when its input is of another sku or names no resource', (t) => {
  t.true(isLeft(StoredQuotedProduct.decode({ ...unlisted, input: { ...unlisted.input, sku: 'other.v1' } })));
  t.true(isLeft(StoredQuotedProduct.decode({ ...unlisted, input: { sku: 'test.echo.v1' } })));
  t.true(isLeft(StoredQuotedProduct.decode({ ...unlisted, reading: 'text' })));
});

test('a known SKU with a malformed input is refused, not taken for an unlisted product', (t) => {
  for (const sku of ['rights.preflight.v1', 'rights.ingestion-gate.v1', 'rights.revalidate.v1']) {
    const loose = { sku, input: { sku, resource: 'https://pub.example/a' }, reading: {} };
    t.true(isLeft(StoredQuotedProduct.decode(loose)), sku);
    t.false(StoredQuotedProduct.is(loose), sku);
  }
});
