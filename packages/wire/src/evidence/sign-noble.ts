import { ed } from './noble-sync.js';
import type { ByteSigner } from './envelope.js';

// Ed25519 signing with @noble/ed25519 (pure JS, browser-safe). The service signs with node:crypto
// (sign-node.ts, about 10x faster in bench:sign); this one exists for the benchmark, the cross-implementation
// test and any browser-side signer.

export function nobleByteSigner(seed: Uint8Array): ByteSigner {
  if (seed.length !== 32) throw new RangeError('an Ed25519 seed is 32 bytes');
  const secret = Uint8Array.from(seed); // own copy: a caller wiping its buffer must not change our key
  const publicKey = ed.getPublicKey(secret);
  return { publicKey, signBytes: (message) => ed.sign(message, secret) };
}
