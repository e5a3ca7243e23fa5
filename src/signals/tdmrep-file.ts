import type { SignalObservation } from '../../packages/buyer/src/wire/signals/signal-observation.js';
import type { EvaluationBudget } from '../rsl/evaluation-budget.js';
import { observation, type ObservationSource, silentObservation, sha256OfText } from './observation.js';
import type { SignalSources } from './signal-sources.js';
import { rulesOverLimitRule } from './signal-work.js';
import { firstMatchingRule } from './tdmrep-match.js';
import { PROTOCOL_ERROR, TDMREP, verdictsOfReservation } from './tdmrep-reservation.js';

// /.well-known/tdmrep.json (W3C TDMRep CG final report 2024-05-10, #sec-tdm-file). Pure.
//
// The file is a JSON array of rules {location, tdm-reservation, tdm-policy?}; `location` and
// `tdm-reservation` are mandatory. A location is a robots.txt path pattern (`*` any run, a final `$`
// anchors, percent-encoding compared as RFC 9309 §2.2.2 says), matched case-sensitively against the
// resource's path and query (src/rsl/pattern.ts). "The most specific match is the first in sequence":
// the first rule whose location matches is the rule, even when its tdm-reservation is a protocol
// error (then unset); "If no match is found ... tdm-reservation is unset". One observation per file:
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
  const found = firstMatchingRule(rules, file.text, resource, budget);
  if (found.kind === 'too-many')
    return [silentObservation(source, rulesOverLimitRule('tdmrep.json', found.count, found.limit))];
  if (found.kind !== 'none') {
    const rule = rules[found.index] as Record<string, unknown>;
    const matched = { ...source, statement: JSON.stringify(rule) };
    if (found.kind === 'over-limits')
      return [silentObservation(matched, `rule ${found.index + 1}: location not matched, ${found.reason}`)];
    return [readRule(matched, rule, found.index + 1)];
  }
  return [
    silentObservation(
      source,
      `no rule's location matches the resource: tdm-reservation unset (${TDMREP} #sec-tdm-file)`,
    ),
  ];
}

function readRule(source: ObservationSource, rule: Record<string, unknown>, n: number): SignalObservation {
  const value = rule['tdm-reservation'];
  if (value !== 0 && value !== 1) {
    const written = value === undefined ? 'is missing' : `${JSON.stringify(value)} is not 0 or 1`;
    const why = `rule ${n} matches; its tdm-reservation ${written}: ${PROTOCOL_ERROR}`;
    return silentObservation(source, why);
  }
  const policy = typeof rule['tdm-policy'] === 'string' ? rule['tdm-policy'] : null;
  return observation(source, verdictsOfReservation(value, policy), `rule ${n} matches`);
}

function base(url: string, sha256: string) {
  return { standard: 'tdmrep', channel: 'well-known', url, sha256 } as const;
}
