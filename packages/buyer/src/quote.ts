import { isLeft } from 'fp-ts/lib/Either.js';
import { verifyEnvelope } from '@rights-preflight/wire/evidence/verify.js';
import { keyIdOf } from '@rights-preflight/wire/evidence/public-key.js';
import { QuotePayload } from '@rights-preflight/wire/evidence/payloads.js';
import { AvailableQuote, UnavailableQuote } from '@rights-preflight/wire/contract/quote.js';
import { BuyerRefused } from './errors.js';
import { errorOf, sameAddress, type BuyerContext } from './context.js';
import type { ReportRequest } from './options.js';
import type { Quote } from './results.js';

// The quote step: ask the service, then hold the answer to the pins and to the quote the service signed
// (docs/decisions.md, "Buyer client": checks before signing).

export async function capabilities(ctx: BuyerContext) {
  const res = await ctx.fetch(`${ctx.baseUrl}/v1/capabilities`);
  if (!res.ok) throw new BuyerRefused('SERVICE_ERROR', `capabilities answered ${res.status}`);
  const caps = (await res.json()) as {
    evidence?: { keys?: { public_key: string; key_id: string }[] };
    payment?: { network: string; asset: string; pay_to: string; settlement_window_seconds?: number };
  };
  const window = caps.payment?.settlement_window_seconds;
  if (typeof window === 'number' && Number.isFinite(window) && window >= 0) ctx.settlementWindowSeconds = window;
  const published = caps.evidence?.keys?.some((k) => k.public_key.toLowerCase() === ctx.pins.evidenceKey) ?? false;
  return { capabilities: caps, pinnedKeyPublished: published };
}

/** The service's refusal of a quote, as the buyer's own refusal. */
async function quoteRefused(ctx: BuyerContext, res: Response, maxTotal: string): Promise<BuyerRefused> {
  const e = await errorOf(res);
  if (e.code === 'PRICE_EXCEEDS_BUDGET') {
    // The service refused before fetching anything: the price is above what this buyer may still pay.
    const taskBound = ctx.budget.taskBound();
    return new BuyerRefused(
      taskBound ? 'TASK_BUDGET_EXHAUSTED' : 'PRICE_ABOVE_REPORT_BUDGET',
      `the price exceeds ${taskBound ? 'the remaining task budget' : 'the per-report cap'} (${maxTotal})`,
    );
  }
  return new BuyerRefused('SERVICE_ERROR', `quote refused: ${e.code} ${e.message}`, {
    status: res.status,
    code: e.code,
  });
}

/** An available quote's terms are the pinned ones, and the signed quote (by the pinned key) says the same. */
export function checkAvailableQuote(ctx: BuyerContext, q: AvailableQuote): void {
  const { pins } = ctx;
  const p = q.payment;
  if (p.network !== pins.network)
    throw new BuyerRefused('NETWORK_MISMATCH', `quoted network ${p.network} is not the pinned ${pins.network}`);
  if (!sameAddress(p.asset, pins.asset))
    throw new BuyerRefused('ASSET_MISMATCH', 'quoted asset is not the pinned asset');
  if (!sameAddress(p.pay_to, pins.recipient))
    throw new BuyerRefused('RECIPIENT_MISMATCH', `quoted recipient ${p.pay_to} is not the pinned recipient`);
  if (p.amount !== q.charge_micro)
    throw new BuyerRefused('QUOTE_MISMATCH', 'quoted payment amount differs from charge_micro');
  const sq = QuotePayload.decode((q.signed_quote as { payload?: unknown }).payload);
  if (isLeft(sq)) throw new BuyerRefused('QUOTE_INVALID', 'signed quote payload has the wrong shape');
  if (sq.right.key_id !== keyIdOf(pins.evidenceKey))
    throw new BuyerRefused('EVIDENCE_KEY_MISMATCH', `quote is signed by key ${sq.right.key_id}, not the pinned key`);
  if (!verifyEnvelope(q.signed_quote, pins.evidenceKey))
    throw new BuyerRefused('QUOTE_SIGNATURE_INVALID', 'signed quote does not verify with the pinned key');
  const s = sq.right;
  if (
    s.purchase_id !== q.purchase_id ||
    s.resource !== q.resource ||
    s.input_sha256 !== q.input_sha256 ||
    s.amount !== q.charge_micro ||
    !sameAddress(s.pay_to, p.pay_to) ||
    !sameAddress(s.asset, p.asset) ||
    s.network !== p.network ||
    s.purpose !== q.purpose ||
    s.tier !== q.tier
  ) {
    throw new BuyerRefused('QUOTE_MISMATCH', 'signed quote differs from the quote answer');
  }
}

export async function quote(ctx: BuyerContext, req: ReportRequest & { max_total_micro?: string }): Promise<Quote> {
  const body = {
    resource: req.resource,
    purpose: req.purpose,
    tier: req.tier,
    ...(req.user_class ? { user_class: req.user_class } : {}),
    max_total_micro: req.max_total_micro ?? ctx.budget.remaining().toString(),
  };
  ctx.budget.assertNotExhausted(BigInt(body.max_total_micro));
  ctx.log({
    step: 'quote',
    resource: req.resource,
    purpose: req.purpose,
    tier: req.tier,
    max_total_micro: body.max_total_micro,
  });
  const res = await ctx.fetch(`${ctx.baseUrl}/v1/rights/quote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw await quoteRefused(ctx, res, body.max_total_micro);
  const json = await res.json();
  const un = UnavailableQuote.decode(json);
  if (!isLeft(un)) {
    if (un.right.charge_micro !== '0') throw new BuyerRefused('QUOTE_INVALID', 'an unavailable quote must charge 0');
    ctx.log({ step: 'quote.unavailable', resource: un.right.resource, reason: un.right.reason });
    return un.right;
  }
  const av = AvailableQuote.decode(json);
  if (isLeft(av)) throw new BuyerRefused('QUOTE_INVALID', 'quote answer does not match AvailableQuote');
  const q = av.right;
  checkAvailableQuote(ctx, q);
  ctx.log({
    step: 'quote.ok',
    purchase_id: q.purchase_id,
    charge_micro: q.charge_micro,
    classification: q.decision_preview.classification,
  });
  return q;
}
