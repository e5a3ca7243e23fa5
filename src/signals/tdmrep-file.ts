import type { SignalObservation, SignalVerdict } from '@rights-preflight/wire/signals/signal-observation.js';
import type { EvaluationBudget } from '../matching/evaluation-budget.js';
import {
  observation,
  type ObservationSource,
  silentObservation,
  sha256OfText,
  type TokenVerdicts,
} from './observation.js';
import type { SignalSources } from './signal-sources.js';
import { rulesOverLimitRule } from './signal-work.js';
import { matchingRules } from './tdmrep-match.js';
import { TDMREP, verdictsOfReservation } from './tdmrep-reservation.js';
import { chooseRule, type RuleChoice } from './tdmrep-rule-choice.js';

// /.well-known/tdmrep.json (W3C TDMRep CG final report 2024-05-10, #sec-tdm-file). Pure.
//
// The file is a JSON array of rules {location, tdm-reservation, tdm-policy?}; `location` and
// `tdm-reservation` are mandatory. A location is a robots.txt path pattern (`*` any run, a final `$`
// anchors, percent-encoding compared as RFC 9309 §2.2.2 says), matched case-sensitively against the
// resource's path and query (src/matching/pattern.ts). Which matching rule applies, and how its value reads,
// where readers of the report can differ, is tdmrep-rule-choice.ts's (the more restrictive reading);
// "If no match is found ... tdm-reservation is unset". One observation per file:
// the matched rule as JSON, or why nothing applies. A file that could not be read is an observation
// with silent readings (#sec-tdm-file: "Failure to provide access ... implies that the origin server does not
// implement this protocol"), except a 404 or 410, which is simply no file. Which rule matches is
// tdmrep-match.ts's: counted against the reading's budget, at most MAX_TDMREP_RULES rules.

const NO_FILE_STATUSES = new Set([404, 410]);

export function readTdmrepFile(
  file: NonNullable<SignalSources['tdmrep']>,
  resource: string,
  budget?: EvaluationBudget,
): SignalObservation[] {
  if ('failure' in file) {
    const statement = `${file.failure.code}: ${file.failure.message}`;
    const source = { ...base(file.url, sha256OfText('')), statement };
    return [
      silentObservation(
        source,
        `tdmrep.json not read (${file.failure.code}): no TDMRep file (${TDMREP} #sec-tdm-file)`,
      ),
    ];
  }
  if (NO_FILE_STATUSES.has(file.status)) return [];
  const source = { ...base(file.url, file.sha256), statement: file.text };
  if (file.status < 200 || file.status > 299)
    return [silentObservation(source, `HTTP ${file.status}: no TDMRep file (${TDMREP} #sec-tdm-file)`)];
  let rules: unknown;
  try {
    // A byte order mark is not JSON, but RFC 8259 §8.1 lets a parser ignore it.
    rules = JSON.parse(file.text.replace(/^\ufeff/, ''));
  } catch {
    return [silentObservation(source, `tdmrep.json is not JSON (${TDMREP} #sec-tdm-file)`)];
  }
  if (!Array.isArray(rules))
    return [silentObservation(source, `tdmrep.json is not a JSON array (${TDMREP} #sec-tdm-file)`)];
  const found = matchingRules(rules, file.text, resource, budget);
  if (found.kind === 'too-many')
    return [silentObservation(source, rulesOverLimitRule('tdmrep.json', found.count, found.limit))];
  if (found.kind === 'over-limits') {
    const statement = JSON.stringify(rules[found.index]);
    return [
      silentObservation({ ...source, statement }, `rule ${found.index + 1}: location not matched, ${found.reason}`),
    ];
  }
  if (found.kind === 'matched') {
    const choice = chooseRule(found.rules);
    // A rule not read (past the rule limit or over the pattern limits) may be more specific: only a
    // reservation among the rules read is an answer.
    if (found.unread !== null && choice.reading.kind !== 'reserved') return [silentObservation(source, found.unread)];
    return [readChosenRule(source, choice)];
  }
  return [
    silentObservation(
      source,
      `no rule's location matches the resource: tdm-reservation unset (${TDMREP} #sec-tdm-file)`,
    ),
  ];
}

function readChosenRule(file: ObservationSource, choice: RuleChoice): SignalObservation {
  const { chosen, reading, decidedBy } = choice;
  const source = { ...file, statement: JSON.stringify(chosen.rule) };
  const why = decidedBy ? `; ${decidedBy}` : '';
  if (reading.kind === 'unset') return silentObservation(source, `rule ${chosen.n} matches; ${reading.why}${why}`);
  const policy = typeof chosen.rule['tdm-policy'] === 'string' ? chosen.rule['tdm-policy'] : null;
  const code = reading.kind === 'reserved' && reading.code ? `; ${reading.code}: the string "1" read as 1` : '';
  const verdicts = verdictsOfReservation(reading.value, policy);
  const noted = code || why ? withNote(verdicts, `${code}${why}`) : verdicts;
  return observation(source, noted, `rule ${chosen.n} matches${why}`);
}

/** Each verdict's rule followed by why this reading was taken. */
function withNote(verdicts: TokenVerdicts, note: string): TokenVerdicts {
  const out: TokenVerdicts = {};
  for (const [token, v] of Object.entries(verdicts) as [
    keyof TokenVerdicts,
    { verdict: SignalVerdict; rule: string },
  ][])
    out[token] = { verdict: v.verdict, rule: `${v.rule}${note}` };
  return out;
}

function base(url: string, sha256: string) {
  return { standard: 'tdmrep', channel: 'well-known', url, sha256 } as const;
}
