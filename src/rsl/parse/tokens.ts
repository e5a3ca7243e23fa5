import { RSL_NAMESPACE, type TermAxis } from './model.js';
import type { ProblemFn } from './findings.js';
import { LEGACY_USAGE_ALIASES, USAGE_TOKENS, USER_TOKENS } from './vocabulary.js';

// Reading a <permits>/<prohibits> token list: split it, apply the case rule, warn about tokens that
// are not RSL 1.0.

export function splitTokens(value: string, local: string, problem: ProblemFn): string[] {
  if (value.includes(','))
    problem(
      'error',
      'COMMA_SEPARATED_LIST',
      `<${local}> uses commas (RSL 0.9 style); RSL 1.0 lists are space-separated`,
    );
  const tokens = value.split(/[\s,]+/).filter(Boolean);
  if (tokens.length === 0) problem('error', 'EMPTY_TOKEN_LIST', `<${local}> lists no tokens`);
  return [...new Set(tokens)];
}

/**
 * RSL tokens are lowercase and geo codes uppercase (rsl.md §1.3). A token in another case is read
 * so that it can only restrict (rsl.md §6.5/§6.11, "never expand rights"):
 *   - geo codes are compared uppercase (`de fr` is DE FR), in permits and prohibits alike;
 *   - a usage or user prohibition counts in any case (`AI-TRAIN` prohibits ai-train);
 *   - a usage or user permission in another case grants nothing: kept as written, so it matches no
 *     question, and reported.
 * Extension QNames (`prefix:name`) are left as written.
 */
export function caseRule(axis: TermAxis, local: string, tokens: string[], problem: ProblemFn): string[] {
  const out = tokens.map((token) => {
    if (token.includes(':')) return token;
    const canonical = axis === 'geo' ? token.toUpperCase() : token.toLowerCase();
    if (canonical === token) return token;
    if (axis === 'geo') {
      problem('warning', 'NONCANONICAL_CASE', `geo code "${token}" read as ${canonical} (geo codes are uppercase)`);
      return canonical;
    }
    if (local === 'prohibits') {
      problem(
        'warning',
        'NONCANONICAL_CASE',
        `prohibited ${axis} token "${token}" read as "${canonical}" (a prohibition counts in any case)`,
      );
      return canonical;
    }
    problem(
      'warning',
      'NONCANONICAL_CASE',
      `permitted ${axis} token "${token}" is not in canonical case ("${canonical}"); it grants nothing`,
    );
    return token;
  });
  return [...new Set(out)];
}

export function checkTokens(axis: TermAxis, tokens: string[], ns: Record<string, string>, problem: ProblemFn): void {
  for (const token of tokens) {
    const colon = token.indexOf(':');
    if (colon > 0) {
      const uri = ns[token.slice(0, colon)];
      if (uri && uri !== RSL_NAMESPACE) continue; // extension QName: ignored unless recognized
      problem('warning', 'UNKNOWN_TOKEN', `token "${token}" has an unbound or RSL prefix`);
      continue;
    }
    if (axis === 'usage' && !USAGE_TOKENS.has(token)) {
      problem(
        'warning',
        token in LEGACY_USAGE_ALIASES ? 'LEGACY_TOKEN' : 'UNKNOWN_TOKEN',
        `usage token "${token}" is not an RSL 1.0 token`,
      );
    } else if (axis === 'user' && !USER_TOKENS.has(token)) {
      problem('warning', 'UNKNOWN_TOKEN', `user token "${token}" is not an RSL 1.0 token`);
    } else if (axis === 'geo' && !/^[A-Z]{2}$/.test(token)) {
      problem('warning', 'UNKNOWN_TOKEN', `geo token "${token}" is not an uppercase ISO 3166-1 alpha-2 code or EU`);
    }
  }
}
