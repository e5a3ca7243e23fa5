import { recoverAddress, type Hex } from 'viem';

// ecrecover is the costliest step of verifying a payment (a secp256k1 point recovery, ~2 ms of CPU) and
// one payment is verified twice in a row: by the service's own checks (verify-authorization.ts) and by the
// x402 SDK's verify (its signer's verifyTypedData). Recovery is a pure function of (digest, signature), so
// the second asks this memo. Bounded: the oldest entries go first (Map keeps insertion order).

const LIMIT = 4_096;
const recovered = new Map<string, Hex>();

/** The address that signed `digest`, recovered once per (digest, signature). Throws as recoverAddress does. */
export async function recoverSignerOf(digest: Hex, signature: Hex): Promise<Hex> {
  const key = `${digest.toLowerCase()}:${signature.toLowerCase()}`;
  const known = recovered.get(key);
  if (known) return known;
  const address = await recoverAddress({ hash: digest, signature });
  if (recovered.size >= LIMIT) recovered.delete(recovered.keys().next().value!);
  recovered.set(key, address);
  return address;
}
