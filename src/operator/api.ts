import Router from '@koa/router';
import type Koa from 'koa';
import { PassThrough } from 'node:stream';
import { writeComplianceExport } from '../../projections/compliance/export-format.js';
import { renderComplianceReport } from '../../projections/compliance/report-html.js';
import { complianceDaily, complianceRows } from '../../projections/queries/compliance.js';
import { listPurchases } from '../../projections/queries/purchases.js';
import { operatorSummary } from '../../projections/queries/summary.js';
import { readCheckpoint } from '../../projections/schema.js';
import { dayFlag, type ParsedArgs } from '../../ops/operator/args.js';
import { movePurchase } from '../../ops/operator/move.js';
import { purchaseFilter } from '../../ops/operator/purchases-command.js';
import { changeRefund, recordRefundPayment, refundChainOf } from '../../ops/operator/refunds.js';
import { runAttached } from '../../ops/cli.js';
import { streamName } from '../../streams/purchase/purchase-id.js';
import { REFUND_STREAM_PREFIX } from '../../streams/refund/index.js';
import type { RefundCommandBody } from '../../streams/refund/index.js';
import { decodeOrThrow } from '../contract/decode.js';
import { readJsonBody } from '../http/json-body.js';
import { relayCli } from './cli-relay.js';
import {
  CliRequest,
  MoveRequest,
  OPERATOR_API,
  RefundPaidRequest,
  RefundReviewRequest,
  type MoveResponse,
  type PurchasesResponse,
  type QueueResponse,
  type RefundChangeResponse,
  type RefundsResponse,
  type ReplayStatus,
  type SummaryResponse,
  type TimelineResponse,
} from './contract.js';
import { OperatorRefused, orRefuse } from './operator-refused.js';
import type { OperatorDeps } from './operator-deps.js';
import { operatorReads } from './reads.js';

// The operator API (JSON, under /operator/v1), served only on the operator listener (listener.ts),
// never on the public app. Reads come from the read models once they include every event appended
// before the request (caughtUp), so a hold or a refund request shows here as soon as it is stored;
// timelines come from the streams. Every action is the operator function the CLI runs (move,
// refund review/paid): read, fold, decide, append at the revision the operator saw.
//
//   GET  /queue                       held and stuck purchases, each with its timeline
//   GET  /purchases?status&since&origin&limit&after    report-view rows, newest first; `next` pages on
//   GET  /purchases/:id               one purchase (id or unique prefix): row, timeline, refund, revision
//   POST /purchases/:id/move          MoveRequest → MoveResponse
//   GET  /refunds?all=1               refund requests (open ones unless all), each with its revision
//   POST /refunds/:id/review | /paid  RefundReviewRequest | RefundPaidRequest → RefundChangeResponse
//   GET  /audit?purchase=             the audit of `ops audit --json` (200 whether or not it found violations)
//   GET  /replay                      ReplayStatus: the read models' checkpoint against the store's head
//   GET  /summary                     counts for the console's charts
//   GET  /compliance/export?from&to&format=csv|jsonl    streamed
//   GET  /compliance/report?from&to   the HTML report
//   POST /cli                         one CLI command line, relayed (cli-relay.ts)

const EXPORT_PAGE_ROWS = 500;

/** Query parameters as the CLI's parsed flags, so the CLI's own checks validate them. */
function queryArgs(query: Koa.Context['query'], names: readonly string[]): ParsedArgs {
  const flags = new Map<string, string | true>();
  for (const name of names) {
    const v = query[name];
    if (typeof v === 'string') flags.set(name, v);
    else if (Array.isArray(v)) throw new OperatorRefused('USAGE', `${name} given more than once`);
  }
  return { positionals: [], flags };
}

export function operatorApi(deps: OperatorDeps): Router {
  const { store, models } = deps;
  const router = new Router({ prefix: OPERATOR_API });
  const reads = operatorReads(deps);
  const { fresh, purchaseIdOf } = reads;

  router.get('/health', (ctx) => {
    ctx.body = { ok: true };
  });

  router.get('/queue', async (ctx) => {
    ctx.body = { items: await reads.queue() } satisfies QueueResponse;
  });

  router.get('/purchases', async (ctx) => {
    const filter = purchaseFilter(queryArgs(ctx.query, ['status', 'since', 'origin', 'limit']));
    const after = ctx.query.after;
    if (after !== undefined && (typeof after !== 'string' || !/^[0-9a-f]{64}$/.test(after)))
      throw new OperatorRefused('USAGE', 'after must be the full id of the last purchase of the previous page');
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

  router.post('/purchases/:id/move', async (ctx) => {
    const body = decodeOrThrow(MoveRequest, await readJsonBody(ctx));
    await fresh();
    const id = await purchaseIdOf(ctx.params.id!);
    const data = {
      target: body.target,
      note: body.note.trim(),
      operator: body.operator.trim(),
      at: deps.now().toISOString(),
      ...(body.settlement ? { settlement: body.settlement } : {}),
    };
    const moved = orRefuse(
      await movePurchase(store, streamName(id), data, deps.now(), BigInt(body.expected_revision)),
    ).moved;
    deps.log.info({ purchase_id: id, target: body.target, operator: data.operator }, 'operator moved a purchase');
    ctx.body = { moved: { purchase_id: id, ...moved } } satisfies MoveResponse;
  });

  router.get('/refunds', async (ctx) => {
    ctx.body = {
      refunds: await reads.refunds(ctx.query.all === '1' || ctx.query.all === 'true'),
    } satisfies RefundsResponse;
  });

  const refundChain = refundChainOf(deps.config);
  const refundChange = (what: 'review' | 'paid') => async (ctx: Koa.Context) => {
    const at = deps.now().toISOString();
    let change: (id: string) => ReturnType<typeof changeRefund>;
    let operator: string;
    if (what === 'review') {
      const b = decodeOrThrow(RefundReviewRequest, await readJsonBody(ctx));
      operator = b.operator.trim();
      const command: RefundCommandBody = {
        type: 'ReviewRefund',
        data: { decision: b.decision === 'approve' ? 'approved' : 'rejected', note: b.note.trim(), operator, at },
      };
      change = (id) => changeRefund(store, id, command, deps.now(), BigInt(b.expected_revision));
    } else {
      const b = decodeOrThrow(RefundPaidRequest, await readJsonBody(ctx));
      operator = b.operator.trim();
      const data = { transaction: b.transaction, amount_micro: b.amount_micro, note: b.note.trim(), operator, at };
      // Read on the chain before it is recorded (ops/operator/refunds.ts).
      change = (id) => recordRefundPayment(store, id, data, refundChain, deps.now(), BigInt(b.expected_revision));
    }
    await fresh();
    const arg = ctx.params.id!;
    const id = await purchaseIdOf(arg.startsWith(REFUND_STREAM_PREFIX) ? arg.slice(REFUND_STREAM_PREFIX.length) : arg);
    const done = orRefuse(await change(id)).done;
    deps.log.info({ purchase_id: id, refund: what, operator }, 'operator changed a refund request');
    ctx.body = { refund: done } satisfies RefundChangeResponse;
  };
  router.post('/refunds/:id/review', refundChange('review'));
  router.post('/refunds/:id/paid', refundChange('paid'));

  router.get('/audit', async (ctx) => {
    const one = ctx.query.purchase;
    const lines: string[] = [];
    const problems: string[] = [];
    const argv = ['audit', '--json', ...(typeof one === 'string' ? ['--purchase', one] : [])];
    const exit = await runAttached(argv, {
      config: deps.config,
      now: deps.now,
      attached: { store, models },
      out: (l) => lines.push(l),
      err: (l) => problems.push(l),
    });
    if (exit === 2 || lines.length !== 1)
      throw new OperatorRefused('USAGE', problems.join('\n') || 'audit could not run');
    const result = JSON.parse(lines[0]!) as Record<string, unknown>;
    if ('refused' in result) orRefuse(result);
    ctx.body = result;
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

  router.get('/compliance/export', async (ctx) => {
    const args = queryArgs(ctx.query, ['from', 'to', 'format']);
    const from = dayFlag(args, 'from');
    const to = dayFlag(args, 'to');
    const format = ctx.query.format;
    if (from === undefined || to === undefined || from > to)
      throw new OperatorRefused('USAGE', 'from and to are required days (YYYY-MM-DD), from ≤ to');
    if (format !== 'csv' && format !== 'jsonl') throw new OperatorRefused('USAGE', 'format must be csv or jsonl');
    await fresh();
    const out = new PassThrough();
    ctx.type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson';
    ctx.body = out;
    writeComplianceExport(complianceRows(models.db, { from, to }, EXPORT_PAGE_ROWS), format, out)
      .then(() => out.end())
      .catch((err: Error) => {
        deps.log.error({ err: { message: err.message } }, 'compliance export failed');
        out.destroy(err);
      });
  });

  router.get('/compliance/report', async (ctx) => {
    const args = queryArgs(ctx.query, ['from', 'to']);
    const range = {
      ...(dayFlag(args, 'from') ? { from: dayFlag(args, 'from')! } : {}),
      ...(dayFlag(args, 'to') ? { to: dayFlag(args, 'to')! } : {}),
    };
    await fresh();
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = renderComplianceReport({
      generatedAt: deps.now().toISOString(),
      range,
      daily: await complianceDaily(models.db, range),
    });
  });

  router.post('/cli', async (ctx) => {
    const request = decodeOrThrow(CliRequest, await readJsonBody(ctx));
    relayCli(ctx, request, { config: deps.config, now: deps.now, attached: { store, models } });
  });

  return router;
}
