import Router from '@koa/router';
import type Koa from 'koa';
import type { Admit } from '../../money-path/paid-admission.js';
import { readJsonBody } from '../json-body.js';
import { decodeOrThrow } from '@rights-preflight/wire/contract/decode.js';
import { REVALIDATE_PATH, RevalidateRequest } from '@rights-preflight/wire/contract/revalidation.js';
import { revalidate, type RevalidateDeps } from '../../products/revalidation/revalidate.js';
import { REVALIDATION_BODIES, redemptionAnswer, send } from '../present-redemption.js';

// POST /v1/rights/revalidate (docs/wire.md §14): parse, then the application service decides.
export function revalidateRouter(deps: RevalidateDeps, admission?: (ctx: Koa.Context) => Admit): Router {
  const router = new Router();
  router.post(REVALIDATE_PATH, async (ctx) => {
    const body = decodeOrThrow(RevalidateRequest, await readJsonBody(ctx));
    const outcome = await revalidate(deps, {
      body,
      serviceRequest: ctx.get('x-service-request') || undefined,
      paymentSignature: ctx.get('payment-signature') || undefined,
      ...(admission ? { admit: admission(ctx) } : {}),
    });
    send(ctx, redemptionAnswer(outcome, REVALIDATION_BODIES));
  });
  return router;
}
