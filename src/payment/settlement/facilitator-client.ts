import {
  FacilitatorResponseError,
  FacilitatorTimeoutError,
  SettleError,
  VerifyError,
  type PaymentPayload,
  type PaymentRequirements,
  type SettleResponse,
  type VerifyResponse,
} from '@x402/core/types';
import { jsonRpcFetch } from './json-rpc-fetch.js';

// The x402 v2 facilitator API's POST /verify and POST /settle (reference/x402.md §3.1) as @x402/core's
// HTTPFacilitatorClient sends them, on the kept-alive node:http POST our JSON-RPC uses (json-rpc-fetch.ts)
// rather than Node's fetch: the official client cost the service about 2 ms of CPU per paid redemption in
// undici and its web streams (docs/decisions.md, "A warm paid path"). The same request bodies, the same
// answers (the fields the client's schemas keep, null read as absent) and the same errors, with the SDK's
// own classes: VerifyError / SettleError for a non-2xx answer that says what happened,
// FacilitatorResponseError for one that does not parse or fit, FacilitatorTimeoutError past `timeoutMs`,
// and TypeError("fetch failed") when the facilitator cannot be reached. test/payment/facilitator-client.test.ts
// holds both clients equal on each. Not kept: redirects are not followed (FACILITATOR_URL names the
// endpoint), and the auth-header hook and extension headers, which we do not use.

interface FacilitatorClient {
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}

type Operation = 'verify' | 'settle';

function excerpt(text: string, limit = 200): string {
  const compact = text.trim().replace(/\s+/g, ' ');
  if (!compact) return '<empty response>';
  return compact.length <= limit ? compact : `${compact.slice(0, limit - 3)}...`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nullishString = (v: unknown) => v === undefined || v === null || typeof v === 'string';
const nullishRecord = (v: unknown) => v === undefined || v === null || isRecord(v);

/** The fields the SDK's schema keeps, each null or absent one left out; undefined when it does not fit. */
function fitted(
  data: unknown,
  required: Record<string, (v: unknown) => boolean>,
  strings: readonly string[],
): Record<string, unknown> | undefined {
  if (!isRecord(data)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, ok] of Object.entries(required)) {
    if (!ok(data[key])) return undefined;
    out[key] = data[key];
  }
  for (const key of strings) if (!nullishString(data[key])) return undefined;
  for (const key of ['extensions', 'extra']) if (!nullishRecord(data[key])) return undefined;
  for (const key of [...strings, 'extensions', 'extra']) if (data[key] != null) out[key] = data[key];
  return out;
}

const isBoolean = (v: unknown) => typeof v === 'boolean';
const isString = (v: unknown) => typeof v === 'string';
const fitVerify = (d: unknown) =>
  fitted(d, { isValid: isBoolean }, ['invalidReason', 'invalidMessage', 'payer']) as VerifyResponse | undefined;
const fitSettle = (d: unknown) =>
  fitted(d, { success: isBoolean, transaction: isString, network: isString }, [
    'errorReason',
    'errorMessage',
    'payer',
    'amount',
  ]) as SettleResponse | undefined;

export function facilitatorClient(o: { url: string; timeoutMs: number }): FacilitatorClient {
  const base = o.url.replace(/\/+$/, '');

  async function post(operation: Operation, payload: PaymentPayload, requirements: PaymentRequirements) {
    const signal = AbortSignal.timeout(o.timeoutMs);
    const body = JSON.stringify(
      { x402Version: payload.x402Version, paymentPayload: payload, paymentRequirements: requirements },
      (_, value) => (typeof value === 'bigint' ? value.toString() : value),
    );
    try {
      const res = await jsonRpcFetch(`${base}/${operation}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal,
      });
      return { ok: res.ok, status: res.status, text: await res.text() };
    } catch (err) {
      if (signal.aborted) throw new FacilitatorTimeoutError(operation, o.timeoutMs);
      throw new TypeError('fetch failed', { cause: err });
    }
  }

  function answer<R>(operation: Operation, text: string, fitTo: (d: unknown) => R | undefined): R {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new FacilitatorResponseError(`Facilitator ${operation} returned invalid JSON: ${excerpt(text)}`);
    }
    const fittedAnswer = fitTo(data);
    if (fittedAnswer === undefined)
      throw new FacilitatorResponseError(`Facilitator ${operation} returned invalid data: ${excerpt(text)}`);
    return fittedAnswer;
  }

  /** A non-2xx answer: the SDK's error naming what happened when the body says it, else a plain Error. */
  function refusal(operation: Operation, status: number, text: string): Error {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return new Error(`Facilitator ${operation} failed (${status}): ${excerpt(text)}`);
    }
    if (operation === 'verify' && isRecord(data) && 'isValid' in data)
      return new VerifyError(status, data as unknown as VerifyResponse);
    if (operation === 'settle' && isRecord(data) && 'success' in data)
      return new SettleError(status, data as unknown as SettleResponse);
    return new Error(`Facilitator ${operation} failed (${status}): ${excerpt(JSON.stringify(data))}`);
  }

  return {
    async verify(payload, requirements) {
      const r = await post('verify', payload, requirements);
      if (!r.ok) throw refusal('verify', r.status, r.text);
      return answer('verify', r.text, fitVerify);
    },
    async settle(payload, requirements) {
      const r = await post('settle', payload, requirements);
      if (!r.ok) throw refusal('settle', r.status, r.text);
      return answer('settle', r.text, fitSettle);
    },
  };
}
