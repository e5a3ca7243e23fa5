import { PROTOCOL_ERROR, TDMREP } from './tdmrep-reservation.js';

// Which tdmrep.json rule applies, and what its `tdm-reservation` value says, where conforming readers of the
// final report (2024-05-10, #sec-tdm-file) can differ. Pure. Where they differ the more restrictive reading
// is taken, and its reason code says which reading decided:
//
// - The rule. "The most specific match found MUST be used. The most specific match is the first in
//   sequence." The second sentence defines the first; a reader who knows the sentence from robots.txt,
//   where "the most specific match ... has the most octets" (RFC 9309 §2.2.2), takes the longest matching
//   location. When the first matching rule and the longest ones differ, the most restrictive of them is the
//   rule (TDMREP_RULE_MOST_SPECIFIC when a longest one decided, TDMREP_RULE_FIRST_IN_SEQUENCE when the first).
// - The value. #sec-tdm-file writes `"tdm-reservation": 1`, a JSON number; a JSON string "1" is what the
//   publisher plainly meant, and a strict reader's "protocol error, unset" permits more than a reservation:
//   "1" reserves (TDMREP_STRING_VALUE). A string "0" read strictly is unset, which permits less than 0: unset.

/** The most restrictive reading first: a reservation, then nothing (unset), then "not reserved". */
type ReservationReading =
  | { kind: 'reserved'; value: 1; code: string | null }
  | { kind: 'unset'; why: string }
  | { kind: 'not-reserved'; value: 0 };

const RANK = { reserved: 2, unset: 1, 'not-reserved': 0 } as const;

/** The rule's `tdm-reservation` as the most restrictive conforming reader reads it. */
function reservationOfRuleValue(value: unknown): ReservationReading {
  if (value === 1) return { kind: 'reserved', value: 1, code: null };
  if (value === 0) return { kind: 'not-reserved', value: 0 };
  if (typeof value === 'string' && value.trim() === '1')
    return { kind: 'reserved', value: 1, code: 'TDMREP_STRING_VALUE' };
  if (typeof value === 'string' && value.trim() === '0')
    return {
      kind: 'unset',
      why:
        `its tdm-reservation is the string ${JSON.stringify(value)}, not the number 0: ${PROTOCOL_ERROR}; ` +
        'TDMREP_STRING_VALUE: unset permits less than 0',
    };
  const written = value === undefined ? 'is missing' : `${JSON.stringify(value)?.slice(0, 64)} is not 0 or 1`;
  return { kind: 'unset', why: `its tdm-reservation ${written}: ${PROTOCOL_ERROR}` };
}

export interface MatchedRule {
  /** 1-based place in the file. */
  n: number;
  rule: Record<string, unknown>;
  /** The location's length in octets (UTF-8), the robots.txt measure of specificity. */
  octets: number;
}

export interface RuleChoice {
  chosen: MatchedRule;
  reading: ReservationReading;
  /** Why this rule and not the other reading's, when the two readings name different rules. */
  decidedBy: string | null;
}

/** The rule that applies among the matching rules (in file order, at least one). */
export function chooseRule(matched: readonly MatchedRule[]): RuleChoice {
  const first = matched[0]!;
  const longest = Math.max(...matched.map((m) => m.octets));
  const specific = matched.filter((m) => m.octets === longest);
  let chosen = first;
  let reading = reservationOfRuleValue(first.rule['tdm-reservation']);
  for (const m of specific) {
    const r = reservationOfRuleValue(m.rule['tdm-reservation']);
    if (RANK[r.kind] > RANK[reading.kind]) {
      chosen = m;
      reading = r;
    }
  }
  if (specific.length === 1 && specific[0] === first) return { chosen, reading, decidedBy: null };
  const others = specific.filter((m) => m !== first).map((m) => m.n);
  if (others.length === 0) return { chosen, reading, decidedBy: null };
  const decidedBy =
    chosen === first
      ? `TDMREP_RULE_FIRST_IN_SEQUENCE: rule ${first.n}, the first match, is at least as restrictive as the ` +
        `longest match (rule ${others.join(', ')})`
      : `TDMREP_RULE_MOST_SPECIFIC: rule ${chosen.n} has the longest matching location (RFC 9309's "most ` +
        `specific") and is more restrictive than rule ${first.n}, the first in sequence (${TDMREP} #sec-tdm-file)`;
  return { chosen, reading, decidedBy };
}
