import type { ManifestLine } from '@rights-preflight/wire/contract/check-manifest.js';

// The summary of a bulk check (./check.ts): counted from each URL's last manifest line, so a resumed run
// reports the whole manifest, not only what it did itself.

export interface CheckSummary {
  urls: number;
  bought: number;
  held: number;
  pending: number;
  not_bought: Record<string, number>;
  classifications: Record<string, number>;
  /** Gate calls this run made or resumed. */
  gate_calls: number;
  /** Distinct transfers of this manifest (one per paid gate call). */
  transactions: number;
  spent_micro: string;
  budget_micro: string;
  /** 429 answers met by this run (resent with the same authorization). */
  http_429: number;
  resumed: number;
}

export function summarize(
  urls: readonly string[],
  last: Map<string, ManifestLine>,
  written: readonly ManifestLine[],
  budget: bigint,
  http429: number,
  resumed: number,
): CheckSummary {
  const s: CheckSummary = {
    urls: urls.length,
    bought: 0,
    held: 0,
    pending: 0,
    not_bought: {},
    classifications: {},
    gate_calls: new Set(written.filter((l) => l.purchase_id).map((l) => l.purchase_id)).size,
    transactions: 0,
    spent_micro: '0',
    budget_micro: budget.toString(),
    http_429: http429,
    resumed,
  };
  const paid = new Map<string, bigint>();
  const transactions = new Set<string>();
  for (const url of urls) {
    const l = last.get(url);
    if (!l) continue;
    if (l.status === 'bought') {
      s.bought++;
      s.classifications[l.classification!] = (s.classifications[l.classification!] ?? 0) + 1;
    } else if (l.status === 'held') s.held++;
    else if (l.status === 'pending') s.pending++;
    else s.not_bought[l.reason!.code] = (s.not_bought[l.reason!.code] ?? 0) + 1;
    if ((l.status === 'bought' || l.status === 'held') && l.purchase_id)
      paid.set(l.purchase_id, BigInt(l.charge_micro));
    if (l.transaction) transactions.add(l.transaction.toLowerCase());
  }
  s.transactions = transactions.size;
  s.spent_micro = [...paid.values()].reduce((a, b) => a + b, 0n).toString();
  return s;
}

/** The summary as a small table for a terminal. */
export function summaryTable(s: CheckSummary): string {
  const rows: [string, string][] = [
    ['URLs', String(s.urls)],
    ['bought (verified reports)', String(s.bought)],
    ...Object.entries(s.classifications).map(([c, n]): [string, string] => [`  ${c}`, String(n)]),
    ['held', String(s.held)],
    ['pending (resume: run again)', String(s.pending)],
    ...Object.entries(s.not_bought).map(([c, n]): [string, string] => [`not bought: ${c}`, String(n)]),
    ['gate calls this run', String(s.gate_calls)],
    ['transfers', String(s.transactions)],
    ['spent (micro-USDC)', `${s.spent_micro} of ${s.budget_micro}`],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n');
}
