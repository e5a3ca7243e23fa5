import * as t from 'io-ts';
import { TxHash } from '@rights-preflight/wire/contract/primitives.js';
import type { ReportRow } from '../../projections/report-view/report-row.js';
import { SettledData, OperatorTarget } from '../../streams/purchase/events.js';
import { RefundDecision } from '../../streams/refund/events.js';
import type { auditPurchases } from './audit.js';
import type { complianceTotals, coverageRecords } from './compliance.js';
import { CalendarDay, DayRangeWire } from './compliance.js';
import type { addOrigin, coverageHistory, listCoverage, reviewOrigin, withdrawOrigin } from './coverage.js';
import { CoverageChangeRequest } from './contract.js';
import type { moveNamedPurchase } from './move.js';
import { PurchaseIdArg } from './purchase-id.js';
import { PurchaseQuery } from './purchase-filter.js';
import type { queueEntries } from './queue.js';
import type { listRefundRequests, recordNamedRefundPayment, reviewNamedRefund } from './refunds.js';
import type { replayReadModels } from './replay.js';
import type { OperatorSession } from './session.js';
import type { showPurchase } from './show.js';

// The operator's use-cases, one request shape each: what `npm run ops` asks, run on a session
// (session.ts) of its own when no service runs, or sent to the running service's operator listener
// (POST /operator/v1/use-case, http/relay.ts) and run there on its open store. The CLI checks the command
// line and prints the answer; the request between them is this structured value, never a command
// line. Compliance rows stream through GET /operator/v1/compliance/rows instead (http/compliance.ts).
//
//   runUseCase(session, { use: 'show', purchase: { prefix: '3f9a' } })   // ShownPurchase | { refused }

/** Strings as the operator gave them: the decider checks them, as it did for the command line. */
const Text = t.string;

export const UseCaseRequest = t.union([
  t.type({ use: t.literal('queue') }),
  t.type({ use: t.literal('purchases'), query: PurchaseQuery }),
  t.type({ use: t.literal('show'), purchase: PurchaseIdArg }),
  t.type({
    use: t.literal('move'),
    purchase: PurchaseIdArg,
    data: t.intersection([
      t.type({ target: OperatorTarget, note: Text, operator: Text, at: Text }),
      t.partial({ settlement: SettledData }),
    ]),
  }),
  t.type({ use: t.literal('refunds'), all: t.boolean }),
  t.type({
    use: t.literal('refund-review'),
    purchase: PurchaseIdArg,
    data: t.type({ decision: RefundDecision, note: Text, operator: Text, at: Text }),
  }),
  t.type({
    use: t.literal('refund-paid'),
    purchase: PurchaseIdArg,
    data: t.type({
      transaction: TxHash,
      amount_micro: Text,
      note: Text,
      operator: Text,
      at: Text,
    }),
  }),
  t.intersection([t.type({ use: t.literal('audit') }), t.partial({ purchase: PurchaseIdArg })]),
  t.type({ use: t.literal('replay') }),
  t.type({ use: t.literal('compliance-totals'), range: DayRangeWire }),
  t.type({ use: t.literal('compliance-coverage'), range: t.type({ from: CalendarDay, to: CalendarDay }) }),
  t.type({ use: t.literal('coverage-list') }),
  t.intersection([t.type({ use: t.literal('coverage-history') }), t.partial({ origin: Text })]),
  t.type({ use: t.literal('coverage-review'), data: CoverageChangeRequest }),
  t.type({ use: t.literal('coverage-add'), data: CoverageChangeRequest }),
  t.type({ use: t.literal('coverage-withdraw'), data: CoverageChangeRequest }),
]);
export type UseCaseRequest = t.TypeOf<typeof UseCaseRequest>;
export type UseCaseName = UseCaseRequest['use'];
export type RequestOf<U extends UseCaseName> = Extract<UseCaseRequest, { use: U }>;

type Answer<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

/** What each use-case answers (JSON as it is: the relay sends it as it comes). */
export interface UseCaseResults {
  queue: Answer<typeof queueEntries>;
  purchases: ReportRow[];
  show: Answer<typeof showPurchase>;
  move: Answer<typeof moveNamedPurchase>;
  refunds: Answer<typeof listRefundRequests>;
  'refund-review': Answer<typeof reviewNamedRefund>;
  'refund-paid': Answer<typeof recordNamedRefundPayment>;
  audit: Answer<typeof auditPurchases>;
  replay: Answer<typeof replayReadModels>;
  'compliance-totals': Answer<typeof complianceTotals>;
  'compliance-coverage': Answer<typeof coverageRecords>;
  'coverage-list': Answer<typeof listCoverage>;
  'coverage-history': Answer<typeof coverageHistory>;
  'coverage-review': Answer<typeof reviewOrigin>;
  'coverage-add': Answer<typeof addOrigin>;
  'coverage-withdraw': Answer<typeof withdrawOrigin>;
}
export type UseCaseResult<U extends UseCaseName> = UseCaseResults[U];

// Each use-case's code is imported when it is first asked for, so an operator command loads only its
// own (docs/decisions.md, "Operator commands start from built code").
const USE_CASES: { [U in UseCaseName]: (s: OperatorSession, r: RequestOf<U>) => Promise<UseCaseResults[U]> } = {
  queue: async (s) => (await import('./queue.js')).queueEntries(s),
  purchases: async (s, r) => {
    const [{ listPurchases }, { purchaseFilter }] = await Promise.all([
      import('../../projections/queries/purchases.js'),
      import('./purchase-filter.js'),
    ]);
    return listPurchases((await s.models()).db, purchaseFilter(r.query));
  },
  show: async (s, r) => (await import('./show.js')).showPurchase(s, r.purchase),
  move: async (s, r) => (await import('./move.js')).moveNamedPurchase(s, r.purchase, r.data),
  refunds: async (s, r) => (await import('./refunds.js')).listRefundRequests(s, r.all),
  'refund-review': async (s, r) => (await import('./refunds.js')).reviewNamedRefund(s, r.purchase, r.data),
  'refund-paid': async (s, r) => (await import('./refunds.js')).recordNamedRefundPayment(s, r.purchase, r.data),
  audit: async (s, r) => (await import('./audit.js')).auditPurchases(s, r.purchase),
  replay: async (s) => (await import('./replay.js')).replayReadModels(s),
  'compliance-totals': async (s, r) => (await import('./compliance.js')).complianceTotals(s, r.range),
  'compliance-coverage': async (s, r) => (await import('./compliance.js')).coverageRecords(s, r.range),
  'coverage-list': async (s) => (await import('./coverage.js')).listCoverage(s),
  'coverage-history': async (s, r) => (await import('./coverage.js')).coverageHistory(s, r.origin),
  'coverage-review': async (s, r) => (await import('./coverage.js')).reviewOrigin(s, r.data),
  'coverage-add': async (s, r) => (await import('./coverage.js')).addOrigin(s, r.data),
  'coverage-withdraw': async (s, r) => (await import('./coverage.js')).withdrawOrigin(s, r.data),
};

export function runUseCase<U extends UseCaseName>(
  session: OperatorSession,
  request: RequestOf<U>,
): Promise<UseCaseResult<U>> {
  const run = USE_CASES[request.use as U];
  return run(session, request);
}

/**
 * The listener's answer to a relayed use-case: its result, or how it failed, so the CLI prints what a
 * local run prints (a usage error with the command's usage, any other error as `<command> failed`).
 */
export const UseCaseAnswer = t.union([
  t.type({ result: t.unknown }),
  t.type({ usage: t.string }),
  t.type({ failed: t.string }),
]);
export type UseCaseAnswer = t.TypeOf<typeof UseCaseAnswer>;
