import * as secp from '@noble/secp256k1';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { checksumAddress } from './address.js';
import { fromHex, keccak, toHex, utf8, type Hex } from './keccak.js';
import { typedDataDigest, type TransferAuthorizationTypedData } from './typed-data.js';

// What the buyer signs with: its address, the EIP-3009 authorization (EIP-712) and the sign-in message
// (EIP-191). A viem LocalAccount (`privateKeyToAccount`) is one; `privateKeyAccount` is the package's own,
// on @noble/secp256k1, so the buyer installs without viem (docs/decisions.md, "The buyer as its own
// package"). Both give the same bytes: RFC 6979 signatures are deterministic (packages/buyer/test/account.test.ts).

export interface BuyerAccount {
  address: Hex;
  signTypedData(data: TransferAuthorizationTypedData): Promise<Hex>;
  signMessage(args: { message: string }): Promise<Hex>;
}

// Synchronous signing needs these two; set once, as the wire package's evidence/noble-sync.ts does for Ed25519.
secp.hashes.sha256 = sha256;
secp.hashes.hmacSha256 = (key, message) => hmac(sha256, key, message);

/** r ‖ s ‖ v (v = 27 + recovery), the signature form EIP-3009 and EIP-191 verifiers read. */
function signDigest(digest: Uint8Array, privateKey: Uint8Array): Hex {
  const recovered = secp.sign(digest, privateKey, { prehash: false, format: 'recovered' });
  // noble's recovered format is recovery ‖ r ‖ s.
  const out = new Uint8Array(65);
  out.set(recovered.subarray(1, 65), 0);
  out[64] = 27 + recovered[0]!;
  return toHex(out);
}

/** Whether `s` is a secp256k1 private key as the buyer takes one: 0x and 64 hex digits, either case. */
export const isPrivateKeyHex = (s: string): boolean => /^0x[0-9a-fA-F]{64}$/.test(s);

export function privateKeyAccount(privateKey: string): BuyerAccount {
  if (!isPrivateKeyHex(privateKey)) throw new TypeError('a private key is 0x and 64 hex digits');
  const key = fromHex(privateKey);
  const publicKey = secp.getPublicKey(key, false);
  const address = checksumAddress(toHex(keccak(publicKey.subarray(1)).subarray(12)));
  return {
    address,
    signTypedData: async (data) => signDigest(typedDataDigest(data), key),
    signMessage: async ({ message }) => {
      const bytes = utf8(message);
      const prefixed = utf8(`\u0019Ethereum Signed Message:\n${bytes.length}`);
      const all = new Uint8Array(prefixed.length + bytes.length);
      all.set(prefixed);
      all.set(bytes, prefixed.length);
      return signDigest(keccak(all), key);
    },
  };
}

/** A fresh private key (a throwaway identity, e.g. the CLI's `quote` without a key). */
export const generatePrivateKey = (): Hex => toHex(secp.utils.randomSecretKey());
