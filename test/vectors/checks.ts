import { readFile } from 'node:fs/promises';
import { isRight } from 'fp-ts/lib/Either.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { isDeepStrictEqual } from 'node:util';
import { canonicalJson } from '@rights-preflight/wire/evidence/canonical-json.js';
import { sha256Hex } from '@rights-preflight/wire/evidence/digest.js';
import { boundNonce, inputSha256 } from '@rights-preflight/wire/payment/binding.js';
import { authorizationTypes } from '@x402/evm';
import { privateKeyAccount, signInWithX } from '@rights-preflight/buyer';
import { authorizationDigest } from '@rights-preflight/wire/payment/authorization-digest.js';
import { siwxChallenge } from '@rights-preflight/wire/ingestion-gate/siwx-challenge.js';
import { utf8ToBase64 } from '@rights-preflight/wire/crypto/base64url.js';
import { openText, type SealedBox } from '@rights-preflight/wire/crypto/aes-gcm.js';
import { ManifestLine } from '@rights-preflight/wire/contract/check-manifest.js';
import { recoverAddressOf } from '../../src/payment/recovered-signers.js';
import { verifySiwxHeader } from '../../src/products/ingestion-gate/siwx.js';
import { openNode } from '../../src/crypto/aes-gcm-node.js';
import {
  deliveryOutcome,
  offerCheckOutcome,
  sealWithIv,
  type DeliveryInput,
  type OfferInput,
  type SealInput,
} from './generate.js';

// What each vector file claims, checked: a vector passes when the TypeScript buyer (and, where the service
// has its own half, the service) computes exactly its outputs from its inputs. Shared by the tests that
// read the vectors (test/buyer/vectors.test.ts) and the test that tampers with them (./vectors.test.ts).

export interface Vector {
  name: string;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
}
export type Check = (v: Vector) => Promise<boolean>;

/** Where the vectors are kept: the wire package ships them beside its codecs (packages/wire/vectors/README.md). */
export const VECTORS_DIR = new URL('../../packages/wire/vectors/', import.meta.url);

export const readVectors = async <T = Record<string, unknown>>(file: string): Promise<T> =>
  JSON.parse(await readFile(new URL(file, VECTORS_DIR), 'utf8')) as T;

const same = isDeepStrictEqual;

/** binding.json spells its vectors flat; read as input (resource, key, normalized_input) → output (nonce). */
export const bindingAsVector = (v: Record<string, unknown>): Vector => ({
  name: v.name as string,
  input: { resource: v.resource, key: v.key, normalized_input: v.normalized_input },
  output: { input_sha256: v.input_sha256, nonce: v.nonce },
});

const binding: Check = async ({ input: i, output: o }) => {
  const input_sha256 = inputSha256(i.normalized_input);
  const nonce = boundNonce({ resource: i.resource as string, key: i.key as string, input_sha256 });
  return input_sha256 === o.input_sha256 && nonce === o.nonce;
};

const canonical: Check = async ({ input: i, output: o }) => {
  const jcs = canonicalJson(i.value);
  return jcs === o.jcs && sha256Hex(jcs) === o.sha256;
};

interface Eip3009Input {
  domain: { name: string; version: string; chainId: number; verifyingContract: `0x${string}` };
  message: Record<'from' | 'to' | 'value' | 'validAfter' | 'validBefore' | 'nonce', string>;
  private_key: string;
}

const eip3009: Check = async (v) => {
  const i = v.input as unknown as Eip3009Input;
  const m = i.message;
  const data = {
    domain: i.domain,
    types: authorizationTypes,
    primaryType: 'TransferWithAuthorization' as const,
    message: {
      from: m.from as `0x${string}`,
      to: m.to as `0x${string}`,
      value: BigInt(m.value),
      validAfter: BigInt(m.validAfter),
      validBefore: BigInt(m.validBefore),
      nonce: m.nonce as `0x${string}`,
    },
  };
  let digest: string;
  let signature: string;
  let signer: string;
  try {
    // The wire leaf's digest, which the buyer's typed data signs (packages/buyer/test/account.test.ts holds
    // it equal to viem's hashTypedData); the recovery below ties the buyer's signature to it.
    const domain = { ...i.domain, asset: i.domain.verifyingContract };
    digest = authorizationDigest({ ...m, nonce: data.message.nonce }, domain);
    const account = privateKeyAccount(i.private_key);
    signature = await account.signTypedData(data);
    // The service's recovery, the one its payment checks use.
    signer = recoverAddressOf(digest as `0x${string}`, signature as `0x${string}`);
    if (signer !== account.address) return false;
  } catch {
    return false;
  }
  return digest === v.output.digest && signature === v.output.signature && signer === v.output.signer;
};

interface SiwxInput {
  gate_url: string;
  key: string;
  input_sha256: string;
  network: string;
  issued_at: string;
  private_key: string;
}

const siwx: Check = async (v) => {
  const i = v.input as unknown as SiwxInput;
  const b = { gateUrl: i.gate_url, key: i.key, inputSha256: i.input_sha256, network: i.network };
  try {
    const challenge = siwxChallenge(b, i.issued_at);
    const messages: string[] = [];
    const account = privateKeyAccount(i.private_key);
    const proof = await signInWithX(
      { address: account.address, signMessage: (m) => (messages.push(m.message), account.signMessage(m)) },
      b,
      new Date(i.issued_at),
    );
    const header = utf8ToBase64(JSON.stringify(proof));
    // The service's verification of the header, at the moment it was signed.
    const verified = await verifySiwxHeader(header, b, new Date(i.issued_at));
    return (
      verified.ok &&
      same(challenge, v.output.challenge) &&
      messages[0] === v.output.message &&
      proof.signature === v.output.signature &&
      same(proof, v.output.proof) &&
      header === v.output.header
    );
  } catch {
    return false;
  }
};

const offer: Check = async (v) => offerCheckOutcome(v.input as unknown as OfferInput) === v.output.outcome;

const delivery: Check = async (v) => {
  const i = v.input as unknown as DeliveryInput & { response: { report: unknown; evidence: unknown } };
  const { report_sha256, evidence_sha256, ...outcome } = v.output;
  // Tampered vectors record only the outcome; good ones also the digests the delivery proof names.
  const digests =
    report_sha256 === undefined ||
    (sha256Hex(canonicalJson(i.response.report)) === report_sha256 &&
      sha256Hex(canonicalJson(i.response.evidence)) === evidence_sha256);
  return digests && same(deliveryOutcome(i), outcome);
};

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** Opens with the buyer's WebCrypto and with the service's node:crypto; the plaintext, or undefined. */
async function opened(key: string, sealed: SealedBox, aad: string): Promise<string | undefined> {
  try {
    const k = hexToBytes(key);
    const byBuyer = await openText(k, sealed, aad);
    const byService = fromUtf8.decode(openNode(k, sealed, utf8.encode(aad)));
    return byBuyer === byService ? byBuyer : undefined;
  } catch {
    return undefined;
  }
}

const seal: Check = async (v) => {
  const i = v.input as unknown as SealInput;
  const sealed = v.output.sealed as SealedBox;
  let resealed: SealedBox;
  try {
    resealed = sealWithIv(i);
  } catch {
    return false;
  }
  return same(resealed, sealed) && (await opened(i.key, sealed, i.aad)) === i.plaintext;
};

/** A tampered sealed box: it must not open (the check passes when it does not). */
export const tamperedSealStaysShut: Check = async (v) => {
  const i = v.input as { key: string; aad: string; sealed: SealedBox };
  return (await opened(i.key, i.sealed, i.aad)) === undefined && v.output.opens === false;
};

/** A manifest line text is a ManifestLine. */
export const manifestLineValid = (text: string): boolean => {
  try {
    return isRight(ManifestLine.decode(JSON.parse(text)));
  } catch {
    return false;
  }
};

/** Vector files with input → output vectors, and the check each is held to. */
export const CHECKS: Record<string, Check> = {
  'canonical-json.json': canonical,
  'eip3009.json': eip3009,
  'siwx.json': siwx,
  'offer-receipt.json': offer,
  'delivery.json': delivery,
  'checkpoint-seal.json': seal,
};
export const bindingCheck = binding;
