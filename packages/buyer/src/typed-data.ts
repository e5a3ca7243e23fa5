import { authorizationDigestBytes } from '@rights-preflight/wire/payment/authorization-digest.js';

// The one typed message the buyer signs: USDC's EIP-3009 TransferWithAuthorization under the token's domain
// (name, version, chainId, verifyingContract). Its digest is the wire leaf's word-by-word one, the service's
// too; it is what viem's hashTypedData gives (packages/buyer/test/account.test.ts holds the two equal).

export const EIP3009_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

export interface TransferAuthorizationTypedData {
  domain: { name: string; version: string; chainId: number; verifyingContract: `0x${string}` };
  types: typeof EIP3009_TYPES;
  primaryType: 'TransferWithAuthorization';
  message: {
    from: `0x${string}`;
    to: `0x${string}`;
    value: bigint;
    validAfter: bigint;
    validBefore: bigint;
    nonce: `0x${string}`;
  };
}

/** The EIP-712 digest a TransferWithAuthorization signature signs (the wire leaf's, shared with the service). */
export function typedDataDigest(d: TransferAuthorizationTypedData): Uint8Array {
  const m = d.message;
  return authorizationDigestBytes(
    {
      from: m.from,
      to: m.to,
      value: m.value.toString(),
      validAfter: m.validAfter.toString(),
      validBefore: m.validBefore.toString(),
      nonce: m.nonce,
    },
    { name: d.domain.name, version: d.domain.version, chainId: d.domain.chainId, asset: d.domain.verifyingContract },
  );
}
