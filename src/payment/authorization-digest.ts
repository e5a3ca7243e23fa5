import { getAddress, hashTypedData, type Hex } from 'viem';
import { authorizationTypes } from '@x402/evm';

// The EIP-712 digest an EIP-3009 TransferWithAuthorization signature covers: what the service's own check
// (verify-authorization.ts) and the relayer's verify (settlement/eip3009-transfer.ts) recover the signer from,
// so both compute it the same way and share one recovery (recovered-signers.ts).

export interface AuthorizationFields {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
}

export const authorizationDigest = (
  a: AuthorizationFields,
  domain: { name: string; version: string; chainId: number; asset: string },
): Hex =>
  hashTypedData({
    domain: {
      name: domain.name,
      version: domain.version,
      chainId: domain.chainId,
      verifyingContract: getAddress(domain.asset),
    },
    types: authorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message: {
      from: getAddress(a.from),
      to: getAddress(a.to),
      value: BigInt(a.value),
      validAfter: BigInt(a.validAfter),
      validBefore: BigInt(a.validBefore),
      nonce: a.nonce,
    },
  });
