import Router from '@koa/router';
import type Koa from 'koa';
import type { Admit } from '../../money-path/paid-admission.js';
import { readJsonBody } from '../json-body.js';
import { decodeOrThrow } from '@rights-preflight/wire/contract/decode.js';
import { PreflightDiscovery, PreflightRequest } from '@rights-preflight/wire/contract/preflight.js';
import { preflightRequestSchema } from '../schema/preflight-schema.js';
import { preflight, preflightDiscovery, type PreflightDeps } from '../../products/single-report/preflight.js';
import { redemptionAnswer, send, SINGLE_REPORT_BODIES } from '../present-redemption.js';
import { checkedBody } from '@rights-preflight/wire/contract/checked-body.js';

// GET/POST /v1/rights/preflight (spec §4): schema, discovery, or the key-bound purchase.
const isEmptyObject = (v: unknown) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

export function preflightRouter(deps: PreflightDeps, admission?: (ctx: Koa.Context) => Admit): Router {
  const router = new Router();
  router.get('/v1/rights/preflight', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.type = 'application/schema+json';
    ctx.body = preflightRequestSchema();
  });
  router.post('/v1/rights/preflight', async (ctx) => {
    const raw = await readJsonBody(ctx, { allowEmpty: true });
    if (raw === undefined || isEmptyObject(raw)) {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = checkedBody(PreflightDiscovery, preflightDiscovery(deps));
      return;
    }
    const outcome = await preflight(deps, {
      body: decodeOrThrow(PreflightRequest, raw),
      serviceRequest: ctx.get('x-service-request') || undefined,
      paymentSignature: ctx.get('payment-signature') || undefined,
      ...(admission ? { admit: admission(ctx) } : {}),
    });
    send(ctx, redemptionAnswer(outcome, SINGLE_REPORT_BODIES));
  });
  return router;
}
