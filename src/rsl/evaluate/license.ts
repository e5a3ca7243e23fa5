import type { Content, License } from '../parse/model.js';
import { LEGACY_USAGE_ALIASES } from '../parse/vocabulary.js';
import type { EvaluatedToken, Question } from '@rights-preflight/wire/rsl/purposes.js';
import { reason, type DocumentInput, type Outcome, type Verdict, type Where } from './verdict.js';

// The license rule: an explicit usage prohibition covering the token wins over anything the same
// license permits (rsl.md §6.1 reading A); a `permits` list closes its axis; user/geo lists decide
// whether the license applies to this client at all; a license silent on usage grants nothing
// (silence is not permission, §6.4); the terms decide between PERMITTED and LICENSE_REQUIRED.

const PAID_TYPES = new Set(['purchase', 'subscription', 'training', 'crawl', 'use', 'contribution']);
/** ISO 3166-1 alpha-2 codes of the EU member states, for the `EU` geo token. */
const EU_MEMBERS = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
]);

/** Does a usage token list cover the question token? `all` ⊇ `ai-all` ⊇
 *  ai-train/ai-input/ai-index; `search` is not AI. */
export function usageCovers(list: readonly string[], token: EvaluatedToken): boolean {
  if (list.includes('all')) return true;
  // `crawl` is not an RSL usage token: only "any automated processing" (`all`) speaks to it.
  if (token === 'crawl') return false;
  if (list.includes(token)) return true;
  return token !== 'search' && list.includes('ai-all');
}

const geoCovers = (list: readonly string[], geo: string) =>
  list.includes(geo) || (list.includes('EU') && EU_MEMBERS.has(geo));

export function licenseVerdict(license: License, content: Content, doc: DocumentInput, q: Question): Verdict {
  const w: Where = { doc, content, license };
  const v = (outcome: Outcome, rule: string, detail: string, obligations: string[] = []): Verdict => ({
    outcome,
    obligations,
    reasons: [reason(w, rule, outcome, detail)],
  });
  const permits = license.permits.usage;
  const prohibits = license.prohibits.usage ?? [];
  if (usageCovers(prohibits, q.token)) {
    const conflict = permits !== undefined && usageCovers(permits, q.token);
    return v(
      'prohibited',
      conflict ? 'permit-vs-prohibit' : 'usage-prohibited',
      `prohibits usage "${prohibits.join(' ')}" covers ${q.token}` +
        `${conflict ? `; the same license permits "${permits!.join(' ')}" but prohibition wins` : ''}`,
    );
  }
  const legacy = prohibits.find((t) => LEGACY_USAGE_ALIASES[t] === q.token);
  if (legacy)
    return v(
      'prohibited',
      'legacy-token-prohibited',
      `legacy token "${legacy}" read as prohibiting ${q.token} (legacy tokens may only prohibit)`,
    );
  if (permits !== undefined && !usageCovers(permits, q.token)) {
    return v(
      'not-granted',
      'usage-closure',
      `permits usage is limited to "${permits.join(' ')}", which does not include ${q.token}`,
    );
  }
  const userVerdict = axisExcludes(license, 'user', q.userClass, (list, u) => list.includes(u));
  if (userVerdict) return v('not-granted', userVerdict.rule, userVerdict.detail);
  if (license.permits.geo || license.prohibits.geo) {
    if (q.geo === null)
      return v('not-granted', 'geo-unknown', 'the license is limited by geography and no geo was given');
    const geoVerdict = axisExcludes(license, 'geo', q.geo, geoCovers);
    if (geoVerdict) return v('not-granted', geoVerdict.rule, geoVerdict.detail);
  }
  const { obligations, unsupported } = termsOf(license, content);
  if (permits === undefined) {
    if (obligations.length === 0 && unsupported === null)
      return v('silent', 'no-usage-statement', 'the license states no usage permission; silence is not permission');
    const terms = [...obligations, ...(unsupported !== null ? [`payment:${unsupported} (not understood)`] : [])];
    return {
      ...v(
        'terms-only',
        'scope-terms',
        `the license states no usage permission but names terms (${terms.join(', ')}); they govern this scope's paths`,
        obligations,
      ),
      ...(unsupported !== null ? { unsupportedTerms: unsupported } : {}),
    };
  }
  // Granted: the terms decide between PERMITTED and LICENSE_REQUIRED.
  if (unsupported !== null)
    return v(
      'unsupported',
      'payment-type-unsupported',
      `payment type "${unsupported}" is not understood; never read as free`,
      obligations,
    );
  if (obligations.length > 0)
    return v(
      'license-required',
      'permitted-with-terms',
      `permits usage "${permits.join(' ')}" with terms: ${obligations.join(', ')}`,
      obligations,
    );
  return v('permitted', 'permitted-free', `permits usage "${permits.join(' ')}", free, no license server`);
}

/**
 * What a licensee must do under a license. `type="free"` with an `<amount>` or an `<accepts>`
 * payment protocol names a price, so it is not free (rsl.md §6.6: only an element-less license
 * or a plain `type="free"` is free).
 */
export function termsOf(license: License, content: Content): { obligations: string[]; unsupported: string | null } {
  const obligations: string[] = [];
  let unsupported: string | null = null;
  const p = license.payment;
  const price = p?.amount ? ` ${p.amount.value} ${p.amount.currency ?? '?'}` : '';
  if (p) {
    if (p.type === null) {
      if (p.standard || p.custom || p.amount || p.accepts)
        obligations.push(`payment:unspecified-type${p.standard ? ` standard=${p.standard}` : ''}`);
    } else if (p.type === 'attribution') obligations.push('attribution');
    else if (PAID_TYPES.has(p.type)) obligations.push(`payment:${p.type}${price}`);
    else if (p.type === 'inference') obligations.push('payment:use (legacy "inference")');
    else if (p.type === 'free') {
      if (p.amount || p.accepts)
        obligations.push(`payment:free-with-price${price}${p.accepts ? ` accepts=${p.accepts.type ?? '?'}` : ''}`);
    } else unsupported = p.type;
  }
  if (content.server) obligations.push(`license-server-token:${content.server}`);
  if (content.encrypted) obligations.push('encrypted:decryption-key');
  for (const r of license.reporting)
    obligations.push(`reporting:${r.type ?? 'unspecified'}${r.profile ? ` profile=${r.profile}` : ''}`);
  return { obligations, unsupported };
}

export function axisExcludes(
  license: License,
  axis: 'user' | 'geo',
  value: string,
  covers: (list: readonly string[], v: string) => boolean,
): { rule: string; detail: string } | null {
  const prohibited = license.prohibits[axis];
  if (prohibited && covers(prohibited, value))
    return { rule: `${axis}-prohibited`, detail: `prohibits ${axis} "${prohibited.join(' ')}" covers ${value}` };
  const permitted = license.permits[axis];
  if (permitted && !covers(permitted, value))
    return {
      rule: `${axis}-closure`,
      detail: `permits ${axis} is limited to "${permitted.join(' ')}", which does not include ${value}`,
    };
  return null;
}
