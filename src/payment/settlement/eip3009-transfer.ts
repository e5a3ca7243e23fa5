import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { eip3009ABI } from '@x402/evm';
import {
  concatHex,
  encodeAbiParameters,
  getAddress,
  isAddressEqual,
  parseAbi,
  parseErc6492Signature,
  parseSignature,
  size,
  toFunctionSelector,
  type AbiFunction,
  type Hex,
} from 'viem';
import { authorizationDigest } from '@rights-preflight/wire/payment/authorization-digest.js';
import { recoverSignerOf } from '../recovered-signers.js';

// The EIP-3009 transfer as the in-process relayer verifies and sends it (relayer-facilitator.ts), with the
// x402 `exact` scheme's reasons, so classify.ts reads our answers as it reads the SDK's. Pure but for the
// memoized signature recovery.

export interface Eip3009Payload {
  authorization: { from: Hex; to: Hex; value: string; validAfter: string; validBefore: string; nonce: Hex };
  signature: Hex;
}

export const transferEventAbi = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);

/** The x402 `exact` checks that need no chain and no signature recovery; the reason, or undefined. */
export function offChainRefusal(
  payload: PaymentPayload,
  requirements: PaymentRequirements,
  auth: Eip3009Payload['authorization'],
  nowSeconds: number,
): string | undefined {
  if (payload.accepted.scheme !== 'exact' || requirements.scheme !== 'exact') return 'invalid_exact_evm_scheme';
  if (payload.accepted.network !== requirements.network) return 'invalid_exact_evm_network_mismatch';
  if (!isAddressEqual(auth.to, requirements.payTo as Hex)) return 'invalid_exact_evm_recipient_mismatch';
  if (BigInt(auth.validBefore) < BigInt(nowSeconds + 6)) return 'invalid_exact_evm_payload_authorization_valid_before';
  if (BigInt(auth.validAfter) > BigInt(nowSeconds)) return 'invalid_exact_evm_payload_authorization_valid_after';
  if (BigInt(auth.value) !== BigInt(requirements.amount))
    return 'invalid_exact_evm_payload_authorization_value_mismatch';
  return undefined;
}

/** Whether an EOA's 65-byte signature over the EIP-3009 typed data recovers to the payer. */
export async function signedBy(
  auth: Eip3009Payload['authorization'],
  signature: Hex,
  requirements: PaymentRequirements,
  chainId: number,
): Promise<boolean> {
  const { name, version } = (requirements.extra ?? {}) as { name?: string; version?: string };
  if (typeof name !== 'string' || typeof version !== 'string' || size(signature) !== 65) return false;
  const digest = authorizationDigest(auth, { name, version, chainId, asset: requirements.asset });
  const signer = await recoverSignerOf(digest, signature).catch(() => undefined);
  return signer !== undefined && isAddressEqual(signer, auth.from);
}

// The two transferWithAuthorization overloads with their selectors, resolved once: viem's encodeFunctionData
// looks the function up in the ABI and hashes its signature for the selector on every call, twice per
// payment (verify's simulation and settle's gas estimate). test/payment/eip3009-transfer.test.ts holds the
// calldata equal to encodeFunctionData's.
const overload = (last: string) => {
  const fn = (eip3009ABI as readonly AbiFunction[]).find(
    (item) =>
      item.type === 'function' && item.name === 'transferWithAuthorization' && item.inputs.at(-1)?.name === last,
  );
  if (!fn) throw new Error(`the EIP-3009 ABI has no transferWithAuthorization(…, ${last})`);
  return { inputs: fn.inputs, selector: toFunctionSelector(fn) };
};
const BY_VRS = overload('s');
const BY_BYTES = overload('signature');

/** FiatToken's transferWithAuthorization: (v, r, s) for a 65-byte ECDSA signature, else the bytes form. */
export function transferWithAuthorizationCall(auth: Eip3009Payload['authorization'], signature: Hex): Hex {
  const args = [
    getAddress(auth.from),
    getAddress(auth.to),
    BigInt(auth.value),
    BigInt(auth.validAfter),
    BigInt(auth.validBefore),
    auth.nonce,
  ] as const;
  const { signature: inner } = parseErc6492Signature(signature); // a deployed smart wallet's wrapped one
  if (size(inner) === 65) {
    const { r, s, v, yParity } = parseSignature(inner);
    const vrs: readonly unknown[] = [...args, Number(v ?? BigInt(yParity + 27)), r, s];
    return concatHex([BY_VRS.selector, encodeAbiParameters(BY_VRS.inputs, vrs)]);
  }
  return concatHex([BY_BYTES.selector, encodeAbiParameters(BY_BYTES.inputs, [...args, inner])]);
}

/** The x402 reason for a transfer the node refused to simulate (the SDK's wording, for classify.ts). */
export function transferErrorReason(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  if (/authorization.*(expired|valid before)|AuthorizationExpired/i.test(msg))
    return 'invalid_exact_evm_payload_authorization_valid_before';
  if (/authorization.*not.*valid|AuthorizationNotYetValid/i.test(msg))
    return 'invalid_exact_evm_payload_authorization_valid_after';
  if (/authorization.*used|AuthorizationAlreadyUsed|AuthorizationUsedOrCanceled/i.test(msg))
    return 'invalid_exact_evm_nonce_already_used';
  if (/transfer.*exceeds.*balance|insufficient.*balance|ERC20InsufficientBalance/i.test(msg))
    return 'invalid_exact_evm_insufficient_balance';
  if (/invalid.*signature|SignerMismatch|InvalidSignatureV|InvalidSignatureS/i.test(msg))
    return 'invalid_exact_evm_signature';
  return 'invalid_exact_evm_transaction_failed';
}
