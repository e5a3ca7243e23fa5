import { buyerContext, type BuyerContext } from './context.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { BuyerRefused } from './errors.js';
import { deliver } from './deliver.js';
import { ingestionGateUpfront } from './gate-upfront.js';
import type { UpfrontTerms } from './pay.js';
import type { BuyerOptions } from './options.js';
import type { GateResult } from './results.js';
import type { SavedReport } from './verify-report.js';
import type { ManifestLine } from '@rights-preflight/wire/contract/check-manifest.js';
import { gateInput } from '@rights-preflight/wire/ingestion-gate/gate-input.js';
import type { Tier } from '@rights-preflight/wire/pricing/prices.js';
import type { GatePurpose } from '@rights-preflight/wire/rsl/purposes.js';
import { line, settled, spentBefore } from './check-lines.js';
import { planCheck, type CallEntry } from './check-plan.js';
import { linesOf, outcomeOf, type Outcome } from './check-outcome.js';
import { summarize, type CheckSummary } from './check-summary.js';

// `rights-preflight check` as a library (README "Check a crawl"): a list of URLs in, one manifest line per
// URL out (./wire/contract/check-manifest.ts). Uncovered origins are answered from capabilities, free and
// without a request (./check-plan.ts); covered URLs are grouped by origin into gate calls of up to four,
// each paid on its first request (./gate-upfront.ts: paid work, never rate-limited) and checkpointed,
// verified and held exactly as a single gate purchase is. Before a call is paid its URLs get a `pending`
// line naming the purchase; its checkpoint is removed only once the final lines are written, so a run
// killed anywhere is resumed from the manifest and the checkpoints: a pending purchase with a checkpoint
// is resent with the same authorization (never a new charge), one without was never signed and is bought
// anew. The budget counts every purchase of the manifest, earlier runs included, and no call is paid
// that would pass it.

export type { CheckSummary } from './check-summary.js';
export { summaryTable } from './check-summary.js';

export interface CheckIo {
  /** Every manifest line written so far, in order (empty for a new manifest). */
  lines(): Promise<ManifestLine[]>;
  /** Appends lines durably (they are the resume point). */
  append(lines: readonly ManifestLine[]): Promise<void>;
  /** Keeps a verified report; answers its path relative to the manifest. */
  saveReport(purchaseId: string, saved: SavedReport): Promise<string>;
}

export interface CheckOptions {
  urls: readonly string[];
  purpose: GatePurpose;
  tier?: Tier;
  /** The most the whole manifest may spend, in micro-USDC, earlier runs included. */
  budgetMicro: bigint;
  /** Gate calls in flight at once (default 16). */
  concurrency?: number;
  io: CheckIo;
  /** Called after every gate call (a terminal's progress line). */
  progress?: (p: CheckProgress) => void;
}

export interface CheckProgress {
  done: number;
  total: number;
  spentMicro: bigint;
}

export const DEFAULT_CHECK_CONCURRENCY = 16;

interface Capabilities {
  coverage: { origins: string[] };
  payment: { eip712: { name: string; version: string } };
  paid_requests?: { max_timeout_seconds: number };
}

/** One run of a check: the buyer's context, the manifest as it stands, and what this run did. */
interface Run {
  ctx: BuyerContext;
  store: CheckpointStore;
  o: CheckOptions;
  terms: UpfrontTerms;
  last: Map<string, ManifestLine>;
  written: ManifestLine[];
  stopped: boolean;
  resumed: number;
  http429: number;
}

const question = (o: CheckOptions, resources: string[]) => ({
  resources,
  purpose: o.purpose,
  ...(o.tier ? { tier: o.tier } : {}),
});

export async function checkCrawl(opts: BuyerOptions, o: CheckOptions): Promise<CheckSummary> {
  const earlier = await o.io.lines();
  const run = await startRun(opts, o, earlier);
  const urls = [...new Set(o.urls.map((u) => u.trim()).filter((u) => u !== ''))];
  const stillPending = await resumePending(run, urls);
  const todo = urls.filter((u) => {
    const l = run.last.get(u);
    // Settled, or still pending on a checkpoint (resumed by the next run): never bought again.
    return !settled(l) && !(l?.status === 'pending' && stillPending.has(l.purchase_id!));
  });
  const plan = planCheck(todo, run.caps.coverage.origins);
  if (plan.local.length) await write(run, plan.local);
  await runCalls(run, plan.calls);
  return summarize(urls, run.last, run.written, o.budgetMicro, run.http429, run.resumed);
}

async function startRun(
  opts: BuyerOptions,
  o: CheckOptions,
  earlier: ManifestLine[],
): Promise<Run & { caps: Capabilities }> {
  const fetchOf = opts.fetch ?? globalThis.fetch.bind(globalThis);
  const largest = gateInput(
    question(
      o,
      [1, 2, 3, 4].map((n) => `https://a.example/${n}`),
    ),
  ).price_micro;
  const left = o.budgetMicro - spentBefore(earlier);
  // The check removes a checkpoint itself, once the purchase's final lines are written (see above).
  const store = opts.checkpointStore;
  const keeping: CheckpointStore = {
    save: (cp) => store.save(cp),
    load: (id) => store.load(id),
    remove: async () => {},
    ids: () => store.ids(),
  };
  const counted = { n: 0 };
  const ctx = buyerContext({
    ...opts,
    checkpointStore: keeping,
    maxPerReportMicro: largest,
    maxPerTaskMicro: left > 0n ? left : 0n,
    fetch: async (input, init) => {
      const res = await fetchOf(input, init);
      if (res.status === 429) counted.n++;
      return res;
    },
  });
  const res = await ctx.fetch(`${ctx.baseUrl}/v1/capabilities`);
  if (!res.ok) throw new BuyerRefused('SERVICE_ERROR', `capabilities answered ${res.status}`);
  const caps = (await res.json()) as Capabilities;
  if (!caps.paid_requests)
    throw new BuyerRefused('SERVICE_ERROR', 'the service does not take a payment on the first request (paid_requests)');
  const run = {
    ctx,
    store,
    o,
    caps,
    terms: { maxTimeoutSeconds: caps.paid_requests.max_timeout_seconds, eip712: caps.payment.eip712 },
    last: new Map(earlier.map((l) => [l.url, l])),
    written: [],
    stopped: false,
    resumed: 0,
    get http429() {
      return counted.n;
    },
  };
  return run;
}

async function write(run: Run, lines: ManifestLine[]): Promise<void> {
  await run.o.io.append(lines);
  for (const l of lines) run.last.set(l.url, l);
  run.written.push(...lines);
}

/** Each pending purchase of an earlier run, from its checkpoint; answers those still without an answer. */
async function resumePending(run: Run, urls: readonly string[]): Promise<Set<string>> {
  const pending = new Map<string, CallEntry[]>();
  for (const url of urls) {
    const l = run.last.get(url);
    if (l?.status === 'pending' && l.purchase_id)
      pending.set(l.purchase_id, [...(pending.get(l.purchase_id) ?? []), { url, resource: l.resource! }]);
  }
  const still = new Set<string>();
  for (const [id, call] of pending) {
    const cp = await run.store.load(id);
    if (!cp) continue; // never signed: nothing was charged, the URLs are bought anew
    run.resumed++;
    // Signed already: it counts against the budget, and is sent exactly as it was signed.
    const amount = BigInt(cp.expected.amount);
    if (run.ctx.budget.spent + amount <= run.ctx.budget.maxPerTask) run.ctx.budget.reserve(amount);
    const outcome = await outcomeOf(() => deliver(run.ctx, cp, true) as Promise<GateResult>);
    if (!(await record(run, id, call, cp.expected.amount, outcome))) still.add(id);
  }
  return still;
}

/** The final lines of a call, then its checkpoint goes; false while it is still pending. */
async function record(run: Run, id: string, call: CallEntry[], charge: string, outcome: Outcome): Promise<boolean> {
  if (outcome.kind === 'refused' && outcome.code === 'BUDGET_EXHAUSTED') run.stopped = true;
  const r = outcome.kind === 'result' ? outcome.result : undefined;
  const file = r?.status === 'delivered' ? await run.o.io.saveReport(r.purchase_id, r.saved) : undefined;
  const lines = linesOf(call, id, charge, outcome, file);
  if (!lines) return false;
  await write(run, lines);
  if (id) await run.store.remove(id);
  return true;
}

async function runCall(run: Run, call: CallEntry[]): Promise<void> {
  const { ctx, o } = run;
  const q = question(o, [...new Set(call.map((c) => c.resource))]);
  const price = gateInput(q).price_micro;
  if (run.stopped || ctx.budget.spent + price > ctx.budget.maxPerTask) {
    // Stops before the budget is passed: this call and every one after it wait for a bigger budget.
    run.stopped = true;
    const reason = { code: 'BUDGET_EXHAUSTED', message: `${price} more would pass the budget of ${o.budgetMicro}` };
    await write(
      run,
      call.map((c) => line(c.url, { resource: c.resource, reason })),
    );
    return;
  }
  let id = '';
  const beforePay = async (purchaseId: string) => {
    id = purchaseId;
    const charge_micro = price.toString();
    await write(
      run,
      call.map((c) => line(c.url, { resource: c.resource, status: 'pending', purchase_id: purchaseId, charge_micro })),
    );
  };
  const outcome = await outcomeOf(() => ingestionGateUpfront(ctx, q, { terms: run.terms, beforePay }));
  await record(run, id, call, price.toString(), outcome);
}

async function runCalls(run: Run, calls: CallEntry[][]): Promise<void> {
  const queue = [...calls];
  let done = 0;
  const width = Math.max(1, Math.min(run.o.concurrency ?? DEFAULT_CHECK_CONCURRENCY, queue.length || 1));
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      await runCall(run, next);
      done++;
      run.o.progress?.({ done, total: calls.length, spentMicro: run.ctx.budget.spent });
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
}
