import { keccak_256 } from '@noble/hashes/sha3.js';
import { recover } from 'tiny-secp256k1';
import { bytesToHex, getAddress, hexToBytes, type Hex } from 'viem';

// ecrecover is the costliest step of verifying a payment and one payment is verified twice in a row: by
// the service's own checks (verify-authorization.ts) and by the settlement's verify (eip3009-transfer.ts
// `signedBy`). Recovery is a pure function of (digest, signature), so the second asks this memo. Bounded:
// the oldest entries go first (Map keeps insertion order).
//
// The recovery itself is libsecp256k1 compiled to WebAssembly (tiny-secp256k1, no install script, no
// native build): about 1 ms where viem's pure-JS @noble/curves took about 5 ms on this machine under load
// (docs/decisions.md, "A paid redemption's CPU"). It accepts and refuses what viem's recoverAddress does
// (test/payment/recovered-signers.test.ts holds the two equal on random, high-s and malformed signatures).

const LIMIT = 4_096;
const recovered = new Map<string, Hex>();

/** The recovery bit of a 65-byte signature's last byte, as viem reads it (0/1 or the legacy 27/28). */
function recoveryBit(v: number): 0 | 1 {
  if (v === 0 || v === 27) return 0;
  if (v === 1 || v === 28) return 1;
  throw new Error('Invalid yParityOrV value');
}

/** The address whose key signed the 32-byte `digest`; throws for a signature that recovers nothing. */
export function recoverAddressOf(digest: Hex, signature: Hex): Hex {
  const sig = hexToBytes(signature);
  if (sig.length !== 65) throw new Error('invalid signature length');
  const hash = hexToBytes(digest);
  if (hash.length !== 32) throw new Error('invalid digest length');
  const point = recover(hash, sig.subarray(0, 64), recoveryBit(sig[64]!), false);
  if (!point) throw new Error('signature recovers no public key');
  // publicKeyToAddress, with the keccak the EIP-3009 digest uses (one implementation hot in the JIT, not
  // two) and viem's checksum, which it keeps per address.
  return getAddress(bytesToHex(keccak_256(point.subarray(1)).subarray(12)));
}

/** The address that signed `digest`, recovered once per (digest, signature). Throws as recoverAddress does. */
export async function recoverSignerOf(digest: Hex, signature: Hex): Promise<Hex> {
  const key = `${digest.toLowerCase()}:${signature.toLowerCase()}`;
  const known = recovered.get(key);
  if (known) return known;
  const address = recoverAddressOf(digest, signature);
  if (recovered.size >= LIMIT) recovered.delete(recovered.keys().next().value!);
  recovered.set(key, address);
  return address;
}
