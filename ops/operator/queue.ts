import { investigationQueueProjection, type InvestigationQueue, type QueueItem } from '../../projections/investigation-queue.js';
import type { EventStore } from '../../src/store/port.js';
import { fold } from '../../streams/purchase/evolve.js';
import { LOCKED_STATUSES, type PurchaseStatus } from '../../streams/purchase/state.js';
import { boolFlag, onlyFlags, UsageError, type ParsedArgs } from './args.js';
import { EXIT, withStore, type OperatorContext } from './context.js';
import { purchaseStream } from './purchases.js';
import { table } from './table.js';

// `queue [--all] [--json]`: the investigation queue (Held and LockStuck purchases with their history).
// The view is folded in memory from `$all` with the service's own projection (read-only: nothing is
// saved, so it can run beside the service on PostgreSQL). Each item's current status comes from
// folding its stream, the only source of truth: an item an operator already moved on is shown only
// with --all, whatever the projection version does with OperatorMoved.

const PAGE = 1000;

export interface QueueEntry extends QueueItem { status: PurchaseStatus; open: boolean }

export async function foldQueue(store: EventStore): Promise<InvestigationQueue> {
  let q = structuredClone(investigationQueueProjection.initial);
  let at = 0n;
  for (;;) {
    const page = await store.readAll(at, PAGE);
    for (const e of page) {
      q = investigationQueueProjection.apply(q, e);
      at = e.position;
    }
    if (page.length < PAGE) return q;
  }
}

export async function queueEntries(store: EventStore): Promise<QueueEntry[]> {
  const q = await foldQueue(store);
  const out: QueueEntry[] = [];
  for (const item of Object.values(q.items)) {
    const status = fold(await store.readStream(purchaseStream(item.purchase_id))).status;
    out.push({ ...item, status, open: LOCKED_STATUSES.includes(status) });
  }
  return out.sort((a, b) => (BigInt(a.since_position) < BigInt(b.since_position) ? -1 : 1));
}

export async function queue(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['all', 'json']);
  if (args.positionals.length > 0) throw new UsageError('queue takes no arguments');
  const all = boolFlag(args, 'all');
  const entries = (await withStore(ctx, queueEntries)).filter((e) => all || e.open);

  if (args.flags.has('json')) {
    ctx.out(JSON.stringify({ items: entries }));
    return EXIT.ok;
  }
  if (entries.length === 0) {
    ctx.out(all ? 'the investigation queue has never held anything' : 'the investigation queue is empty');
    return EXIT.ok;
  }
  for (const l of table(['purchase_id', 'kind', 'reason', 'status', 'since'], entries.map((e) => [e.purchase_id, e.kind, e.reason, e.status, e.since_position]))) ctx.out(l);
  for (const e of entries) {
    ctx.out('');
    ctx.out(`${e.purchase_id}  (${e.kind}: ${e.reason}; now ${e.status})`);
    if (Object.keys(e.details).length > 0) ctx.out(`  details ${JSON.stringify(e.details)}`);
    for (const h of e.history) ctx.out(`  #${h.position.padStart(6)}  ${h.at}  ${h.type.padEnd(26)} ${JSON.stringify(h.summary)}`);
  }
  ctx.out('');
  ctx.out(`${entries.length} purchase(s); move one on with: npm run ops -- move <purchase-id> --to <target> --note "…" --operator <name>`);
  return EXIT.ok;
}
