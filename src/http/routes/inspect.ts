import Router from '@koa/router';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { decodeOrThrow } from '@rights-preflight/wire/contract/decode.js';
import { readJsonBody } from '../json-body.js';
import { DEFAULT_PARSE_LIMITS } from '../../rsl/parse/parse.js';
import type { InspectQuestion } from '../../rsl/inspect-document.js';
import { InspectRequest, inspectionAnswer } from '../../rsl/inspect-answer.js';
import { InspectPoolBusy } from '../../rsl/inspect-pool.js';
import { DEFAULT_USER_CLASS } from '@rights-preflight/wire/rsl/purposes.js';
import { checkResourceUrlSyntax } from '@rights-preflight/wire/rsl/resource-url.js';

// POST /v1/rights/inspect — the free XML inspection path (spec §2.1, §4). It evaluates only the
// RSL XML the caller supplies, never fetches anything, signs nothing, charges nothing, and says
// so in every answer. The resource must pass the §2.2 syntax rule, but not coverage: nothing is
// fetched, so an uncovered origin cannot be abused, and a publisher may check a draft before
// asking for coverage. Only here is the legacy `crawl` purpose accepted (read through `all`).

export { INSPECTION_NOTICE, InspectRequest, InspectResponse } from '../../rsl/inspect-answer.js';

export interface InspectDeps {
  /** Largest accepted JSON body; the XML inside is further capped by the parser (512 KiB). */
  bodyLimitBytes?: number;
  /** Where the untrusted document is parsed, evaluated and answered (the answer's JSON text): the service
   *  passes its worker pool; default in process. */
  inspect?: (xml: string, question: InspectQuestion) => Promise<string>;
}

export function inspectRouter(deps: InspectDeps = {}): Router {
  const router = new Router();
  const limitBytes = deps.bodyLimitBytes ?? DEFAULT_PARSE_LIMITS.maxBytes + 64 * 1024;

  router.post('/v1/rights/inspect', async (ctx) => {
    const body = decodeOrThrow(InspectRequest, await readJsonBody(ctx, { limitBytes }));
    const resource = checkResourceUrlSyntax(body.resource);
    if (!resource.ok) throw new Refusal(resource.code, resource.message, { field: 'resource' });
    const userClass = body.user_class ?? DEFAULT_USER_CLASS;
    const geo = body.geo ?? null;

    const question: InspectQuestion = { resource: resource.url, purpose: body.purpose, userClass, geo };
    let text: string;
    try {
      text = deps.inspect ? await deps.inspect(body.xml, question) : inspectionAnswer(body.xml, question);
    } catch (err) {
      if (err instanceof InspectPoolBusy)
        throw new Refusal('INSPECT_BUSY', 'all inspection workers are busy; retry shortly', {}, 1);
      throw err;
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 200;
    ctx.type = 'json';
    ctx.body = text; // built and checked against InspectResponse where it was inspected (contract/inspect.ts)
  });
  return router;
}
