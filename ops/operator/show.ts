import { parsePurchaseIdArg } from '../../src/operator/purchase-id.js';
import type { ShownPurchase } from '../../src/operator/show.js';
import type { SoldLine } from '../../projections/report-view/resource-lines.js';
import { onlyFlags, UsageError, type ParsedArgs } from './args.js';
import { EXIT, type OperatorContext } from './context.js';

// `show <id or unique prefix> [--json]`: one purchase — its report-view row, the resources it sold,
// its stream's events, its refund request (src/operator/show.ts says what each holds and never holds).
// Exit 1 when the argument names no single purchase.
//
//   npm run ops -- show 3f9a0c1b

const orNone = (v: string | null | undefined): string => v ?? '—';

/** What a delivered report says of a line beyond its classification: a revalidation's change, other signals. */
export function lineDetail(r: Pick<SoldLine, 'changed' | 'signals_summary' | 'signals'>): string {
  const parts: string[] = [];
  if (r.changed !== null) parts.push(`changed: ${r.changed ? 'yes' : 'no'}`);
  if (r.signals_summary !== null)
    parts.push(`other signals: ${r.signals_summary}${r.signals?.length ? ` (${r.signals.join(', ')})` : ''}`);
  return parts.join(' · ');
}

export function printShown(
  out: (line: string) => void,
  { purchase: p, resources, history, refund }: ShownPurchase,
): void {
  const field = (name: string, value: string) => out(`  ${name.padEnd(22)} ${value}`);
  out(`purchase ${p.purchase_id}`);
  field(
    'status',
    `${p.status}${p.locked_from ? ` (from ${p.locked_from})` : ''}${p.lock_reason ? `: ${p.lock_reason}` : ''}`,
  );
  field('sku', p.sku);
  field('resource', p.resource);
  field('origin', orNone(p.origin));
  field('purpose', `${p.purpose} (user class ${p.user_class}, tier ${p.tier}${p.geo ? `, geo ${p.geo}` : ''})`);
  field('classification', `${p.classification} → ${p.decision}`);
  field('price', `${p.price_micro} micro-USDC (quoted ${p.quoted_at}, expires ${p.expires_at})`);
  field('payer', orNone(p.payer));
  field(
    'amount',
    p.settled_amount_micro ? `${p.settled_amount_micro} micro-USDC on ${orNone(p.network)}` : '— (nothing settled)',
  );
  field('transaction', orNone(p.transaction));
  field('delivered_at', orNone(p.delivered_at));
  field('evidence_key_id', orNone(p.evidence_key_id));
  field('report_sha256', orNone(p.report_sha256));
  field('evidence_sha256', orNone(p.evidence_sha256));
  field('delivery_proof_sha256', orNone(p.delivery_proof_sha256));
  out('');
  out(`resources (${resources.length}, one payment${p.transaction ? ` ${p.transaction}` : ''}):`);
  for (const r of resources) {
    out(`  ${String(r.line).padStart(2)}  ${orNone(r.origin).padEnd(32)} ${r.classification.padEnd(35)} ${r.resource}`);
    const detail = lineDetail(r);
    if (detail) out(`      ${detail}`);
  }
  out('');
  out(`history (${history.length} event(s)):`);
  for (const h of history)
    out(
      `  #${h.position.padStart(6)}  rev ${h.revision.padStart(2)}  ` +
        `${h.at}  ${h.type.padEnd(26)} ${JSON.stringify(h.summary)}`,
    );
  out('');
  if (!refund) out('refund: none requested');
  else {
    out(
      `refund: ${refund.status} (${refund.reason}, ${refund.amount_micro} micro-USDC, ` +
        `requested ${refund.requested_at}` +
        `${refund.reviewed_at ? `, reviewed ${refund.reviewed_at}` : ''}` +
        `${refund.paid_transaction ? `, paid in ${refund.paid_transaction}` : ''})`,
    );
  }
}

export async function show(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['json']);
  const [arg, ...extra] = args.positionals;
  if (!arg || extra.length > 0) throw new UsageError('show takes one purchase id or unique prefix');
  const wanted = parsePurchaseIdArg(arg);
  const outcome = await ctx.service.run({ use: 'show', purchase: wanted });

  if ('refused' in outcome) {
    if (args.flags.has('json')) ctx.out(JSON.stringify({ refused: outcome.refused }));
    else ctx.err(`refused ${outcome.refused.code}: ${outcome.refused.message}`);
    return EXIT.finding;
  }
  if (args.flags.has('json')) ctx.out(JSON.stringify(outcome));
  else printShown(ctx.out, outcome);
  return EXIT.ok;
}
