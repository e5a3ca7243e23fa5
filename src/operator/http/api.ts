import Router from '@koa/router';
import { OPERATOR_API } from '../contract.js';
import type { OperatorDeps } from '../operator-deps.js';
import { operatorReads } from '../reads.js';
import { relayRoutes } from './relay.js';
import { actionRoutes } from './actions.js';
import { auditRoutes } from './audit.js';
import { complianceRoutes } from './compliance.js';
import { coverageRoutes } from './coverage.js';
import { readRoutes } from './reads.js';
import { replayRunRoutes } from './replay-run.js';

// The operator API (JSON, under /operator/v1), served only on the operator listener (listener.ts),
// never on the public app. Reads come from the read models once they include every event appended
// before the request (caughtUp), so a hold or a refund request shows here as soon as it is stored;
// timelines come from the streams. Every action is an operator use-case the CLI runs too (move,
// refund review/paid): read, fold, decide, append at the revision the operator saw. Each route
// module decodes its own query strings and bodies (query.ts, ../contract.ts):
//
//   reads.ts               GET /queue, /purchases, /purchases/:id, /refunds, /replay, /summary
//   actions.ts             POST /purchases/:id/move, /refunds/:id/review, /refunds/:id/paid
//   audit.ts               GET /audit
//   compliance.ts          GET /compliance/export, /compliance/rows, /compliance/report
//   coverage.ts            GET /coverage, /coverage/history; POST /coverage/review, /add, /withdraw
//   replay-run.ts          POST /replay: the rebuild, its progress streamed (NDJSON)
//   relay.ts               POST /use-case: `npm run ops` beside the running service

export function operatorApi(deps: OperatorDeps): Router {
  const router = new Router({ prefix: OPERATOR_API });
  const reads = operatorReads(deps);

  router.get('/health', (ctx) => {
    ctx.body = { ok: true };
  });
  readRoutes(router, deps, reads);
  actionRoutes(router, deps, reads);
  auditRoutes(router, deps);
  complianceRoutes(router, deps);
  coverageRoutes(router, deps);
  replayRunRoutes(router, deps);
  relayRoutes(router, deps);
  return router;
}
