import { isLeft } from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import type {
  PaymentPayload as CorePaymentPayload,
  PaymentRequired as CorePaymentRequired,
  SettleResponse as CoreSettleResponse,
} from '@x402/core/types';
import { plainJsonProblem } from '../contract/plain-json.js';
import { PaymentPayload, PaymentRequired, SettleResponse } from './x402-wire.js';
import { firstProblem } from '../contract/decode.js';

// The three x402 v2 headers: base64 (standard alphabet, padded) of JSON. The byte format is the
// official helpers' (@x402/core/http); what counts as valid is plain JSON (../contract/plain-json.ts) that our
// codecs accept. Decoding never throws. The service and the buyer decode every header here.

export type Decoded<A> = { ok: true; value: A } | { ok: false; problem: string };

function decodeWith<A>(
  codec: t.Decoder<unknown, A>,
  raw: (h: string) => unknown,
  header: string,
  what: string,
): Decoded<A> {
  let json: unknown;
  try {
    json = raw(header.trim());
  } catch {
    return { ok: false, problem: `${what} is not base64 of JSON` };
  }
  const unsound = plainJsonProblem(json);
  if (unsound) return { ok: false, problem: `${what}: ${unsound}` };
  const decoded = codec.decode(json);
  if (isLeft(decoded)) return { ok: false, problem: `${what}: ${firstProblem(decoded.left, 'value')}` };
  return { ok: true, value: decoded.right };
}

export const decodePaymentSignature = (h: string): Decoded<PaymentPayload> =>
  decodeWith(PaymentPayload, decodePaymentSignatureHeader, h, 'PAYMENT-SIGNATURE');
export const decodePaymentRequired = (h: string): Decoded<PaymentRequired> =>
  decodeWith(PaymentRequired, decodePaymentRequiredHeader, h, 'PAYMENT-REQUIRED');
export const decodePaymentResponse = (h: string): Decoded<SettleResponse> =>
  decodeWith(SettleResponse, decodePaymentResponseHeader, h, 'PAYMENT-RESPONSE');

export const encodePaymentSignature = (p: PaymentPayload): string =>
  encodePaymentSignatureHeader(p as CorePaymentPayload);
export const encodePaymentRequired = (p: PaymentRequired): string =>
  encodePaymentRequiredHeader(p as CorePaymentRequired);
export const encodePaymentResponse = (s: SettleResponse): string =>
  encodePaymentResponseHeader(s as CoreSettleResponse);
