import Router from '@koa/router';
import { readJsonBody } from '../json-body.js';
import { decodeOrThrow } from '@rights-preflight/wire/contract/decode.js';
import { QuoteRequest, QuoteResponse } from '@rights-preflight/wire/contract/quote.js';
import { checkedBody } from '@rights-preflight/wire/contract/checked-body.js';
import { IdempotencyKey } from '@rights-preflight/wire/contract/common.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { quote, type QuoteDeps } from '../../products/single-report/quote.js';

// POST /v1/rights/quote: parse, then the application service decides everything.
export function quoteRouter(deps: QuoteDeps): Router {
  const router = new Router();
  router.post('/v1/rights/quote', async (ctx) => {
    const body = decodeOrThrow(QuoteRequest, await readJsonBody(ctx));
    const key = ctx.get('idempotency-key') || undefined;
    if (key !== undefined && !IdempotencyKey.is(key))
      throw new Refusal('INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key must be 16 to 128 characters of A-Z a-z 0-9 _ -');
    ctx.set('Cache-Control', 'no-store'); // the answer carries a private claim token
    ctx.body = checkedBody(QuoteResponse, await quote(deps, body, key));
  });
  return router;
}
