import type {
  SignalChannel,
  SignalObservation,
  SignalStandard,
} from '@rights-preflight/wire/signals/signal-observation.js';
import { EvaluationBudget, EvaluationBudgetExceeded } from '../matching/evaluation-budget.js';
import { readContentSignalRobots } from './content-signal-robots.js';
import { readContentUsageHeader } from './content-usage-header.js';
import { readContentUsageRobots } from './content-usage-robots.js';
import { type HtmlMeta, htmlMetas } from './html-meta.js';
import { readNoaiHeader, readNoaiMetas } from './noai.js';
import { sha256OfText, silentObservation } from './observation.js';
import type { SignalSources } from './signal-sources.js';
import { budgetExceededRule } from './signal-work.js';
import { readTdmrepFile } from './tdmrep-file.js';
import { readTdmrepHeaders } from './tdmrep-http.js';
import { readTdmrepMetas } from './tdmrep-meta.js';
import { TDMREP } from './tdmrep-reservation.js';

// Every AI-use signal observed on the fetches discovery made (docs/wire.md §15). Pure and synchronous; never
// throws: a malformed statement is an observation whose readings are `silent` with a reason, and a
// reader that fails on input nobody foresaw leaves one silent observation saying so.
//
// Order: TDMRep (file, header, meta), aipref (header, robots), Content Signals, noai (header, meta).
// TDMRep's processing priority (#sec-processing-priority) is applied: a valid tdm-reservation in the
// header supersedes the file's, and one in the page's metadata supersedes both; a superseded
// observation stays in the report with silent readings that name what superseded it. Each standard
// keeps at most MAX_OBSERVATIONS_PER_STANDARD observations, those that reserve first, then those that
// allow; one more silent observation says how many were left out. See docs/decisions.md "Reading other AI-use signals".
//
// The readers that match publisher patterns (tdmrep.json locations, robots.txt rules) share one work
// budget per reading (signal-work.ts); a reader stopped by it leaves one silent observation whose rule is
// `evaluation-budget-exceeded`: not determinable, which says no more than no statement.

export const MAX_OBSERVATIONS_PER_STANDARD = 16;

export function readSignals(
  sources: SignalSources,
  budget: EvaluationBudget = new EvaluationBudget(),
): SignalObservation[] {
  const { page, robots, tdmrep, resource } = sources;
  const html = page ? pageMetas(page) : { metas: [], failure: [] };
  const metas = html.metas;
  const observed = [
    ...(tdmrep ? guarded(tdmrep, 'well-known', 'tdmrep', () => readTdmrepFile(tdmrep, resource, budget)) : []),
    ...(page ? guarded(page, 'header', 'tdmrep', () => readTdmrepHeaders(page)) : []),
    ...(page ? guarded(page, 'meta', 'tdmrep', () => readTdmrepMetas(page, metas)) : []),
    ...html.failure,
    ...(page ? guarded(page, 'header', 'aipref', () => readContentUsageHeader(page)) : []),
    ...(robotsRead(robots)
      ? guarded(robots, 'robots', 'aipref', () => readContentUsageRobots(robots, resource, budget))
      : []),
    ...(robotsRead(robots) ? guarded(robots, 'robots', 'content-signals', () => readContentSignalRobots(robots)) : []),
    ...(page ? guarded(page, 'header', 'noai', () => readNoaiHeader(page)) : []),
    ...(page ? guarded(page, 'meta', 'noai', () => readNoaiMetas(page, metas)) : []),
  ];
  return capPerStandard(applyTdmrepPriority(observed));
}

function pageMetas(page: NonNullable<SignalSources['page']>): {
  metas: readonly HtmlMeta[];
  failure: SignalObservation[];
} {
  if (page.metas) return { metas: page.metas, failure: [] };
  if (!page.html) return { metas: [], failure: [] };
  try {
    return { metas: htmlMetas(page.html), failure: [] };
  } catch (e) {
    return { metas: [], failure: [failedReader(page, 'meta', 'tdmrep', e)] };
  }
}

const robotsRead = (robots: SignalSources['robots']): robots is NonNullable<SignalSources['robots']> =>
  robots !== undefined && robots.status >= 200 && robots.status <= 299;

function guarded(
  from: { url: string; sha256?: string },
  channel: SignalChannel,
  standard: SignalStandard,
  read: () => SignalObservation[],
): SignalObservation[] {
  try {
    return read();
  } catch (e) {
    if (e instanceof EvaluationBudgetExceeded) {
      const source = { standard, channel, url: from.url, sha256: from.sha256 ?? sha256OfText(''), statement: '' };
      return [silentObservation(source, budgetExceededRule(e))];
    }
    return [failedReader(from, channel, standard, e)];
  }
}

function failedReader(
  from: { url: string; sha256?: string },
  channel: SignalChannel,
  standard: SignalStandard,
  e: unknown,
): SignalObservation {
  const message = e instanceof Error ? e.message : String(e);
  const source = { standard, channel, url: from.url, sha256: from.sha256 ?? sha256OfText(''), statement: '' };
  return silentObservation(source, `not read: the reader failed (${message.slice(0, 200)})`);
}

const TDMREP_PRIORITY: Partial<Record<SignalChannel, number>> = { 'well-known': 0, header: 1, meta: 2 };

function applyTdmrepPriority(all: SignalObservation[]): SignalObservation[] {
  const decides = (o: SignalObservation) =>
    o.standard === 'tdmrep' && o.readings.some((r) => r.token === 'ai-train' && r.verdict !== 'silent');
  const top = Math.max(-1, ...all.filter(decides).map((o) => TDMREP_PRIORITY[o.channel] ?? -1));
  if (top <= 0) return all;
  const by = top === 2 ? 'the page metadata' : 'the HTTP header';
  return all.map((o) =>
    o.standard === 'tdmrep' && (TDMREP_PRIORITY[o.channel] ?? 0) < top && decides(o)
      ? {
          ...o,
          readings: o.readings.map((r) => ({
            token: r.token,
            verdict: 'silent' as const,
            rule: `superseded by tdm-reservation in ${by} (${TDMREP} #sec-processing-priority)`,
          })),
        }
      : o,
  );
}

const RANK = (o: SignalObservation) =>
  o.readings.some((r) => r.verdict === 'reserved') ? 0 : o.readings.some((r) => r.verdict === 'allowed') ? 1 : 2;

function capPerStandard(all: SignalObservation[]): SignalObservation[] {
  const byStandard = new Map<SignalStandard, SignalObservation[]>();
  for (const o of all) {
    const list = byStandard.get(o.standard);
    if (list) list.push(o);
    else byStandard.set(o.standard, [o]);
  }
  const out: SignalObservation[] = [];
  for (const [standard, list] of byStandard) {
    if (list.length <= MAX_OBSERVATIONS_PER_STANDARD) {
      out.push(...list);
      continue;
    }
    const kept = [...list].sort((a, b) => RANK(a) - RANK(b)).slice(0, MAX_OBSERVATIONS_PER_STANDARD);
    const keptSet = new Set(kept);
    const dropped = list.filter((o) => !keptSet.has(o));
    out.push(...list.filter((o) => keptSet.has(o)));
    const first = dropped[0]!;
    const note =
      `${dropped.length} more ${standard} statements not recorded (at most ${MAX_OBSERVATIONS_PER_STANDARD} ` +
      'per standard; those that reserve or allow are kept first)';
    out.push(silentObservation({ ...first, statement: note }, note));
  }
  return out;
}
