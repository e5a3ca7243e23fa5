import { BuyerRefused } from './errors.js';
import type { BuyResult, GateResult } from './results.js';
import type { ManifestLine } from '@rights-preflight/wire/contract/check-manifest.js';
import { line, tx } from './check-lines.js';
import type { CallEntry } from './check-plan.js';

// How one gate call of a bulk check (./check.ts) ended, and the manifest lines that say so, one per URL.

export type Outcome = { kind: 'result'; result: GateResult } | { kind: 'refused'; code: string; message: string };

/** The gate call's result, or the buyer's refusal (the service's own code when it refused the payment). */
export async function outcomeOf(run: () => Promise<GateResult | BuyResult>): Promise<Outcome> {
  try {
    return { kind: 'result', result: (await run()) as GateResult };
  } catch (e) {
    if (e instanceof BuyerRefused) {
      const code = e.code === 'PAYMENT_REFUSED' ? String((e.details as { code?: string }).code ?? e.code) : e.code;
      return {
        kind: 'refused',
        code: code === 'TASK_BUDGET_EXHAUSTED' ? 'BUDGET_EXHAUSTED' : code,
        message: e.message,
      };
    }
    throw e;
  }
}

/**
 * The final lines of a call, or undefined while it is still pending (no definitive answer yet: the next
 * run resumes it). `reportFile` is where a delivered report was saved.
 */
export function linesOf(
  call: readonly CallEntry[],
  id: string,
  charge: string,
  outcome: Outcome,
  reportFile?: string,
): ManifestLine[] | undefined {
  const at = (c: CallEntry) => ({ resource: c.resource, purchase_id: id || null, charge_micro: charge });
  if (outcome.kind === 'refused') {
    if (outcome.code === 'RESUME_EXHAUSTED') return undefined;
    const reason = { code: outcome.code, message: outcome.message };
    return call.map((c) => line(c.url, { ...at(c), charge_micro: '0', reason }));
  }
  const r = outcome.result;
  if (r.status === 'unavailable') {
    const reason = {
      code: r.reason,
      message: 'no resource of this call has a verifiable declaration; nothing charged',
    };
    return call.map((c) => line(c.url, { ...at(c), charge_micro: '0', reason }));
  }
  if (r.status === 'held') {
    const reason = { code: 'HELD', message: r.reason };
    return call.map((c) => line(c.url, { ...at(c), status: 'held', transaction: tx(r.transaction), reason }));
  }
  const entries = r.response.report.resources as { resource: string; signals_summary?: string }[];
  return call.map((c) => {
    const k = r.classifications.find((x) => x.resource === c.resource);
    return line(c.url, {
      ...at(c),
      status: 'bought',
      classification: (k?.classification ?? null) as ManifestLine['classification'],
      decision: (k?.decision ?? null) as ManifestLine['decision'],
      signals_summary: (entries.find((e) => e.resource === c.resource)?.signals_summary ??
        null) as ManifestLine['signals_summary'],
      report_file: reportFile ?? null,
      transaction: tx(r.transaction),
    });
  });
}
