import { getAddress, isAddress, verifyMessage, type Hex } from 'viem';
import { isLeft } from 'fp-ts/lib/Either.js';
import { formatSIWEMessage } from '@x402/extensions/sign-in-with-x';
import { GATE_SIWX_PROFILE, SiwxProof } from '@rights-preflight/wire/contract/ingestion-gate.js';
import {
  siwxChallenge,
  SIWX_MAX_AGE_SECONDS,
  type SiwxBinding,
} from '@rights-preflight/wire/ingestion-gate/siwx-challenge.js';
import { base64PlainJson } from './base64-json.js';

// SIGN-IN-WITH-X under profile `service-siwx-payment-v1` (spec §5.5). The header is the x402
// sign-in-with-x client payload (base64 JSON, EIP-4361 message signed with EIP-191 by an EOA); what the
// profile adds is that every free field of the message is fixed by the request, so a proof is valid
// for exactly one gate request and cannot be replayed for another:
//   domain    = host of the service's public base URL       uri       = canonical gate endpoint URL
//   chainId   = the payment network (CAIP-2)                 statement = SIWX_STATEMENT (constant)
//   nonce     = the 48 hex digits of the bound payment nonce (sha256 of {version, resource, key, input_sha256})
//   resources = [gate URL, urn:service-request:input-sha256:<input_sha256>]
//   issuedAt  within SIWX_MAX_AGE_SECONDS (and not in the future beyond skew); expirationTime/notBefore honoured.
// The buyer computes all of it itself (./siwx-challenge.ts; it knows its key), so it signs in before
// the first request.
// The proof is not a payment: the payment is still the EIP-3009 authorization with the bound nonce.

const SKEW_SECONDS = 60;

type SiwxCheck =
  | { ok: true; signer: Hex }
  | { ok: false; code: 'SIWX_REQUIRED' | 'SIWX_MALFORMED' | 'SIWX_INVALID'; reason: string; message: string };

const invalid = (reason: string, message: string): SiwxCheck => ({ ok: false, code: 'SIWX_INVALID', reason, message });

export async function verifySiwxHeader(header: string | undefined, b: SiwxBinding, now: Date): Promise<SiwxCheck> {
  if (!header) {
    return {
      ok: false,
      code: 'SIWX_REQUIRED',
      reason: 'missing',
      message:
        `send a SIGN-IN-WITH-X proof (profile ${GATE_SIWX_PROFILE}) signed by the payer; ` +
        'its statement is details.statement; docs/wire.md §8',
    };
  }
  let parsed: unknown;
  try {
    parsed = base64PlainJson(header);
  } catch {
    return {
      ok: false,
      code: 'SIWX_MALFORMED',
      reason: 'encoding',
      message: 'SIGN-IN-WITH-X must be base64 of plain JSON (docs/wire.md §6) of the sign-in-with-x payload',
    };
  }
  const decoded = SiwxProof.decode(parsed);
  if (isLeft(decoded))
    return {
      ok: false,
      code: 'SIWX_MALFORMED',
      reason: 'shape',
      message: 'SIGN-IN-WITH-X does not have the sign-in-with-x payload shape (EVM, eip191)',
    };
  const p = decoded.right;
  const expected = siwxChallenge(b, p.issuedAt);
  if (p.domain !== expected.domain) return invalid('domain_mismatch', `domain must be ${expected.domain}`);
  if (p.uri !== expected.uri) return invalid('uri_mismatch', `uri must be the gate endpoint ${expected.uri}`);
  if (p.chainId !== expected.chainId) return invalid('chain_mismatch', `chainId must be ${expected.chainId}`);
  if (p.statement !== expected.statement)
    return invalid('statement_mismatch', 'statement must be exactly details.statement (docs/wire.md §8)');
  if (p.nonce !== expected.nonce)
    return invalid(
      'nonce_mismatch',
      'nonce must be the 48 hex digits of the bound payment nonce of this request (same key and input)',
    );
  if (JSON.stringify(p.resources ?? []) !== JSON.stringify(expected.resources))
    return invalid(
      'resources_mismatch',
      'resources must be [gate URL, urn:service-request:input-sha256:<input_sha256>]',
    );
  const t = Math.floor(now.getTime() / 1000);
  const issued = Date.parse(p.issuedAt) / 1000;
  if (!Number.isFinite(issued)) return invalid('issued_at', 'issuedAt is not an ISO 8601 time');
  if (issued > t + SKEW_SECONDS) return invalid('issued_at_in_future', 'issuedAt is in the future');
  if (issued < t - SIWX_MAX_AGE_SECONDS)
    return invalid('issued_at_too_old', `issuedAt is older than ${SIWX_MAX_AGE_SECONDS} s; sign in again`);
  if (p.expirationTime !== undefined && !(Date.parse(p.expirationTime) / 1000 > t))
    return invalid('expired', 'the sign-in has expired');
  if (p.notBefore !== undefined && !(Date.parse(p.notBefore) / 1000 <= t + SKEW_SECONDS))
    return invalid('not_yet_valid', 'the sign-in is not valid yet');
  if (!isAddress(p.address, { strict: false })) return invalid('address', 'address is not an EVM address');

  let message: string;
  try {
    message = formatSIWEMessage(
      {
        ...expected,
        issuedAt: p.issuedAt,
        ...(p.expirationTime !== undefined ? { expirationTime: p.expirationTime } : {}),
        ...(p.notBefore !== undefined ? { notBefore: p.notBefore } : {}),
        ...(p.requestId !== undefined ? { requestId: p.requestId } : {}),
      },
      p.address,
    );
  } catch {
    return invalid(
      'message',
      'the EIP-4361 message cannot be built from these fields (is the address EIP-55 checksummed?)',
    );
  }
  let valid = false;
  try {
    valid =
      /^0x[0-9a-fA-F]+$/.test(p.signature) &&
      (await verifyMessage({ address: p.address as Hex, message, signature: p.signature as Hex }));
  } catch {
    valid = false;
  }
  if (!valid) return invalid('signature', 'the EIP-191 signature is not by address over the EIP-4361 message');
  return { ok: true, signer: getAddress(p.address) };
}
