import { projectionRunner, type Projection } from '../../projections/runner.js';
import { reportViewProjection, type ReportView } from '../../projections/report-view.js';
import { investigationQueueProjection, type InvestigationQueue } from '../../projections/investigation-queue.js';
import { onlyFlags, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { EXIT, withStore, type OperatorContext } from './context.js';
import { table } from './table.js';

// `replay [--projection report-view|investigation-queue|all]`: drops each projection's stored state and
// checkpoint and rebuilds it from the first event of `$all` through the same runner the service uses.

interface Replayable {
  projection: Projection<unknown>;
  rows: (view: unknown) => number;
}

const PROJECTIONS: Record<string, Replayable> = {
  'report-view': { projection: reportViewProjection as Projection<unknown>, rows: (v) => Object.keys(v as ReportView).length },
  'investigation-queue': { projection: investigationQueueProjection as Projection<unknown>, rows: (v) => Object.keys((v as InvestigationQueue).items).length },
};

export interface ReplayResult { projection: string; rows: number; position: string }

export async function replay(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['projection', 'json']);
  if (args.positionals.length > 0) throw new UsageError(`replay takes no arguments (got ${args.positionals.join(' ')})`);
  const which = stringFlag(args, 'projection') ?? 'all';
  const names = which === 'all' ? Object.keys(PROJECTIONS) : [which];
  for (const n of names) if (!PROJECTIONS[n]) throw new UsageError(`unknown projection ${n} (expected ${Object.keys(PROJECTIONS).join(', ')} or all)`);

  const results = await withStore(ctx, async (store) => {
    const out: ReplayResult[] = [];
    for (const name of names) {
      const { projection, rows } = PROJECTIONS[name]!;
      const runner = projectionRunner({ store, projection });
      await runner.rebuild(); // drop, fold from zero, save; not following `$all` afterwards
      out.push({ projection: name, rows: rows(runner.view()), position: runner.position().toString() });
      await runner.stop();
    }
    return out;
  });

  if (args.flags.has('json')) ctx.out(JSON.stringify({ replayed: results }));
  else {
    for (const l of table(['projection', 'rows', 'position'], results.map((r) => [r.projection, String(r.rows), r.position]))) ctx.out(l);
    ctx.out(`rebuilt ${results.length} projection(s) from zero; final position ${results.at(-1)?.position ?? '0'}`);
  }
  return EXIT.ok;
}
