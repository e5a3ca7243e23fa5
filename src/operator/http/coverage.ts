import type Router from '@koa/router';
import * as t from 'io-ts';
import { decodeOrThrow } from '@rights-preflight/wire/contract/decode.js';
import { readJsonBody } from '../../http/json-body.js';
import { CoverageChangeRequest } from '../contract.js';
import { COVERAGE_CHANGES, coverageHistory, listCoverage } from '../coverage.js';
import type { OperatorDeps } from '../operator-deps.js';
import { orRefuse } from '../operator-refused.js';
import { attachedSession } from '../session.js';
import { decodeQuery } from './query.js';

// The operator API's coverage (src/operator/coverage.ts): the ledger's origins and history, and the
// three changes, each decided on the `coverage` stream. A refusal (COVERAGE_NOT_REVIEWED…) is 409.
//
//   GET  /coverage                            { coverage: CoverageLine[] }
//   GET  /coverage/history?origin=            { history: CoverageHistoryLine[] } oldest first
//   POST /coverage/review | /add | /withdraw  CoverageChangeRequest → { change: { event, revision } }

const HistoryQuery = t.partial({ origin: t.string });

export function coverageRoutes(router: Router, deps: OperatorDeps): void {
  const session = attachedSession(deps);
  router.get('/coverage', async (ctx) => {
    ctx.body = { coverage: await listCoverage(session) };
  });
  router.get('/coverage/history', async (ctx) => {
    const { origin } = decodeQuery(HistoryQuery, ctx.query, { origin: 'origin must be given once' });
    ctx.body = { history: await coverageHistory(session, origin) };
  });
  for (const [what, run] of Object.entries(COVERAGE_CHANGES)) {
    router.post(`/coverage/${what}`, async (ctx) => {
      const body = decodeOrThrow(CoverageChangeRequest, await readJsonBody(ctx));
      const done = orRefuse(await run(session, body));
      deps.log.info({ origin: body.origin, change: what, operator: body.operator }, 'operator changed coverage');
      ctx.body = { change: done };
    });
  }
}
