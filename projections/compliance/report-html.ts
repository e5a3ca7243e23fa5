import { REVALIDATE_SKU } from '@rights-preflight/wire/contract/revalidation.js';
import type { ComplianceDaily, DayRange } from './compliance-row.js';
import type { CoveredDay } from '../../streams/coverage/covered-days.js';
import { escapeHtml, PALETTE, svgBarChart } from './svg-chart.js';

// The compliance report: the daily aggregates of a range of days as one self-contained HTML5 page an
// auditor can open offline or attach to an email. Pure: string in, string out (the generation time is
// an input, never read from a clock).
//
//   const daily = await complianceDaily(db, range);
//   const html = renderComplianceReport({ generatedAt: now.toISOString(), range, daily });
//
// Self-contained means no request of any kind: inline CSS, charts as inline SVG, system fonts, no
// script, no image, no link. A Content-Security-Policy of default-src 'none' makes that a promise the
// browser keeps even if a value ever escaped its escaping. Every value from the data (origins and
// purposes are publishers' text) goes through escapeHtml.
//
// The page holds:
// - #totals: each total in an element with data-total="reports|amount_usdc|held|refunded|origins|
//   revalidations|changed|restricted_by_other_signal" whose text is the plain number (no grouping separators),
//   for scripts that read the page. `revalidations` counts the revalidated resources among the reports (sku
//   rights.revalidate.v1), `changed` those whose signed report says the resource changed since its checkpoint,
//   `restricted_by_other_signal` those whose signed report's signals_summary is RESTRICTED_BY_OTHER_SIGNAL
//   (another standard beside RSL reserves the purpose where RSL does not prohibit it; docs/wire.md §15).
//   `origins` counts distinct non-empty origins; deliveries whose reading had no origin ('' in the
//   aggregate) are shown in their own "(no origin)" table but are not an origin.
// - charts: reports per day, classifications per purpose (stacked), held and refunded per day.
// - one table per origin: purpose × classification report counts.

/** What a report covers: which service, chain, recipient and evidence keys its deliveries were made with. */
export interface ComplianceCoverage {
  /** The service's public base URL. */
  baseUrl: string;
  /** The configured network (CAIP-2) and whether it is a development chain (test keys, no real funds). */
  network: string;
  developmentChain: boolean;
  /** The configured payment recipient. */
  recipient: string;
  /** The networks the covered deliveries were settled on and the evidence keys that signed them. */
  deliveryNetworks: readonly string[];
  evidenceKeyIds: readonly string[];
}

export interface ComplianceReportInput {
  /** ISO 8601 time of generation, shown as given. */
  generatedAt: string;
  covers?: ComplianceCoverage;
  range: DayRange;
  daily: readonly ComplianceDaily[];
  /** What the coverage ledger covered on each day of the range (streams/coverage/covered-days.ts). */
  coverage?: readonly CoveredDay[];
}

export interface ComplianceTotals {
  reports: number;
  amountMicro: bigint;
  held: number;
  refunded: number;
  origins: number;
  revalidations: number;
  changed: number;
  restrictedByOtherSignal: number;
}

export function renderComplianceReport(input: ComplianceReportInput): string {
  const { daily } = input;
  const covered = input.coverage && input.coverage.length > 0 ? [coverageSection(input.coverage)] : [];
  const body =
    daily.length === 0
      ? [
          header(input),
          totalsSection(totalsOf(daily)),
          '<p class="empty">No reports were delivered in this range.</p>',
          ...covered,
        ]
      : [
          header(input),
          totalsSection(totalsOf(daily)),
          ...covered,
          chartsSection(input.range, daily),
          originsSection(daily),
        ];
  return page(`Compliance report — ${rangeText(input.range)}`, body.join('\n'));
}

export function totalsOf(daily: readonly ComplianceDaily[]): ComplianceTotals {
  const totals = { reports: 0, amountMicro: 0n, held: 0, refunded: 0, origins: 0, revalidations: 0, changed: 0 };
  let restrictedByOtherSignal = 0;
  const origins = new Set<string>();
  for (const d of daily) {
    totals.reports += d.reports;
    totals.amountMicro += parseMicro(d.amount_micro);
    totals.held += d.held;
    totals.refunded += d.refunded;
    if (d.sku === REVALIDATE_SKU) totals.revalidations += d.reports;
    totals.changed += d.changed;
    restrictedByOtherSignal += d.restricted_by_other_signal;
    if (d.origin !== '') origins.add(d.origin);
  }
  return { ...totals, origins: origins.size, restrictedByOtherSignal };
}

// The aggregate's amount is a PostgreSQL numeric sum printed as text; micro-USDC are whole, so only a
// zero fraction is accepted. BigInt, because a month of sales can pass 2^53 micro-USDC.
export function parseMicro(text: string): bigint {
  const m = /^(-?\d+)(?:\.0*)?$/.exec(text.trim());
  if (!m) throw new RangeError(`amount_micro is not a whole number of micro-USDC: ${JSON.stringify(text)}`);
  return BigInt(m[1]!);
}

/** Micro-USDC as USDC: exact (no float), at least two decimals, trailing zeros beyond them trimmed. */
export function formatUsdc(micro: bigint): string {
  const sign = micro < 0n ? '-' : '';
  const abs = micro < 0n ? -micro : micro;
  const whole = abs / 1_000_000n;
  const fraction = (abs % 1_000_000n)
    .toString()
    .padStart(6, '0')
    .replace(/0{1,4}$/, '');
  return `${sign}${whole}.${fraction}`;
}

export function rangeText(range: DayRange): string {
  if (range.from !== undefined && range.to !== undefined)
    return range.from === range.to ? range.from : `${range.from} to ${range.to}`;
  if (range.from !== undefined) return `from ${range.from}`;
  if (range.to !== undefined) return `up to ${range.to}`;
  return 'all days';
}

function header(input: ComplianceReportInput): string {
  const generatedAt = escapeHtml(input.generatedAt);
  return [
    '<header>',
    '<h1>Compliance report</h1>',
    `<p>Delivered reports, ${escapeHtml(rangeText(input.range))} (UTC days of delivery, both ends included).</p>`,
    `<p class="generated">Generated <time datetime="${generatedAt}">${generatedAt}</time>.</p>`,
    '<p>One report counts once per resource it covers: an ingestion gate over n URLs counts n times, each under ' +
      'its own origin and classification, its payment shared among them. A revalidation counts the same way, ' +
      'and as changed when its signed report says the resource changed since the checkpoint.</p>',
    ...(input.covers ? [coversSection(input.covers)] : []),
    '</header>',
  ].join('\n');
}

function coversSection(c: ComplianceCoverage): string {
  const item = (label: string, key: string, value: string) =>
    `<div><dt>${label}</dt><dd data-covers="${key}">${value}</dd></div>`;
  const list = (xs: readonly string[]) => (xs.length ? xs.map(escapeHtml).join(', ') : '—');
  const dev = c.developmentChain
    ? ' <strong class="development" data-covers="development_chain">' +
      'DEVELOPMENT CHAIN — test keys, no real funds</strong>'
    : '';
  return [
    '<dl id="covers" class="covers">',
    item('Service', 'base_url', escapeHtml(c.baseUrl)),
    `<div><dt>Network</dt><dd><span data-covers="network">${escapeHtml(c.network)}</span>${dev}</dd></div>`,
    item('Recipient', 'recipient', escapeHtml(c.recipient)),
    item('Settled on', 'delivery_networks', list(c.deliveryNetworks)),
    item('Evidence key id', 'evidence_key_id', list(c.evidenceKeyIds)),
    '</dl>',
  ].join('\n');
}

function totalsSection(t: ComplianceTotals): string {
  const item = (label: string, key: string, value: string, unit = '') =>
    `<div><dt>${label}</dt><dd><span data-total="${key}">${value}</span>${unit}</dd></div>`;
  return [
    '<section id="totals">',
    '<h2>Totals</h2>',
    '<dl class="totals">',
    item('Reports delivered', 'reports', String(t.reports)),
    item('Amount', 'amount_usdc', formatUsdc(t.amountMicro), ' USDC'),
    item('Held', 'held', String(t.held)),
    item('Refunded', 'refunded', String(t.refunded)),
    item('Origins', 'origins', String(t.origins)),
    item('Revalidations', 'revalidations', String(t.revalidations)),
    item('Changed since checkpoint', 'changed', String(t.changed)),
    // Resources whose signed report says a signal beside RSL reserves the purpose RSL does not prohibit.
    item('Restricted by another signal', 'restricted_by_other_signal', String(t.restrictedByOtherSignal)),
    '</dl>',
    '</section>',
  ].join('\n');
}

function chartsSection(range: DayRange, daily: readonly ComplianceDaily[]): string {
  const days = dayAxis(range, daily);
  const perDay = (pick: (d: ComplianceDaily) => number) => {
    const sums = new Map<string, number>();
    for (const d of daily) sums.set(d.day, (sums.get(d.day) ?? 0) + pick(d));
    return days.map((day) => sums.get(day) ?? 0);
  };
  const purposes = distinct(daily.map((d) => d.purpose));
  const classifications = distinct(daily.map((d) => d.classification));
  const byPurpose = sumBy(daily, (d) => `${d.purpose}\u0000${d.classification}`);
  return [
    '<section id="charts">',
    '<h2>Charts</h2>',
    figure(
      svgBarChart({
        title: 'Reports delivered per day',
        categories: days,
        series: [{ name: 'reports', values: perDay((d) => d.reports) }],
      }),
    ),
    figure(
      svgBarChart({
        title: 'Classifications per purpose',
        categories: purposes.map(label),
        series: classifications.map((c, i) => ({
          name: label(c),
          values: purposes.map((p) => byPurpose.get(`${p}\u0000${c}`) ?? 0),
          color: PALETTE[i % PALETTE.length]!,
        })),
      }),
    ),
    figure(
      svgBarChart({
        title: 'Held and refunded per day',
        categories: days,
        layout: 'grouped',
        series: [
          { name: 'held', values: perDay((d) => d.held), color: PALETTE[1] },
          { name: 'refunded', values: perDay((d) => d.refunded), color: PALETTE[3] },
        ],
      }),
    ),
    '</section>',
  ].join('\n');
}

const figure = (svg: string) => `<figure>${svg}</figure>`;

const MAX_FILLED_DAYS = 366;

// The day axis runs over every day of the range, so quiet days show as gaps rather than vanish; an
// open end stops at the first/last day with deliveries. Past a year of days it falls back to the
// days with deliveries only, so an "all time" range over years of data still draws a readable chart.
export function dayAxis(range: DayRange, daily: readonly ComplianceDaily[]): string[] {
  const withData = distinct(daily.map((d) => d.day));
  if (withData.length === 0) return [];
  const first = withData[0]!;
  const last = withData.at(-1)!;
  const from = range.from !== undefined && range.from < first ? range.from : first;
  const to = range.to !== undefined && range.to > last ? range.to : last;
  return filledDays(from, to) ?? filledDays(first, last) ?? withData;
}

function filledDays(from: string, to: string): string[] | undefined {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) return undefined;
  const count = Math.round((end - start) / 86_400_000) + 1;
  if (count < 1 || count > MAX_FILLED_DAYS) return undefined;
  return Array.from({ length: count }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
}

function coverageSection(days: readonly CoveredDay[]): string {
  const rows = days.map((d) => {
    const origins = d.origins.length === 0 ? '<em>none</em>' : d.origins.map(escapeHtml).join('<br>');
    const changes = d.changes
      .map((c) => `${escapeHtml(c.at)} ${escapeHtml(c.type)} ${escapeHtml(c.origin)} by ${escapeHtml(c.operator)}`)
      .join('<br>');
    return `<tr><th scope="row">${escapeHtml(d.day)}</th><td>${origins}</td><td>${changes}</td></tr>`;
  });
  return [
    '<section id="coverage">',
    '<h2>Coverage by day</h2>',
    '<table><thead><tr><th scope="col">day (UTC)</th><th scope="col">origins covered</th>' +
      '<th scope="col">changes</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody></table>`,
    '</section>',
  ].join('\n');
}

function originsSection(daily: readonly ComplianceDaily[]): string {
  // Grouped in one pass: a report can cover thousands of publishers' origins.
  const byOrigin = new Map<string, ComplianceDaily[]>();
  for (const d of daily) {
    const rows = byOrigin.get(d.origin);
    if (rows) rows.push(d);
    else byOrigin.set(d.origin, [d]);
  }
  // Named origins alphabetically, then the deliveries that had none.
  const origins = distinct([...byOrigin.keys()]).sort((a, b) => Number(a === '') - Number(b === ''));
  return [
    '<section id="origins">',
    '<h2>Per origin</h2>',
    ...origins.map((o) => originTable(o, byOrigin.get(o)!)),
    '</section>',
  ].join('\n');
}

function originTable(origin: string, rows: readonly ComplianceDaily[]): string {
  const t = totalsOf(rows);
  const purposes = distinct(rows.map((d) => d.purpose));
  const classifications = distinct(rows.map((d) => d.classification));
  const cells = sumBy(rows, (d) => `${d.purpose}\u0000${d.classification}`);
  const byPurpose = sumBy(rows, (d) => d.purpose);
  const byClass = sumBy(rows, (d) => d.classification);
  const name = origin === '' ? '<em>(no origin)</em>' : escapeHtml(origin);
  const headCells = classifications.map((c) => `<th scope="col">${escapeHtml(label(c))}</th>`).join('');
  const footCells = classifications.map((c) => `<td>${byClass.get(c) ?? 0}</td>`).join('');
  return [
    '<article class="origin">',
    `<h3>${name}</h3>`,
    `<p>${t.reports} reports · ${formatUsdc(t.amountMicro)} USDC · ${t.held} held · ${t.refunded} refunded` +
      `${t.revalidations > 0 ? ` · ${t.revalidations} revalidations, ${t.changed} changed` : ''}` +
      `${t.restrictedByOtherSignal > 0 ? ` · ${t.restrictedByOtherSignal} restricted by another signal` : ''}</p>`,
    '<table>',
    `<thead><tr><th scope="col">Purpose</th>${headCells}<th scope="col">Total</th></tr></thead>`,
    '<tbody>',
    ...purposes.map((p) => {
      const row = classifications.map((c) => `<td>${cells.get(`${p}\u0000${c}`) ?? 0}</td>`).join('');
      return `<tr><th scope="row">${escapeHtml(label(p))}</th>${row}<td>${byPurpose.get(p) ?? 0}</td></tr>`;
    }),
    '</tbody>',
    `<tfoot><tr><th scope="row">Total</th>${footCells}<td>${t.reports}</td></tr></tfoot>`,
    '</table>',
    '</article>',
  ].join('\n');
}

/** Sorted distinct values (code-unit order: the same on every machine, whatever its locale). */
function distinct(values: readonly string[]): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function sumBy(rows: readonly ComplianceDaily[], key: (d: ComplianceDaily) => string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const d of rows) sums.set(key(d), (sums.get(key(d)) ?? 0) + d.reports);
  return sums;
}

// An empty purpose or classification would be an invisible header; name it instead.
const label = (value: string) => (value === '' ? '(none)' : value);

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>
${STYLE}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const STYLE = `
body {
  margin: 0; background: #fff; color: #1a1a1a;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
main { max-width: 1000px; margin: 0 auto; padding: 24px; }
h1 { margin: 0 0 4px; font-size: 24px; }
h2 { margin: 32px 0 12px; font-size: 18px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { margin: 24px 0 4px; font-size: 15px; overflow-wrap: anywhere; }
.generated { color: #555; }
.totals { display: flex; flex-wrap: wrap; gap: 12px; margin: 0; }
.totals div { border: 1px solid #ddd; border-radius: 6px; padding: 8px 14px; min-width: 120px; }
.totals dt { color: #555; font-size: 12px; }
.totals dd { margin: 0; font-size: 20px; font-weight: 600; font-variant-numeric: tabular-nums; }
figure { margin: 16px 0; }
svg.chart { max-width: 100%; height: auto; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ddd; padding: 4px 10px; }
td { text-align: right; }
th[scope="row"] { text-align: left; font-weight: normal; }
thead th, tfoot th, tfoot td { background: #f5f5f5; font-weight: 600; }
.empty { font-size: 16px; padding: 16px; border: 1px dashed #bbb; border-radius: 6px; }
@media print { main { padding: 0; } article, figure { break-inside: avoid; } }
`.trim();
