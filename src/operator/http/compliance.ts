import type Router from '@koa/router';
import type Koa from 'koa';
import * as t from 'io-ts';
import { PassThrough, type Writable } from 'node:stream';
import type { ComplianceExportRow } from '../../../projections/compliance/compliance-row.js';
import { writeComplianceExport, writeCoverageExport } from '../../../projections/compliance/export-format.js';
import { dayAxis, renderComplianceReport } from '../../../projections/compliance/report-html.js';
import { complianceDaily } from '../../../projections/queries/compliance.js';
import { CalendarDay, complianceRowsOf, coverageOfDays, coverageRecords } from '../compliance.js';
import type { OperatorDeps } from '../operator-deps.js';
import { OperatorRefused } from '../operator-refused.js';
import { attachedSession } from '../session.js';
import { decodeQuery } from './query.js';

// The compliance read model for auditors, streamed page by page (constant memory, whatever the range):
//
//   GET /compliance/export?from&to&format=csv|jsonl    the export itself: delivered reports, or with
//       &of=coverage what was covered on each day (projections/compliance/coverage-day-row.ts)
//   GET /compliance/rows?from&to                       its rows as NDJSON, for `ops compliance export`
//                                                      beside a running service (the CLI writes the file)
//   GET /compliance/report?from&to                     the HTML report

const DAY = 'from and to are required days (YYYY-MM-DD), from ≤ to';
const Range = t.type({ from: CalendarDay, to: CalendarDay });
const ExportQuery = t.intersection([
  Range,
  t.type({ format: t.keyof({ csv: null, jsonl: null }) }),
  t.partial({ of: t.keyof({ rows: null, coverage: null }) }),
]);
const ReportQuery = t.partial({ from: CalendarDay, to: CalendarDay });

function requiredRange<Q extends { from: string; to: string }>(query: Q): Q {
  if (query.from > query.to) throw new OperatorRefused('USAGE', DAY);
  return query;
}

/** Streams what `write` writes as the answer; a failure after the status is sent cuts the answer short. */
function streamed(ctx: Koa.Context, deps: OperatorDeps, type: string, write: (out: Writable) => Promise<unknown>) {
  const out = new PassThrough();
  ctx.type = type;
  ctx.body = out;
  write(out)
    .then(() => out.end())
    .catch((err: Error) => {
      deps.log.error({ err: { message: err.message } }, 'compliance export failed');
      out.destroy(err);
    });
}

async function ndjson(rows: AsyncIterable<ComplianceExportRow>, out: Writable): Promise<void> {
  for await (const row of rows) {
    if (!out.write(`${JSON.stringify(row)}\n`)) await new Promise((resolve) => out.once('drain', resolve));
  }
}

export function complianceRoutes(router: Router, deps: OperatorDeps): void {
  const session = attachedSession(deps);

  router.get('/compliance/export', async (ctx) => {
    const { from, to, format, of } = requiredRange(
      decodeQuery(ExportQuery, ctx.query, {
        from: DAY,
        to: DAY,
        format: 'format must be csv or jsonl',
        of: 'of must be rows or coverage',
      }),
    );
    if (of === 'coverage') {
      const records = await coverageRecords(session, { from, to });
      streamed(ctx, deps, format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson', (out) =>
        writeCoverageExport(records, format, out),
      );
      return;
    }
    await session.models();
    streamed(ctx, deps, format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson', (out) =>
      writeComplianceExport(complianceRowsOf(session, { from, to }), format, out),
    );
  });

  router.get('/compliance/rows', async (ctx) => {
    const range = requiredRange(decodeQuery(Range, ctx.query, { from: DAY, to: DAY }));
    await session.models();
    streamed(ctx, deps, 'application/x-ndjson', (out) => ndjson(complianceRowsOf(session, range), out));
  });

  router.get('/compliance/report', async (ctx) => {
    const { from, to } = decodeQuery(ReportQuery, ctx.query, {
      from: 'from must be a day (YYYY-MM-DD)',
      to: 'to must be a day (YYYY-MM-DD)',
    });
    const range = { ...(from ? { from } : {}), ...(to ? { to } : {}) };
    const models = await session.models();
    ctx.type = 'text/html; charset=utf-8';
    const daily = await complianceDaily(models.db, range);
    const coverage = await coverageOfDays(session, dayAxis(range, daily));
    ctx.body = renderComplianceReport({ generatedAt: deps.now().toISOString(), range, daily, coverage });
  });
}
