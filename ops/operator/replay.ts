import { onlyFlags, UsageError, type ParsedArgs } from './args.js';
import { EXIT, type OperatorContext } from './context.js';
import { table } from './table.js';
import { terminalProgress } from '../progress.js';

// `replay [--json]`: empties every read-model table and rebuilds them all from the first event of
// `$all` with the projection code the service runs. They are rebuilt together because they advance
// together (one checkpoint, one transaction per page): src/operator/replay.ts.

export async function replay(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['json']);
  if (args.positionals.length > 0)
    throw new UsageError(`replay takes no arguments (got ${args.positionals.join(' ')})`);
  const started = Date.now();
  // A rebuild of 100k purchases takes seconds: on a terminal, stderr says it is under way, to which
  // position of the log's head it has come (ops/progress.ts).
  let reached = { position: 0n, head: 0n };
  const { results, position, events } = await terminalProgress().during(
    'rebuilding every read model from the first event',
    ctx.service.replay((p) => {
      reached = p;
    }),
    () => ({ unit: 'position', done: Number(reached.position), total: Number(reached.head) }),
  );
  const seconds = (Date.now() - started) / 1000;
  if (args.flags.has('json')) ctx.out(JSON.stringify({ replayed: results, position, events, seconds }));
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
