import Router from '@koa/router';
import type Koa from 'koa';
import type { Admit } from '../../money-path/paid-admission.js';
import { readJsonBody } from '../json-body.js';
import { decodeOrThrow } from '@rights-preflight/wire/contract/decode.js';
import { GATE_PATH, IngestionGateRequest } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { ingestionGate, type GateDeps } from '../../products/ingestion-gate/gate.js';
import { GATE_BODIES, redemptionAnswer, send } from '../present-redemption.js';

// POST /v1/rights/ingestion-gate (spec §2.3–§2.5, §5.5): parse, then the application service decides.
export function ingestionGateRouter(deps: GateDeps, admission?: (ctx: Koa.Context) => Admit): Router {
  const router = new Router();
  router.post(GATE_PATH, async (ctx) => {
    const body = decodeOrThrow(IngestionGateRequest, await readJsonBody(ctx));
    const outcome = await ingestionGate(deps, {
      body,
      serviceRequest: ctx.get('x-service-request') || undefined,
      paymentIntent: ctx.get('x-service-payment-intent') || undefined,
      siwx: ctx.get('sign-in-with-x') || undefined,
      paymentSignature: ctx.get('payment-signature') || undefined,
      ...(admission ? { admit: admission(ctx) } : {}),
    });
    send(ctx, redemptionAnswer(outcome, GATE_BODIES));
  });
  return router;
}
