import { digestOf } from '@rights-preflight/wire/evidence/digest.js';
import type { EvidencePayload } from '@rights-preflight/wire/evidence/payloads.js';
import type { ReportResourceSignals } from '@rights-preflight/wire/contract/report-signals.js';
import type { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';
import { tokensForPurpose, type GatePurpose } from '@rights-preflight/wire/rsl/purposes.js';

// The AI-use signals beside RSL in a paid report (docs/wire.md §15), as the buyer reads them:
// checked against the signed evidence, shown by `verify`, and the reason ingestion is held by default
// when another standard restricts what RSL says (docs/decisions.md, "The plumbing of the signals beside RSL"). Pure.

/** One report resource's signals as verified: absent (null summary) in reports delivered before signals were read. */
export interface VerifiedSignals {
  resource: string;
  signals_summary: string | null;
  signals: SignalObservation[];
}

type Entry = { resource: string } & ReportResourceSignals;

export const signalsOfReport = (resources: readonly Entry[]): VerifiedSignals[] =>
  resources.map((r) => ({
    resource: r.resource,
    signals_summary: r.signals_summary ?? null,
    signals: r.signals ?? [],
  }));

/** The report's signals and summary are the ones the evidence signs (its reading's `signals`, its summary). */
export function signalsDisagree(r: Entry, e: EvidencePayload['resources'][number]): boolean {
  if ((r.signals_summary ?? null) !== (e.signals_summary ?? null)) return true;
  return digestOf(r.signals ?? null) !== digestOf((e.reading as { signals?: unknown }).signals ?? null);
}

/** Why ingestion is held: the resources where another standard restricts what RSL says. */
export interface IngestionHold {
  reason: 'RESTRICTED_BY_OTHER_SIGNAL';
  resources: { resource: string; standards: string[] }[];
}

/**
 * Held when some resource's summary is RESTRICTED_BY_OTHER_SIGNAL, unless the caller turned holding off.
 * null says only that no signal beside RSL asks to hold: it is never a permission (the classification is).
 */
export function ingestionHold(signals: readonly VerifiedSignals[], enabled: boolean): IngestionHold | null {
  if (!enabled) return null;
  const restricted = signals.filter((s) => s.signals_summary === 'RESTRICTED_BY_OTHER_SIGNAL');
  if (!restricted.length) return null;
  return {
    reason: 'RESTRICTED_BY_OTHER_SIGNAL',
    resources: restricted.map((s) => ({
      resource: s.resource,
      standards: [...new Set(s.signals.map((o) => o.standard))],
    })),
  };
}

/** `verify`'s lines: per resource its summary, then each observation's reading of the purpose's tokens. */
export function describeSignals(purpose: GatePurpose, signals: readonly VerifiedSignals[]): string[] {
  const tokens = new Set<string>(tokensForPurpose(purpose));
  return signals.flatMap((s) => {
    if (s.signals_summary === null)
      return [`${s.resource}: signals beside RSL not recorded (delivered before the service read them)`];
    const head = `${s.resource}: signals beside RSL ${s.signals_summary}`;
    const lines = s.signals.map((o) => {
      const read = o.readings
        .filter((r) => tokens.has(r.token))
        .map((r) => `${r.token} ${r.verdict} (${r.rule})`)
        .join('; ');
      return `  ${o.standard} ${o.channel} ${o.url} sha256 ${o.sha256}: ${JSON.stringify(o.statement)} → ${read}`;
    });
    return [head, ...lines];
  });
}
