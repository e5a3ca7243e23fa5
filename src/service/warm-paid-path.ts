import { randomBytes } from 'node:crypto';
import { pointFromScalar, signRecoverable } from 'tiny-secp256k1';
import { bytesToHex, getAddress, hexToBytes, keccak256, type Hex } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';
import { checkpointSealer } from '../crypto/checkpoint-seal.js';
import { nodeByteSigner } from '../evidence/sign-node.js';
import { authorizationDigest } from '@rights-preflight/wire/payment/authorization-digest.js';
import { transferWithAuthorizationCall } from '../payment/settlement/eip3009-transfer.js';
import { transactionSigner } from '../payment/settlement/transaction-signer.js';
import { verifyAuthorization } from '../payment/verify-authorization.js';
import { chainIdOf, SCHEME_EXACT, X402_VERSION } from '@rights-preflight/wire/payment/x402-constants.js';
import { decodePaymentSignature, encodePaymentSignature } from '@rights-preflight/wire/payment/x402-headers.js';
import { envelopeSigner } from '@rights-preflight/wire/evidence/envelope.js';
import { digestOf } from '@rights-preflight/wire/evidence/digest.js';
import type { PaymentPayload } from '@rights-preflight/wire/payment/x402-wire.js';

// The first paid redemptions after a start would run their hottest code cold: V8 interprets JavaScript until
// it has run often, and keeps WebAssembly (libsecp256k1 for recovery and the relayer's signature) on its
// baseline tier until it is hot. A burst of buyers right after a deploy paid for that: about half again the
// service CPU of the same burst on a warm process (docs/decisions.md, "A warm paid path"). So before the
// service reports ready, the pure steps of a paid redemption run a few dozen times on throwaway keys and a
// made-up payment for the service's own offer terms: decode the PAYMENT-SIGNATURE header, check it and
// recover its signer, seal it, build and sign the relayer's transaction, canonicalize and sign evidence.
// Nothing is stored, sent or logged, and no key of the service is used.

export interface WarmTerms {
  network: string;
  asset: string;
  payTo: string;
  eip712: { name: string; version: string };
  /** The service's offer terms (default 300 s and no settlement window: the facilitator server's warm-up). */
  maxTimeoutSeconds?: number;
  settlementWindowSeconds?: number;
}

/** Runs `rounds` throwaway paid redemptions' pure steps; answers how long it took (ms). */
export async function warmPaidPath(terms: WarmTerms, rounds = 40): Promise<number> {
  const started = performance.now();
  const chainId = chainIdOf(terms.network);
  if (chainId === undefined) return 0;
  const buyerKey = randomBytes(32);
  const buyer = publicKeyToAddress(bytesToHex(pointFromScalar(buyerKey, false)!));
  const signTransaction = transactionSigner(bytesToHex(randomBytes(32)));
  const sealer = checkpointSealer(randomBytes(32));
  const { sign } = envelopeSigner(nodeByteSigner(randomBytes(32)));
  const requirements = {
    scheme: SCHEME_EXACT,
    network: terms.network as `${string}:${string}`,
    asset: getAddress(terms.asset),
    amount: '1000',
    payTo: getAddress(terms.payTo),
    maxTimeoutSeconds: terms.maxTimeoutSeconds ?? 300,
    extra: { name: terms.eip712.name, version: terms.eip712.version },
  };
  const domain = { ...terms.eip712, chainId, asset: requirements.asset };
  for (let i = 0; i < rounds; i++) {
    const now = Math.floor(Date.now() / 1000);
    const authorization = {
      from: buyer,
      to: requirements.payTo,
      value: requirements.amount,
      validAfter: String(now - 60),
      validBefore: String(now + requirements.maxTimeoutSeconds),
      nonce: bytesToHex(randomBytes(32)),
    };
    const digest = hexToBytes(authorizationDigest(authorization, domain));
    const { signature, recoveryId } = signRecoverable(digest, buyerKey);
    const signatureHex = `${bytesToHex(signature)}${recoveryId === 1 ? '1c' : '1b'}` as Hex;
    const payload: PaymentPayload = {
      x402Version: X402_VERSION,
      accepted: requirements,
      payload: { authorization, signature: signatureHex },
    };
    const decoded = decodePaymentSignature(encodePaymentSignature(payload));
    if (!decoded.ok) throw new Error(`warm-up: ${decoded.problem}`);
    const checked = await verifyAuthorization({
      payload: decoded.value,
      requirements,
      expectedNonce: authorization.nonce,
      maxTotalMicro: requirements.amount,
      now: new Date(),
      settlementWindowSeconds: terms.settlementWindowSeconds ?? 0,
    });
    if (!checked.ok) throw new Error(`warm-up: ${checked.code}`);
    const sealed = await sealer.seal(JSON.stringify(decoded.value), authorization.nonce);
    JSON.parse(await sealer.unseal(sealed, authorization.nonce));
    const data = transferWithAuthorizationCall(checked.authorization, checked.signature);
    await signTransaction({
      type: 'eip1559',
      chainId,
      nonce: i,
      to: requirements.asset as Hex,
      data,
      gas: 100_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
    });
    const evidence = sign({ type: 'warm-up', payment_sha256: digestOf(decoded.value), digest: keccak256(data) });
    digestOf({ evidence, settlement: { payer: buyer, amount: requirements.amount, nonce: authorization.nonce } });
  }
  return performance.now() - started;
}
