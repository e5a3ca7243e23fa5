import type Router from '@koa/router';
import * as t from 'io-ts';
import { auditPurchases } from '../audit.js';
import type { OperatorDeps } from '../operator-deps.js';
import { orRefuse } from '../operator-refused.js';
import { parsePurchaseIdArg } from '../purchase-id.js';
import { attachedSession } from '../session.js';
import { decodeQuery } from './query.js';

//   GET /audit?purchase=   the audit of `ops audit --json` (200 whether or not it found violations)

const AuditQuery = t.partial({ purchase: t.string });

export function auditRoutes(router: Router, deps: OperatorDeps): void {
  router.get('/audit', async (ctx) => {
    const { purchase } = decodeQuery(AuditQuery, ctx.query);
    const target = purchase === undefined ? undefined : parsePurchaseIdArg(purchase);
    ctx.body = orRefuse(await auditPurchases(attachedSession(deps), target));
  });
}
