import test from 'ava';
import type { Hex } from 'viem';
import { DEFAULT_PAYER_FAILURE_POLICY, payerFailures } from '../../src/money-path/payer-failures.js';

// A payer whose settlements keep reverting is refused for a while (docs/decisions.md, "Authorizations the
// relayer can settle in time"). Pure, with the clock as an input: every time below is made up.

const A = '0x00000000000000000000000000000000000000aA' as Hex;
const B = '0x00000000000000000000000000000000000000bB' as Hex;
const at = (s: number) => new Date(Date.UTC(2026, 10, 28) + s * 1000);

test('three reverts within the hour refuse the payer until the first of them is an hour old', (t) => {
  t.deepEqual(DEFAULT_PAYER_FAILURE_POLICY, { limit: 3, windowSeconds: 3600 });
  const f = payerFailures();
  f.record(A, at(0), 'simulated');
  f.record(A, at(600), 'mined');
  t.is(f.refusedUntil(A, at(601)), undefined, 'two are not enough');
  f.record(A, at(1200), 'mined');
  t.deepEqual(f.refusedUntil(A, at(1201)), at(3600));
  t.deepEqual(f.refusedUntil(A.toLowerCase() as Hex, at(1201)), at(3600), 'an address in any case');
  t.is(f.refusedUntil(B, at(1201)), undefined, 'another payer is not affected');
  t.is(f.refusedCount(at(1201)), 1);
  t.is(f.refusedUntil(A, at(3600)), undefined, 'the first revert aged out: two left in the hour');
  t.is(f.refusedCount(at(3600)), 0);
});

test('reverts spread wider than the window never refuse', (t) => {
  const f = payerFailures();
  for (let i = 0; i < 10; i++) f.record(A, at(i * 1801), 'mined');
  t.is(f.refusedUntil(A, at(9 * 1801)), undefined);
});

test('a revert while refused extends the refusal to the next oldest of the last three', (t) => {
  const f = payerFailures();
  for (const s of [0, 10, 20, 30]) f.record(A, at(s), 'mined');
  t.deepEqual(f.refusedUntil(A, at(31)), at(3610));
});

test('the payers remembered are bounded: the least recently failed is forgotten first', (t) => {
  const f = payerFailures({ limit: 1, windowSeconds: 3600, maxPayers: 2 });
  f.record(A, at(0), 'mined');
  f.record(B, at(1), 'mined');
  f.record('0x00000000000000000000000000000000000000cC', at(2), 'mined');
  t.is(f.refusedUntil(A, at(3)), undefined, 'forgotten');
  t.deepEqual(f.refusedUntil(B, at(3)), at(3601));
});
