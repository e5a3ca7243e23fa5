import Router from '@koa/router';
import type Koa from 'koa';
import { operatorSummary } from '../../../projections/queries/summary.js';
import { homePage, purchaseListPage, purchasePage, refusalPage } from '../console-html.js';
import { listPurchases, purchaseTotals } from '../../../projections/queries/purchases.js';
import { consolePurchaseQuery } from '../console-purchase-query.js';
import { coveragePage } from '../console-coverage.js';
import { coverageHistory, listCoverage } from '../coverage.js';
import { attachedSession } from '../session.js';
import type { ReviewObservation } from '../../../streams/coverage/index.js';
import { UsageError } from '../usage-error.js';
import type { OperatorDeps } from '../operator-deps.js';
import { OperatorRefused } from '../operator-refused.js';
import { operatorReads } from '../reads.js';

// The operator console (../console-html.ts) on the operator listener: GET /console (summary, queue,
// refund requests), GET /console/purchases (list, filters, revenue totals) and GET /console/purchases/:id
// (timeline, move), GET /console/coverage (the coverage ledger: review, add, withdraw; ../console-coverage.ts).
// Its forms post to the operator API. `npm run ops -- console` serves it on a loopback URL when the
// listener is the Unix socket.

export function operatorConsole(deps: OperatorDeps): Router {
  const router = new Router();
  const reads = operatorReads(deps);
  const html = (ctx: Koa.Context, body: string) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('cache-control', 'no-store');
    // Everything is inline and same-origin; the page may talk to nothing else.
    ctx.set(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src 'self'",
    );
    ctx.body = body;
  };

  router.get('/', (ctx) => {
    ctx.redirect('/console');
  });
  router.get('/console', async (ctx) => {
    const [queue, refunds] = [await reads.queue(), await reads.refunds(false)];
    html(
      ctx,
      homePage({ summary: await operatorSummary(deps.models.db, deps.now()), queue, refunds, now: deps.now() }),
    );
  });
  router.get('/console/purchases', async (ctx) => {
    let query: ReturnType<typeof consolePurchaseQuery>;
    try {
      query = consolePurchaseQuery(ctx.query);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      ctx.status = 400;
      html(ctx, refusalPage('USAGE', err.message));
      return;
    }
    await reads.fresh();
    const [rows, totals] = [
      await listPurchases(deps.models.db, query.filter),
      await purchaseTotals(deps.models.db, query.filter),
    ];
    html(ctx, purchaseListPage({ form: query.form, rows, totals, limit: query.filter.limit ?? rows.length }));
  });
  router.get('/console/purchases/:id', async (ctx) => {
    try {
      const timeline = await reads.timeline(ctx.params.id!);
      const message = timeline.refund ? await reads.refundMessage(timeline.purchase.purchase_id) : null;
      html(ctx, purchasePage(timeline, deps.now(), message));
    } catch (err) {
      if (!(err instanceof OperatorRefused)) throw err;
      ctx.status = err.status;
      html(ctx, refusalPage(err.code, err.message));
    }
  });
  router.get('/console/coverage', async (ctx) => {
    const session = attachedSession(deps);
    const history = await coverageHistory(session);
    const reviews = new Map<string, ReviewObservation>();
    for (const h of history)
      if (h.type === 'OriginReviewed') {
        const d = h.data as { origin: string; observed: ReviewObservation };
        reviews.set(d.origin, d.observed);
      }
    html(ctx, coveragePage({ lines: await listCoverage(session), reviews, history }));
  });
  return router;
}
