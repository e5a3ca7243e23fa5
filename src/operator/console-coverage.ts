import { escapeHtml as esc } from '../../projections/compliance/svg-chart.js';
import type { ReviewObservation } from '../../streams/coverage/index.js';
import { page, table } from './console-html.js';
import { OPERATOR_API } from './contract.js';
import type { CoverageHistoryLine, CoverageLine } from './coverage.js';

// The console's coverage page (GET /console/coverage): the ledger's origins with what their latest review
// observed, a form to review an origin (discovery now, recorded), add a reviewed one, withdraw a covered
// one — each posting to the operator API's coverage routes (http/coverage.ts) — and the ledger's history.

const who =
  '<input name="operator" required placeholder="operator name">' +
  '<input name="reason" required placeholder="reason: why (the publisher asked, a contract…)">';

function changeForm(what: 'review' | 'add' | 'withdraw', origin?: string): string {
  const target =
    origin === undefined
      ? '<input name="origin" required placeholder="https://publisher.example">'
      : `<input type="hidden" name="origin" value="${esc(origin)}">`;
  return (
    `<form data-api="${OPERATOR_API}/coverage/${what}">${target}${who}` +
    `<button>${what}</button><span class="result"></span></form>`
  );
}

/** The latest review in a line: the declaration, each purpose's answer, the other signals. */
function reviewSummary(o: ReviewObservation | undefined): string {
  if (!o) return '<span class="empty">not reviewed</span>';
  const purposes = o.purposes.map((p) => `${esc(p.purpose)}: <code>${esc(p.classification)}</code>`).join('<br>');
  const signals = o.signals.length === 0 ? 'none' : [...new Set(o.signals.map((s) => s.standard))].join(', ');
  return (
    `RSL declaration: ${o.declaration_found ? 'found' : 'none'}` +
    `${o.discovery_complete ? '' : ' (discovery incomplete)'}<br>${purposes}<br>other signals: ${esc(signals)}`
  );
}

export function coveragePage(input: {
  lines: readonly CoverageLine[];
  reviews: ReadonlyMap<string, ReviewObservation>;
  history: readonly CoverageHistoryLine[];
}): string {
  const rows = input.lines.map((l) => [
    `<code>${esc(l.origin)}</code>`,
    esc(l.status),
    esc(l.since ?? '—'),
    `${esc(l.reviewed_at ?? '—')}${l.reviewed_by ? ` by ${esc(l.reviewed_by)}` : ''}`,
    reviewSummary(input.reviews.get(l.origin)),
    l.status === 'covered'
      ? changeForm('withdraw', l.origin)
      : l.status === 'reviewed'
        ? changeForm('add', l.origin)
        : changeForm('review', l.origin),
  ]);
  const history = [...input.history].reverse().map((h) => {
    const d = h.data as { at: string; origin?: string; origins?: string[]; operator?: string; reason?: string };
    return [
      esc(d.at),
      esc(h.type),
      `<code>${esc(d.origin ?? (d.origins ?? []).join(', '))}</code>`,
      esc(d.operator ?? 'COVERED_ORIGINS'),
      esc(d.reason ?? ''),
    ];
  });
  return page(
    'coverage · operator console',
    '<h2>Review an origin</h2>' +
      '<p>Runs discovery on its home page now and records what a buyer would get; add it from the table.</p>' +
      changeForm('review') +
      '<h2>Origins in the ledger</h2>' +
      table(
        ['origin', 'status', 'covered since', 'latest review', 'what the review observed', ''],
        rows,
        'the coverage ledger is empty',
        'coverage',
      ) +
      '<h2>History</h2>' +
      table(['at', 'change', 'origin', 'operator', 'reason'], history, 'nothing yet', 'coverage-history'),
  );
}
