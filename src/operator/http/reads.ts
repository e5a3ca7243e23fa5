import type Router from '@koa/router';
import * as t from 'io-ts';
import { listPurchases } from '../../../projections/queries/purchases.js';
import { operatorSummary } from '../../../projections/queries/summary.js';
import { readCheckpoint } from '../../../projections/schema.js';
import type {
  PurchasesResponse,
  QueueResponse,
  RefundsResponse,
  ReplayStatus,
  SummaryResponse,
  TimelineResponse,
} from '../contract.js';
import type { OperatorDeps } from '../operator-deps.js';
import { purchaseFilter, PurchaseQuery } from '../purchase-filter.js';
import type { operatorReads } from '../reads.js';
import { decodeQuery } from './query.js';
import { PurchaseId } from '@rights-preflight/wire/contract/common.js';

// The operator API's reads: the queue, purchases (paged), one purchase's timeline, refund requests,
// where the read models stand, and the console's counts.
//
//   GET /queue                                     held and stuck purchases, each with its timeline
//   GET /purchases?status&since&origin&limit&after report-view rows, newest first; `next` pages on
//   GET /purchases/:id                             one purchase (id or unique prefix): row, timeline,
//                                                  refund, revision
//   GET /refunds?all=1                             refund requests (open ones unless all), each with
//                                                  its revision
//   GET /replay                                    ReplayStatus: the read models' checkpoint against
//                                                  the store's head
//   GET /summary                                   counts for the console's charts

const PurchasesQuery = t.intersection([PurchaseQuery, t.partial({ after: PurchaseId })]);
const RefundsQuery = t.partial({ all: t.string });

export function readRoutes(router: Router, deps: OperatorDeps, reads: ReturnType<typeof operatorReads>): void {
  const { models } = deps;
  const { fresh } = reads;

  router.get('/queue', async (ctx) => {
    ctx.body = { items: await reads.queue() } satisfies QueueResponse;
  });

  router.get('/purchases', async (ctx) => {
    const { after, ...query } = decodeQuery(PurchasesQuery, ctx.query, {
      after: 'after must be the full id of the last purchase of the previous page',
    });
    const filter = purchaseFilter(query);
    await fresh();
    const purchases = await listPurchases(models.db, { ...filter, ...(after ? { after } : {}) });
    ctx.body = {
      purchases,
      next: purchases.length === filter.limit ? purchases[purchases.length - 1]!.purchase_id : null,
    } satisfies PurchasesResponse;
  });

  router.get('/purchases/:id', async (ctx) => {
    ctx.body = (await reads.timeline(ctx.params.id!)) satisfies TimelineResponse;
  });

  router.get('/refunds', async (ctx) => {
    const { all } = decodeQuery(RefundsQuery, ctx.query);
    ctx.body = { refunds: await reads.refunds(all === '1' || all === 'true') } satisfies RefundsResponse;
  });

  router.get('/replay', async (ctx) => {
    const [checkpoint, head] = [(await readCheckpoint(models.db)).position, await models.feed.head()];
    ctx.body = {
      checkpoint: checkpoint.toString(),
      head: head.toString(),
      behind: (head > checkpoint ? head - checkpoint : 0n).toString(),
      leader: deps.isLeader(),
    } satisfies ReplayStatus;
  });

  router.get('/summary', async (ctx) => {
    await fresh();
    ctx.body = (await operatorSummary(models.db, deps.now())) satisfies SummaryResponse;
  });
}
