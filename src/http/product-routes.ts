import Router from '@koa/router';
import type Koa from 'koa';
import { decodeOrThrow } from '@rights-preflight/wire/contract/decode.js';
import { checkedBody } from '@rights-preflight/wire/contract/checked-body.js';
import type { Admit } from '../money-path/paid-admission.js';
import type { JsonAnswer, ProductListing } from '../products/listing.js';
import { readJsonBody } from './json-body.js';
import { redemptionAnswer, send, type HttpAnswer } from './present-redemption.js';

// Every product's routes, served the same way (src/products/listing.ts): the body read and decoded by the
// route's codec (an empty one, where the route allows it, reaches the product as undefined), the headers
// and the paid admission handed over, and the answer presented: a sale's outcome as x402 over HTTP in
// the product's own bodies (./present-redemption.ts), plain JSON checked against its codec.

const isEmptyObject = (v: unknown) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

const jsonAnswer = (a: JsonAnswer): HttpAnswer => ({
  status: 200,
  headers: { 'Cache-Control': a.cacheControl },
  body: a.codec ? checkedBody(a.codec, a.body) : a.body,
  ...(a.type ? { type: a.type } : {}),
});

export function productRouter<Deps>(
  // biome-ignore lint/suspicious/noExplicitAny: each listing's routes take its own deps (ProductListing's `Own`).
  listing: Pick<ProductListing<any, any>, 'routes' | 'bodies'>,
  deps: Deps,
  admission?: (ctx: Koa.Context) => Admit,
): Router {
  const router = new Router();
  for (const route of listing.routes) {
    router[route.method](route.path, async (ctx) => {
      let body: unknown;
      if (route.request) {
        const raw = await readJsonBody(ctx, { allowEmpty: route.allowEmpty ?? false });
        body =
          route.allowEmpty && (raw === undefined || isEmptyObject(raw)) ? undefined : decodeOrThrow(route.request, raw);
      }
      const answer = await route.serve(deps, {
        body,
        header: (name) => ctx.get(name) || undefined,
        ...(admission && route.rateLimit?.paid ? { admit: admission(ctx) } : {}),
      });
      send(ctx, answer.kind === 'json' ? jsonAnswer(answer) : redemptionAnswer(answer, listing.bodies));
    });
  }
  return router;
}
