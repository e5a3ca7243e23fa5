import type { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';
import { EvaluationBudget } from '../matching/evaluation-budget.js';
import type { PatternCache } from '../matching/pattern.js';
import { AIPREF_SILENT_RULE, parsePreferences, verdictsOfPreferences } from './aipref-vocabulary.js';
import { observation, silentObservation } from './observation.js';
import { crawlAllowed, type RobotsLine, robotsDocument } from './robots-groups.js';
import type { FetchedText } from './signal-sources.js';
import { MAX_ROBOTS_SIGNAL_RULES, matchPath, rulesOverLimitRule } from './signal-work.js';

// `Content-Usage:` lines in robots.txt (draft-ietf-aipref-attach-05 §3). Pure.
//
// A rule value that starts with "/" has a path up to the first SP or HTAB, then the statement of
// preference; otherwise the whole value is the statement and the path is absent (§3.2). A rule applies
// to the resource by the Allow/Disallow matching of RFC 9309 §2.2.2 — the longest matching path wins,
// and an absent path matches everything with length 0 (§3.1); rules whose paths match equally long all
// apply and are combined by vocab §7.1 (a refusal wins), so each is an observation. Preferences apply
// only to paths the `*` agent may crawl (§3.1). The `*` groups and the global lines are read as two
// statements (robots-groups.ts).
//
// Matching is counted against `budget` (signal-work.ts: it throws EvaluationBudgetExceeded, which
// readSignals reads as not determinable), and a file with more than MAX_ROBOTS_SIGNAL_RULES rules is not
// matched at all. A file without Content-Usage lines is not matched either: nothing would be read from it.

export function readContentUsageRobots(
  robots: FetchedText,
  resource: string,
  budget: EvaluationBudget = new EvaluationBudget(),
): SignalObservation[] {
  const { groups, patterns } = robotsDocument(robots.text, ['content-usage']);
  const sourceOf = (statement: string) =>
    ({ standard: 'aipref', channel: 'robots', url: robots.url, sha256: robots.sha256, statement }) as const;
  const usage = [...groups.star, ...groups.global].filter((l) => l.key === 'content-usage');
  if (usage.length === 0) return [];
  const rules = groups.star.length + groups.global.length;
  if (rules > MAX_ROBOTS_SIGNAL_RULES)
    return [
      silentObservation(sourceOf(usage[0]!.raw), rulesOverLimitRule('robots.txt', rules, MAX_ROBOTS_SIGNAL_RULES)),
    ];
  const crawl = crawlAllowed(groups.star, resource, budget, patterns);
  const out: SignalObservation[] = [];
  for (const lines of [groups.star, groups.global]) {
    for (const line of applicable(lines, resource, budget, patterns)) {
      const source = sourceOf(line.raw);
      if ('overLimits' in line) {
        out.push(silentObservation(source, `line ${line.line}: path not matched, ${line.overLimits}`));
        continue;
      }
      if (!crawl.allowed) {
        const why =
          `line ${line.line}: the resource is disallowed by line ${crawl.by?.line} for "*"; no preference ` +
          'applies to paths that cannot be crawled (draft-ietf-aipref-attach-05 §3.1)';
        out.push(silentObservation(source, why));
        continue;
      }
      const parsed = parsePreferences(line.preference);
      if (!parsed.ok) {
        out.push(silentObservation(source, `line ${line.line}: preferences unknown, ${parsed.reason} (vocab §6.5.1)`));
        continue;
      }
      out.push(observation(source, verdictsOfPreferences(parsed.preferences), AIPREF_SILENT_RULE));
    }
  }
  return out;
}

type Applicable = (RobotsLine & { preference: string }) | (RobotsLine & { overLimits: string });

/** The Content-Usage lines that apply to the resource: those with the longest matching path. */
function applicable(
  lines: readonly RobotsLine[],
  resource: string,
  budget: EvaluationBudget,
  patterns: PatternCache,
): Applicable[] {
  let best = -1;
  let chosen: Array<RobotsLine & { preference: string }> = [];
  const overLimits: Applicable[] = [];
  for (const l of lines) {
    if (l.key !== 'content-usage') continue;
    const pathed = /^(\/[^ \t]*)[ \t]*(.*)$/.exec(l.value);
    const path = pathed ? pathed[1]! : null;
    const preference = pathed ? pathed[2]! : l.value;
    let specificity = 0;
    if (path !== null) {
      const m = matchPath(path, resource, budget, patterns);
      if (m.overLimits) {
        overLimits.push({ ...l, overLimits: m.overLimits });
        continue;
      }
      if (!m.matches) continue;
      specificity = m.specificity;
    }
    if (specificity > best) {
      best = specificity;
      chosen = [];
    }
    if (specificity === best) chosen.push({ ...l, preference });
  }
  return [...chosen, ...overLimits];
}
