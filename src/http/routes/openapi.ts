import Router from '@koa/router';
import { buildOpenApi } from '../schema/openapi.js';

// GET /openapi.json: generated once from the codecs (they do not change at run time).
export function openApiRouter(opts: { version: string; serverUrl?: () => string | undefined }): Router {
  const router = new Router();
  let doc: unknown;
  router.get('/openapi.json', (ctx) => {
    const serverUrl = opts.serverUrl?.();
    doc ??= buildOpenApi({ version: opts.version, ...(serverUrl ? { serverUrl } : {}) });
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = doc;
  });
  return router;
}
