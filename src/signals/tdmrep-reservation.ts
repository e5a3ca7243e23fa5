import type { TokenVerdicts } from './observation.js';

// What a `tdm-reservation` value says about our tokens (W3C TDMRep CG final report 2024-05-10, #sec-tdm-reservation).
// Pure. The mapping, conservative in one direction — a reservation read broadly, a permission
// narrowly (docs/reference/tdmrep.md):
//
//   1 → ai-train, ai-input, ai-index reserved. TDM is "any automated analytical technique aimed at
//       analysing text and data in digital form in order to generate information" (CDSM Directive
//       Art. 2(2)); training is the case the Art. 4(3) opt-out is known for (AI Act Art. 53(1)(c)), and
//       feeding content to a model or an AI retrieval index is automated analysis too.
//   0 → ai-train allowed ("TDM agents can mine the content for TDM purposes without having to contact
//       the rightsholder"); ai-input and ai-index silent: whether TDM covers them is not settled, so no
//       permission is read for them.
//   search is never covered: "search engines don't apply TDM techniques ... web crawlers are not
//   affected by the TDM reservation techniques" (TDMRep CG, "TDM: what does it mean in practice?").
//   Any other value is a protocol error: "TDM Agents MUST consider that tdm-reservation is unset".

export const TDMREP = 'TDMRep 2024-05-10';
const RESERVATION_SECTION = `${TDMREP} #sec-tdm-reservation`;

/** "Other values are considered protocol errors … TDM Agents MUST consider that tdm-reservation is unset." */
export const PROTOCOL_ERROR = `a protocol error, read as unset (${RESERVATION_SECTION})`;

const TDMREP_SEARCH_RULE = `search is not TDM (${TDMREP} CG notes: web crawlers for search are not affected)`;

/** A value already reduced to 0 or 1, or the reason it is a protocol error. */
type TdmReservation = { ok: true; value: 0 | 1 } | { ok: false; reason: string };

/** A header or meta value: exactly "0" or "1" once surrounding blank space is removed. */
export function reservationOfText(text: string): TdmReservation {
  const v = text.trim();
  if (v === '1' || v === '0') return { ok: true, value: v === '1' ? 1 : 0 };
  return {
    ok: false,
    reason: `tdm-reservation "${v.slice(0, 64)}" is not 0 or 1: ${PROTOCOL_ERROR}`,
  };
}

export function verdictsOfReservation(value: 0 | 1, policy: string | null): TokenVerdicts {
  if (value === 1) {
    const offer = policy ? `; tdm-policy ${policy.slice(0, 256)} says how a licence may be acquired` : '';
    const rule = `tdm-reservation 1: TDM rights reserved, the CDSM Art. 4 opt-out (${RESERVATION_SECTION})${offer}`;
    const broad = `${rule}; AI input and indexing read as TDM (CDSM Art. 2(2))`;
    return {
      'ai-train': { verdict: 'reserved', rule },
      'ai-input': { verdict: 'reserved', rule: broad },
      'ai-index': { verdict: 'reserved', rule: broad },
      search: { verdict: 'silent', rule: TDMREP_SEARCH_RULE },
    };
  }
  const rule = `tdm-reservation 0: TDM rights not reserved (${RESERVATION_SECTION})`;
  const narrow = `${rule}; whether TDM covers this use is not settled: no permission read`;
  return {
    'ai-train': { verdict: 'allowed', rule },
    'ai-input': { verdict: 'silent', rule: narrow },
    'ai-index': { verdict: 'silent', rule: narrow },
    search: { verdict: 'silent', rule: TDMREP_SEARCH_RULE },
  };
}
