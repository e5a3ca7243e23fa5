import { rebuild } from '../../projections/catch-up.js';
import { openReadModels } from '../../projections/read-models.js';
import { READ_MODEL_TABLES } from '../../projections/schema.js';
import { onlyFlags, UsageError, type ParsedArgs } from './args.js';
import { EXIT, withStore, type OperatorContext } from './context.js';
import { table } from './table.js';

// `replay [--json]`: empties every read-model table and rebuilds them all from the first event of
// `$all` with the projection code the service runs. They are rebuilt together because they advance
// together (one checkpoint, one transaction per page).

export interface ReplayResult {
  table: string;
  rows: number;
}

export async function replay(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['json']);
  if (args.positionals.length > 0)
    throw new UsageError(`replay takes no arguments (got ${args.positionals.join(' ')})`);
  const started = Date.now();
  const { results, position, events } = await withStore(ctx, async (store) => {
    const models = await openReadModels(store, { readStoreUrl: ctx.config.readStoreUrl });
    try {
      const done = await rebuild(models.db, models.feed);
      const results: ReplayResult[] = [];
      for (const name of READ_MODEL_TABLES) {
        const [r] = await models.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${name}`);
        results.push({ table: name, rows: Number(r?.n ?? 0) });
      }
      return { results, ...done };
    } finally {
      await models.close();
    }
  });
  const seconds = (Date.now() - started) / 1000;
  if (args.flags.has('json'))
    ctx.out(JSON.stringify({ replayed: results, position: position.toString(), events, seconds }));
  else {
    for (const l of table(
      ['table', 'rows'],
      results.map((r) => [r.table, String(r.rows)]),
    ))
      ctx.out(l);
    ctx.out(`rebuilt every read model from zero: ${events} events to position ${position} in ${seconds.toFixed(1)} s`);
  }
  return EXIT.ok;
}
