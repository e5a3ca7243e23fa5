import Router from '@koa/router';
import { redeemReport } from '../../purchase/redeem-report.js';
import type { ResumeDeps } from '../../purchase/resume.js';
import { redemptionAnswer, send, SINGLE_REPORT_BODIES } from '../present-redemption.js';

// GET /v1/rights/reports/{id}: claim + optional PAYMENT-SIGNATURE in, 402 / 200 / error out.
export function reportsRouter(deps: ResumeDeps): Router {
  const router = new Router();
  router.get('/v1/rights/reports/:id', async (ctx) => {
    const outcome = await redeemReport(deps, {
      id: ctx.params.id ?? '',
      claim: ctx.get('x-service-claim') || undefined,
      paymentSignature: ctx.get('payment-signature') || undefined,
    });
    send(ctx, redemptionAnswer(outcome, SINGLE_REPORT_BODIES));
  });
  return router;
}
