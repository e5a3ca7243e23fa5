import test from 'ava';
import fc from 'fast-check';
import { factsOf } from '../../../projections/feed/event-facts.js';
import { isPurchaseFacts, PurchaseFacts } from '../../../streams/purchase/facts.js';
import { purchaseHistories } from '../../bench/support/purchase-histories.js';

// isPurchaseFacts goes straight to the codec of an event's type instead of trying the union's
// members; it must accept and refuse exactly what PurchaseFacts.is does.

const valid = [...purchaseHistories(300, { seed: 3 })]
  .filter((h) => h.path !== 'refund')
  .flatMap((h) => h.events.map((e) => ({ type: e.type, facts: factsOf(h.stream, e.type, e.data) })));

test('every fact of a realistic history passes both checks, and every type is among them', (t) => {
  for (const f of valid) t.true(isPurchaseFacts(f) && PurchaseFacts.is(f), f.type);
  t.true(new Set(valid.map((f) => f.type)).size >= 8);
});

test('property: isPurchaseFacts agrees with PurchaseFacts.is on mutated and foreign input', (t) => {
  const mutated = fc.tuple(fc.constantFrom(...valid), fc.string(), fc.anything()).map(([f, key, value]) => {
    const facts = { ...(f.facts as Record<string, unknown>) };
    const keys = Object.keys(facts);
    const k = keys.length > 0 && key.length % 2 === 0 ? keys[key.length % keys.length]! : key;
    if (value === undefined) delete facts[k];
    else facts[k] = value;
    return { type: f.type, facts };
  });
  const foreign = fc.record({
    type: fc.oneof(
      fc.constantFrom(...new Set(valid.map((f) => f.type)), '__proto__', 'toString', 'constructor', 'hasOwnProperty'),
      fc.string(),
    ),
    facts: fc.anything(),
  });
  const swapped = fc
    .tuple(fc.constantFrom(...valid), fc.constantFrom(...valid))
    .map(([a, b]) => ({ type: a.type, facts: b.facts }));
  fc.assert(
    fc.property(fc.oneof(mutated, foreign, swapped), (x) => isPurchaseFacts(x) === PurchaseFacts.is(x)),
    { numRuns: 3000 },
  );
  t.pass();
});
