import { randomFillSync } from 'node:crypto';

// A fresh 256-bit purchase key (a quote without an Idempotency-Key), as 64 lowercase hex characters.
// The bytes come from the same CSPRNG as `randomBytes(32)`, drawn 256 keys at a time as Node's own
// `randomUUID` draws its entropy: one `randomBytes(32)` per quote was ~4 µs of the event loop, most of
// it the call into OpenSSL (docs/decisions.md "A quote's own CPU"). Each key's bytes are zeroed once
// read, so the pool holds only keys not yet handed out.

const KEYS_PER_DRAW = 256;
const KEY_BYTES = 32;
let pool = Buffer.alloc(0);
let next = 0;

export function randomKeyHex(): string {
  if (next + KEY_BYTES > pool.length) {
    pool = randomFillSync(Buffer.alloc(KEYS_PER_DRAW * KEY_BYTES));
    next = 0;
  }
  const key = pool.toString('hex', next, next + KEY_BYTES);
  pool.fill(0, next, next + KEY_BYTES);
  next += KEY_BYTES;
  return key;
}
