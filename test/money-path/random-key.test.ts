import test from 'ava';
import { randomKeyHex } from '../../src/money-path/random-key.js';

// Purchase keys drawn from a pool of random bytes (src/money-path/random-key.ts): each is 256 bits of
// lowercase hex, and no key repeats across the pool's refills.

test('keys are 64 lowercase hex characters and never repeat, across several draws of the pool', (t) => {
  const keys = Array.from({ length: 1000 }, () => randomKeyHex());
  for (const k of keys) t.regex(k, /^[0-9a-f]{64}$/);
  t.is(new Set(keys).size, keys.length);
  // Not a zeroed slot handed out: a 32-byte key of zeros has probability 2^-256.
  t.false(keys.includes('0'.repeat(64)));
});
