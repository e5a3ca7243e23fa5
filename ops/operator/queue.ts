import { onlyFlags, UsageError, type ParsedArgs } from './args.js';
import { EXIT, type OperatorContext } from './context.js';
import { shortId, table } from './table.js';

// `queue [--json]`: the investigation queue — held and lock_stuck purchases — from the read model,
// each with its history read from its stream (src/operator/queue.ts).

export async function queue(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['json']);
  if (args.positionals.length > 0) throw new UsageError('queue takes no arguments');
  const entries = await ctx.service.run({ use: 'queue' });

  if (args.flags.has('json')) {
    ctx.out(JSON.stringify({ items: entries }));
    return EXIT.ok;
  }
  if (entries.length === 0) {
    ctx.out('the investigation queue is empty');
    return EXIT.ok;
  }
  for (const l of table(
    ['id', 'kind', 'reason', 'from', 'since'],
    entries.map((e) => [shortId(e.purchase_id), e.kind, e.reason, e.locked_from ?? '', e.since]),
  ))
    ctx.out(l);
  for (const e of entries) {
    ctx.out('');
    ctx.out(`${e.purchase_id}  (${e.kind}: ${e.reason})`);
    if (Object.keys(e.details).length > 0) ctx.out(`  details ${JSON.stringify(e.details)}`);
    for (const h of e.history)
      ctx.out(`  #${h.position.padStart(6)}  ${h.at}  ${h.type.padEnd(26)} ${JSON.stringify(h.summary)}`);
  }
  ctx.out('');
  ctx.out(
    `${entries.length} purchase(s); ` +
      'move one on with: npm run ops -- move <purchase-id> --to <target> --note "…" --operator <name>',
  );
  return EXIT.ok;
}
