import Router from '@koa/router';
import { redeemReport, type PaidOnlyAt } from '../../money-path/redeem-report.js';
import type { ResumeDeps } from '../../money-path/resume.js';
import { redemptionAnswer, send, type RedemptionBodies } from '../present-redemption.js';

// GET /v1/rights/reports/{id}: claim + optional PAYMENT-SIGNATURE in, 402 / 200 / error out. The body
// is checked against the codec of the purchase's own product (a gate's delivery is a gate response).
export interface ReportsDeps extends ResumeDeps {
  /** Where a SKU is offered and paid when only at its own POST (the product registry's). */
  paidOnlyAt: PaidOnlyAt;
  /** The bodies of a SKU's product (the product registry's). */
  bodiesOf(sku: string): RedemptionBodies;
}

export function reportsRouter(deps: ReportsDeps): Router {
  const router = new Router();
  router.get('/v1/rights/reports/:id', async (ctx) => {
    const { sku, redemption } = await redeemReport(deps, {
      id: ctx.params.id ?? '',
      claim: ctx.get('x-service-claim') || undefined,
      paymentSignature: ctx.get('payment-signature') || undefined,
    });
    send(ctx, redemptionAnswer(redemption, deps.bodiesOf(sku)));
  });
  return router;
}
