import { buyerContext } from './context.js';
import { buyReport, ingestionGate, preflight, resume } from './flows.js';
import type { BuyerOptions, ReportRequest } from './options.js';
import { capabilities, quote } from './quote.js';
import { revalidate } from './revalidate.js';
import { ingestionGateUpfront, type UpfrontGateOptions } from './gate-upfront.js';
import type { Tier } from '@rights-preflight/wire/pricing/prices.js';
import type { GateRequest } from './results.js';
import type { AvailableQuote } from '@rights-preflight/wire/contract/quote.js';

// The service-aware x402 buyer (spec §5.6–§5.7, docs/wire.md). Browser-safe: no node: imports.
// quote → 402 offer → every check (pins, caps, signed receipt, recomputed binding nonce) → sign
// EIP-3009 with exactly the bound nonce → ENCRYPTED checkpoint → send → verify → delivered | held.
// The steps live beside this file: ./budget.ts, ./quote.ts, ./pay.ts, ./deliver.ts and ./flows.ts.

export type { BuyerLogEvent, BuyerOptions, Purpose, ReportRequest, Tier } from './options.js';
export type { BuyResult, GateRequest, GateResult, Quote } from './results.js';

export function createBuyer(opts: BuyerOptions) {
  const ctx = buyerContext(opts);
  return {
    capabilities: () => capabilities(ctx),
    quote: (req: ReportRequest & { max_total_micro?: string }) => quote(ctx, req),
    /** `o.quote`: a fresh quote already made for this request, bought instead of quoting again. */
    buyReport: (req: ReportRequest, o: { quote?: AvailableQuote } = {}) => buyReport(ctx, req, o.quote),
    preflight: (req: ReportRequest) => preflight(ctx, req),
    ingestionGate: (req: GateRequest) => ingestionGate(ctx, req),
    /** The gate paid on its first request, no 402 first (./gate-upfront.ts): paid work, not rate-limited. */
    ingestionGateUpfront: (req: GateRequest, o: UpfrontGateOptions) => ingestionGateUpfront(ctx, req, o),
    /** POST /v1/rights/revalidate for 1–4 checkpoints (./revalidate.ts); `checkpointsIn` reads them from a report. */
    revalidate: (checkpoints: readonly unknown[], o: { tier?: Tier } = {}) => revalidate(ctx, checkpoints, o),
    resume: (purchaseId: string) => resume(ctx, purchaseId),
    get spentMicro() {
      return ctx.budget.spent;
    },
    get address() {
      return opts.account.address;
    },
  };
}

export type Buyer = ReturnType<typeof createBuyer>;
