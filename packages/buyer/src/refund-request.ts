import { BuyerRefused } from './errors.js';

// Files a refund request for a purchase (POST /v1/rights/refund-requests, authorized by the
// purchase's claim in X-Service-Claim). A request is an operator-reviewed record, never a transfer.
export async function requestRefund(
  baseUrl: string,
  claim: string,
  request: { purchase_id: string; reason: string; message?: string },
  f: typeof fetch = fetch,
): Promise<Record<string, unknown>> {
  const res = await f(`${baseUrl.replace(/\/+$/, '')}/v1/rights/refund-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-claim': claim },
    body: JSON.stringify(request),
  });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown> & {
    error?: { code?: string; message?: string };
  };
  if (res.status !== 200 && res.status !== 201) {
    throw new BuyerRefused(
      'SERVICE_ERROR',
      `refund request answered ${res.status} ${body.error?.code ?? ''}: ${body.error?.message ?? ''}`.trim(),
      { status: res.status, ...(body.error?.code ? { code: body.error.code } : {}) },
    );
  }
  return body;
}
