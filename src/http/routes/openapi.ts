import Router from '@koa/router';
import type { OpenApiFragment } from '@rights-preflight/wire/contract/openapi-common.js';
import { buildOpenApi } from '../schema/openapi.js';

// GET /openapi.json: generated once from the codecs (they do not change at run time).
export function openApiRouter(opts: {
  version: string;
  serverUrl?: () => string | undefined;
  /** Each product's fragment (the product registry's). */
  products: readonly OpenApiFragment[];
}): Router {
  const router = new Router();
  let doc: unknown;
  router.get('/openapi.json', (ctx) => {
    const serverUrl = opts.serverUrl?.();
    doc ??= buildOpenApi({ version: opts.version, products: opts.products, ...(serverUrl ? { serverUrl } : {}) });
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = doc;
  });
  return router;
}
