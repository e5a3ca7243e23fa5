import { escapeHtml as esc, svgBarChart } from '../../projections/compliance/svg-chart.js';
import type { OperatorSummary } from '../../projections/queries/summary.js';
import type { HistoryEntry } from './history.js';
import { shortId as short } from './short-id.js';
import { OperatorTarget } from '../../streams/purchase/events.js';
import { OPERATOR_API } from './contract.js';
import type { PurchaseTimeline, QueueEntry, RefundEntry } from './reads.js';
import type { ReportRow } from '../../projections/report-view/report-row.js';
import type { PurchaseTotals } from '../../projections/queries/purchases.js';
import { SKUS, type ConsolePurchaseQuery } from './console-purchase-query.js';
import { LISTED_STATUSES } from './purchase-filter.js';

// The operator console's pages: plain server-rendered HTML, every value escaped, one tiny script that
// posts a form's fields as JSON to the operator API (the same routes the CLI's actions decide through)
// and writes the answer under the form. Only what the timelines carry (history.ts summaries): never a
// sealed authorization, a claim or a payment signature. Ids are shown as 12-character prefixes (shortId);
// other long values (hashes, transactions) wrap inside their cell, whole, so a copy takes all of them and
// nothing runs off a 1,280 px page (docs/decisions.md, "The console: one unit for money, ISO times, search").

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1a1a1a}
header{background:#123;color:#fff;padding:.6rem 1.2rem}header a{color:#fff;text-decoration:none;font-weight:600}
main{padding:1rem 1.2rem;max-width:1200px}h2{margin:1.4rem 0 .5rem;font-size:1.1rem}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}
th{background:#f3f4f6}
blockquote{white-space:pre-wrap;border-left:3px solid #ccc;margin:.4rem 0;padding:.2rem .8rem}
code{font:12px ui-monospace,monospace}td code{word-break:break-all}td{overflow-wrap:anywhere}
.cards{display:flex;gap:1rem}
.card{border:1px solid #ddd;border-radius:6px;padding:.6rem 1rem;min-width:9rem}.card b{display:block;font-size:1.5rem}
.charts{display:flex;gap:1.5rem;flex-wrap:wrap}
form{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center;margin:.4rem 0}
input[name=note]{min-width:22rem}.result{font-weight:600}
.result[data-state=refused]{color:#b00}.result[data-state=done]{color:#060}
.empty{color:#666}header a+a{font-weight:400}`;

// Posts the form's fields as JSON to its data-api route; the answer (or refusal code) goes under it.
const SCRIPT = `
for (const form of document.querySelectorAll('form[data-api]')) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const result = form.querySelector('.result');
    result.dataset.state = 'sending';
    result.textContent = 'sending…';
    const res = await fetch(form.dataset.api, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(Object.fromEntries(new FormData(form))),
    });
    const answer = await res.json().catch(() => ({}));
    if (res.ok) {
      result.dataset.state = 'done';
      result.textContent = answer.moved
        ? 'moved ' + answer.moved.from + ' → ' + answer.moved.to + ' (revision ' + answer.moved.revision + ')'
        : answer.refund ? 'refund request ' + answer.refund.from + ' → ' + answer.refund.to : 'done';
      for (const input of form.querySelectorAll('button')) input.disabled = true;
    } else {
      result.dataset.state = 'refused';
      result.textContent =
        'refused ' + ((answer.refused && answer.refused.code) || res.status) + ': ' +
        ((answer.refused && answer.refused.message) || '');
    }
  });
}`;

export function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><header><a href="/console">Rights Preflight · operator console</a> · <a href="/console/purchases">purchases</a>` +
    ` · <a href="/console/coverage">coverage</a>` +
    `</header>` +
    `<main>${body}</main><script>${SCRIPT}</script></body></html>`
  );
}

/** "42 s", "5 min", "3 h", "2 d": how long something has waited. */
export function age(since: string, now: Date): string {
  const s = Math.max(0, Math.floor((now.getTime() - Date.parse(since)) / 1000));
  if (Number.isNaN(s)) return '—';
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.floor(s / 60)} min`;
  if (s < 172_800) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} d`;
}

const purchaseLink = (id: string) => `<a href="/console/purchases/${esc(id)}"><code>${esc(short(id))}</code></a>`;
/** EIP-3009's validity bounds are Unix seconds on the wire; the console shows them as times. */
const UNIX_SECONDS = new Set(['valid_before', 'valid_after', 'validBefore', 'validAfter']);
const factText = (k: string, v: unknown): string => {
  const seconds = typeof v === 'string' && /^\d{9,11}$/.test(v) ? Number(v) : typeof v === 'number' ? v : undefined;
  if (UNIX_SECONDS.has(k) && seconds !== undefined) {
    const iso = isoTime(new Date(seconds * 1000).toISOString());
    return `<span title="${esc(String(v))} (Unix seconds)">${esc(iso)}</span>`;
  }
  if (/_micro$/.test(k) && typeof v === 'string' && /^\d+$/.test(v)) return money(v);
  return `<code>${esc(typeof v === 'string' ? v : JSON.stringify(v))}</code>`;
};
const summaryText = (summary: Record<string, unknown>) =>
  Object.entries(summary)
    .filter(([, v]) => v !== undefined && v !== null && !(typeof v === 'object' && Object.keys(v).length === 0))
    .map(([k, v]) => `${esc(k)}: ${factText(k, v)}`)
    .join('<br>');

export function table(headers: readonly string[], rows: readonly string[][], empty: string, id: string): string {
  if (rows.length === 0) return `<p class="empty" id="${id}">${esc(empty)}</p>`;
  const head = headers.map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('');
  return `<table id="${id}"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

function operatorFields(): string {
  return (
    '<input name="note" required placeholder="note: what was checked and why">' +
    '<input name="operator" required placeholder="operator name">'
  );
}

function reviewForm(r: RefundEntry): string {
  if (r.status !== 'requested' || r.revision === null) return '';
  return (
    `<form data-api="${OPERATOR_API}/refunds/${esc(r.purchase_id)}/review">` +
    `<input type="hidden" name="expected_revision" value="${esc(r.revision)}">
<select name="decision"><option value="approve">approve</option><option value="reject">reject</option></select>` +
    `${operatorFields()}<button>review</button><span class="result"></span></form>`
  );
}

export function homePage(input: {
  summary: OperatorSummary;
  queue: QueueEntry[];
  refunds: RefundEntry[];
  now: Date;
}): string {
  const { summary, queue, refunds, now } = input;
  const total = summary.by_status.reduce((n, s) => n + s.purchases, 0);
  const cards =
    `<div class="cards"><div class="card">queue<b id="queue-count">${queue.length}</b></div>` +
    `<div class="card">open refund requests<b>${refunds.length}</b></div>` +
    `<div class="card">purchases<b>${total}</b></div></div>`;
  const byStatus = svgBarChart({
    title: 'Purchases by status',
    categories: summary.by_status.map((s) => s.status),
    series: [{ name: 'purchases', values: summary.by_status.map((s) => s.purchases) }],
    width: 520,
    height: 260,
  });
  const perDay = svgBarChart({
    title: 'Quotes per day (UTC, last 14 days)',
    categories: summary.quotes_per_day.map((d) => d.day.slice(5)),
    series: [{ name: 'quotes', values: summary.quotes_per_day.map((d) => d.quotes) }],
    width: 520,
    height: 260,
  });
  const charts = `<div class="charts">${byStatus}
${perDay}</div>`;
  const queueRows = queue.map((q) => [
    purchaseLink(q.purchase_id),
    esc(q.kind),
    esc(q.reason),
    esc(q.locked_from ?? '—'),
    `<span title="${esc(isoTime(q.since))}">${esc(age(q.since, now))}</span>`,
  ]);
  const refundRows = refunds.map((r) => [
    purchaseLink(r.purchase_id),
    esc(r.status),
    esc(r.reason),
    money(r.amount_micro),
    `<span title="${esc(isoTime(r.requested_at))}">${esc(age(r.requested_at, now))}</span>`,
    reviewForm(r),
  ]);
  const queueTable = table(
    ['purchase', 'kind', 'reason', 'locked from', 'age'],
    queueRows,
    'The investigation queue is empty.',
    'queue',
  );
  const refundTable = table(
    ['purchase', 'status', 'reason', 'amount', 'age', 'review'],
    refundRows,
    'No refund request waits for an operator.',
    'refunds',
  );
  return page(
    'Operator console',
    `<h2>Summary</h2>${cards}${charts}
<h2>Investigation queue</h2>${queueTable}
<h2>Refund requests</h2>${refundTable}`,
  );
}

const TARGETS = Object.keys(OperatorTarget.keys);

function timelineRows(history: readonly HistoryEntry[]): string[][] {
  return history.map((h) => [
    esc(h.revision),
    `<span title="position ${esc(h.position)}">${esc(isoTime(h.at))}</span>`,
    esc(h.type),
    summaryText(h.summary),
  ]);
}

/** `refundMessage`: what the buyer wrote with the refund request, shown as written (escaped). */
export function purchasePage(t: PurchaseTimeline, now: Date, refundMessage: string | null = null): string {
  const p = t.purchase;
  const locked = p.status === 'held' || p.status === 'lock_stuck';
  const fields: [string, string][] = [
    ['id', `<code>${esc(p.purchase_id)}</code>`],
    ['status', `<b id="status">${esc(p.status)}</b>${p.lock_reason ? ` (${esc(p.lock_reason)})` : ''}`],
    ['resource', esc(p.resource)],
    ['purpose', esc(p.purpose)],
    ['price', money(p.price_micro)],
    ['payer', esc(p.payer ?? '—')],
    ['transaction', `<code>${esc(p.transaction ?? '—')}</code>`],
    ['quoted', `${esc(isoTime(p.quoted_at))} (${esc(age(p.quoted_at, now))} ago)`],
  ];
  const move =
    locked && t.revision !== null
      ? `<h2>Move on</h2><form id="move" data-api="${OPERATOR_API}/purchases/${esc(p.purchase_id)}/move">` +
        `<input type="hidden" name="expected_revision" value="${esc(t.revision)}">
<select name="target">${TARGETS.map((x) => `<option value="${esc(x)}">${esc(x)}</option>`).join('')}</select>` +
        `${operatorFields()}<button>move</button><span class="result"></span></form>`
      : '';
  const refund = t.refund
    ? `<h2>Refund request</h2><p>${esc(t.refund.status)}: ${esc(t.refund.reason)}, ` +
      `${money(t.refund.amount_micro)}, requested ${esc(isoTime(t.refund.requested_at))} ` +
      `(review it on <a href="/console">the console's first page</a>)</p>` +
      (refundMessage === null
        ? '<p class="empty" id="refund-message">The buyer wrote no message.</p>'
        : `<p>The buyer wrote:</p><blockquote id="refund-message">${esc(refundMessage)}</blockquote>`)
    : '';
  const timeline = table(['rev', 'at', 'event', 'facts'], timelineRows(t.history), 'No events.', 'timeline');
  // One row per resource sold: a gate's URLs each under its own origin and classification; a revalidation's
  // also say whether its report found the resource changed since the checkpoint; every delivered line what its
  // report says of the signals beside RSL (— for a report drafted before them).
  const resources = table(
    [
      '#',
      'origin',
      'resource',
      'purpose',
      'classification',
      'changed',
      'other signals',
      'report sha256',
      'evidence sha256',
    ],
    t.resources.map((r) => [
      esc(String(r.line)),
      esc(r.origin ?? '—'),
      esc(r.resource),
      esc(r.purpose),
      esc(r.classification),
      r.changed === null ? '—' : r.changed ? 'yes' : 'no',
      esc(r.signals_summary ?? '—'),
      `<code>${esc(r.report_sha256 ?? '—')}</code>`,
      `<code>${esc(r.evidence_sha256 ?? '—')}</code>`,
    ]),
    'No resources.',
    'resources',
  );
  return page(
    `Purchase ${short(p.purchase_id)}`,
    `<h2>Purchase <code>${esc(short(p.purchase_id))}</code></h2>
<table id="purchase">${fields.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`).join('')}</table>
<h2>Resources (${t.resources.length}, one payment)</h2>${resources}
<h2>Timeline</h2>${timeline}${move}${refund}`,
  );
}

export function refusalPage(code: string, message: string): string {
  return page(
    'Refused',
    `<h2>${esc(code)}</h2><p>${esc(message)}</p><p><a href="/console">back to the console</a></p>`,
  );
}

/** micro-USDC as USDC with six decimals ("1234567" → "1.234567"). */
export function usdc(micro: string): string {
  const digits = micro.replace(/^0+(?=\d)/, '').padStart(7, '0');
  return `${digits.slice(0, -6)}.${digits.slice(-6)}`;
}

/** Money, one unit everywhere: USDC, with the exact micro-USDC on hover. */
export function money(micro: string): string {
  return `<span class="usdc" title="${esc(micro)} micro-USDC">${esc(usdc(micro))} USDC</span>`;
}

/** An ISO instant to the second, UTC (`2026-11-28T07:45:12Z`): every time on the console reads the same. */
export function isoTime(at: string): string {
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? at : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const select = (name: string, values: readonly string[], chosen: string) =>
  `<select name="${name}"><option value="">any ${esc(name)}</option>` +
  values.map((v) => `<option value="${esc(v)}"${v === chosen ? ' selected' : ''}>${esc(v)}</option>`).join('') +
  '</select>';

/** GET /console/purchases: the filter form, the totals of everything it matches, and the newest rows. */
export function purchaseListPage(input: {
  form: ConsolePurchaseQuery;
  rows: ReportRow[];
  totals: PurchaseTotals;
  limit: number;
}): string {
  const { form, rows, totals, limit } = input;
  const filters =
    '<form id="filters" method="get" action="/console/purchases">' +
    select('status', LISTED_STATUSES, form.status) +
    select('sku', SKUS, form.sku) +
    `<input name="origin" placeholder="origin, e.g. https://pub.example" value="${esc(form.origin)}">` +
    `<input name="day" type="date" value="${esc(form.day)}" title="quoted on this UTC day">` +
    `<input name="q" type="search" placeholder="purchase id, payer or transaction" value="${esc(form.q)}" ` +
    'title="a purchase id or its first 4+ hex characters, a payer address (0x…40 hex) or a transaction (0x…64 hex)">' +
    '<button>filter</button> <a href="/console/purchases">clear</a></form>';
  const cards =
    `<div class="cards" id="totals"><div class="card">purchases<b id="total-purchases">${totals.purchases}</b></div>` +
    `<div class="card">paid<b id="total-paid">${totals.paid}</b></div>` +
    `<div class="card">revenue (USDC)<b id="total-revenue">${esc(usdc(totals.revenue_micro))}</b></div></div>`;
  const listed = rows.map((r) => [
    purchaseLink(r.purchase_id),
    esc(isoTime(r.quoted_at)),
    esc(r.status),
    esc(r.sku),
    esc(r.origin ?? (r.resources ? `${r.resources.length} resources` : '—')),
    esc(r.purpose),
    esc(r.classification),
    money(r.price_micro),
    r.settled_amount_micro === null ? '—' : money(r.settled_amount_micro),
  ]);
  const more =
    totals.purchases > rows.length
      ? `<p class="empty">The newest ${rows.length} of ${totals.purchases} are listed (limit ${limit}).</p>`
      : '';
  return page(
    'Purchases',
    `<h2>Purchases</h2>${filters}${cards}
${table(
  ['purchase', 'quoted', 'status', 'sku', 'origin', 'purpose', 'classification', 'price', 'paid'],
  listed,
  'No purchase matches these filters.',
  'purchases',
)}${more}`,
  );
}
