// Spec §2.2: a resource is an https URL of at most 2048 characters on an explicitly covered
// origin, with no query, fragment, credentials, IP literal, nonstandard port, encoded slash or
// redirect. We go further and accept only the *canonical* spelling: the request binding (spec §5.4)
// hashes the canonical URL, so the string a buyer sends must be exactly the one we bind and
// report. Anything a URL parser would silently rewrite (port :443, uppercase host, trailing dot,
// lowercase percent-escapes, missing "/") is refused with a code saying what to fix, never
// rewritten behind the buyer's back.
//
// The checks run on the raw string before any WHATWG parsing, because `new URL()` normalizes
// away exactly the tricks we must refuse (`https://0x7f.1/` becomes `https://127.0.0.1/`,
// `\` becomes `/`, `/a/../b` becomes `/b`, an empty `?` disappears).

export const RESOURCE_URL_ERROR_CODES = [
  'RESOURCE_NOT_STRING',
  'RESOURCE_TOO_LONG',
  'RESOURCE_CONTROL_CHARACTER',
  'RESOURCE_NOT_HTTPS',
  'RESOURCE_MALFORMED',
  'RESOURCE_HAS_CREDENTIALS',
  'RESOURCE_HAS_PORT',
  'RESOURCE_IP_LITERAL',
  'RESOURCE_HOST_INVALID',
  'RESOURCE_HOST_NOT_LOWERCASE',
  'RESOURCE_HOST_TRAILING_DOT',
  'RESOURCE_HOST_NOT_PUNYCODE',
  'RESOURCE_HAS_QUERY',
  'RESOURCE_HAS_FRAGMENT',
  'RESOURCE_HAS_BACKSLASH',
  'RESOURCE_ENCODED_SLASH',
  'RESOURCE_DOT_SEGMENT',
  'RESOURCE_BAD_PERCENT_ENCODING',
  'RESOURCE_NOT_CANONICAL',
  'RESOURCE_NOT_COVERED',
] as const;
export type ResourceUrlErrorCode = (typeof RESOURCE_URL_ERROR_CODES)[number];

export type ResourceUrlResult =
  | { ok: true; url: string; origin: string; path: string }
  | { ok: false; code: ResourceUrlErrorCode; message: string };

export const RESOURCE_URL_MAX_LENGTH = 2048;

const refuse = (code: ResourceUrlErrorCode, message: string): ResourceUrlResult => ({ ok: false, code, message });

// RFC 3986 pchar minus "%" (checked separately): unreserved / sub-delims / ":" / "@".
const PATH_CHAR = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The §2.2 syntax rule without coverage (the free inspection path never fetches, so it needs no coverage). */
export function checkResourceUrlSyntax(input: unknown): ResourceUrlResult {
  if (typeof input !== 'string') return refuse('RESOURCE_NOT_STRING', 'resource must be a string');
  if (input.length > RESOURCE_URL_MAX_LENGTH)
    return refuse('RESOURCE_TOO_LONG', `resource is longer than ${RESOURCE_URL_MAX_LENGTH} characters`);
  // Controls and whitespace: WHATWG strips leading/trailing C0+space and removes tab/newline anywhere.
  if (/[\u0000-\u0020\u007f-\u009f\u2028\u2029\ufeff]/.test(input))
    return refuse('RESOURCE_CONTROL_CHARACTER', 'resource contains whitespace or control characters');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(input);
  if (!scheme) return refuse('RESOURCE_MALFORMED', 'resource is not an absolute URL');
  if (scheme[1]!.toLowerCase() !== 'https') return refuse('RESOURCE_NOT_HTTPS', 'resource must use the https scheme');
  if (input.includes('\\')) return refuse('RESOURCE_HAS_BACKSLASH', 'resource contains a backslash');
  if (scheme[1] !== 'https')
    return refuse('RESOURCE_NOT_CANONICAL', 'the scheme must be written in lowercase: https://');
  if (!input.startsWith('https://'))
    return refuse('RESOURCE_MALFORMED', 'resource must start with https:// followed by a host');
  // Query and fragment first (even empty ones): "?" or "#" can never appear in a canonical path.
  if (input.includes('#')) return refuse('RESOURCE_HAS_FRAGMENT', 'resource must not have a fragment (#)');
  if (input.includes('?')) return refuse('RESOURCE_HAS_QUERY', 'resource must not have a query (?)');

  const rest = input.slice('https://'.length);
  const slash = rest.indexOf('/');
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? '' : rest.slice(slash);

  const hostRefused = refuseAuthority(authority);
  if (hostRefused) return hostRefused;
  const host = authority;
  if (path === '')
    return refuse('RESOURCE_NOT_CANONICAL', `resource needs a path; the canonical form is https://${host}/`);

  const pathRefused = refusePath(path, authority.length);
  if (pathRefused) return pathRefused;

  // Final guard: the WHATWG parser must agree that this string is already canonical.
  let parsed: URL;
  try {
    parsed = new URL(input);
  } catch {
    return refuse('RESOURCE_MALFORMED', 'resource is not a valid URL');
  }
  if (parsed.href !== input)
    return refuse('RESOURCE_NOT_CANONICAL', `resource is not in canonical form (canonical: ${parsed.href})`);
  return { ok: true, url: parsed.href, origin: parsed.origin, path: parsed.pathname };
}

/** The authority part of the §2.2 rule: a lowercase DNS name of two labels or more, nothing else. */
function refuseAuthority(authority: string): ResourceUrlResult | undefined {
  if (authority.includes('@')) return refuse('RESOURCE_HAS_CREDENTIALS', 'resource must not carry credentials (user@)');
  if (authority.startsWith('[') || authority.includes(']'))
    return refuse('RESOURCE_IP_LITERAL', 'resource host must not be an IPv6 literal');
  if (authority.includes(':')) return refuse('RESOURCE_HAS_PORT', 'resource must not name a port (not even :443)');
  const host = authority;
  if (host === '') return refuse('RESOURCE_MALFORMED', 'resource has no host');

  // Percent-encoded or non-ASCII hosts: an encoded host is never canonical; IDN must be punycode.
  if (host.includes('%')) return refuse('RESOURCE_HOST_INVALID', 'resource host must not be percent-encoded');
  if (/[^\x00-\x7f]/.test(host)) {
    const ascii = domainToASCII(host.toLowerCase());
    return refuse(
      'RESOURCE_HOST_NOT_PUNYCODE',
      ascii
        ? `internationalized host must be written in punycode: ${ascii}`
        : 'internationalized host is not a valid domain',
    );
  }
  if (isIpLike(host))
    return refuse('RESOURCE_IP_LITERAL', 'resource host must be a domain name, not an IP address (in any notation)');
  if (host.endsWith('.')) return refuse('RESOURCE_HOST_TRAILING_DOT', 'resource host must not end with a dot');
  if (host !== host.toLowerCase()) return refuse('RESOURCE_HOST_NOT_LOWERCASE', 'resource host must be lowercase');
  const labels = host.split('.');
  if (host.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l))) {
    return refuse(
      'RESOURCE_HOST_INVALID',
      'resource host must be a DNS name of at least two labels of a-z, 0-9 and inner hyphens',
    );
  }
  for (const label of labels) {
    if (label.startsWith('xn--')) {
      // A punycode label must decode and re-encode to itself, else it is a disguised or invalid name.
      if (domainToASCII(label) !== label)
        return refuse('RESOURCE_HOST_NOT_PUNYCODE', `host label ${label} is not valid punycode`);
    } else if (/^..--/.test(label)) {
      return refuse('RESOURCE_HOST_INVALID', `host label ${label} uses the reserved "??--" form`);
    }
  }
  return undefined;
}

/** The path part of the §2.2 rule: canonical percent-encoding, no encoded slash or backslash, no dot segment. */
function refusePath(path: string, authorityLength: number): ResourceUrlResult | undefined {
  for (let i = 0; i < path.length; i++) {
    const ch = path[i]!;
    if (ch === '%') {
      const hex = path.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex))
        return refuse('RESOURCE_BAD_PERCENT_ENCODING', `invalid percent-escape at position ${i + 8 + authorityLength}`);
      const upper = hex.toUpperCase();
      if (upper === '2F') return refuse('RESOURCE_ENCODED_SLASH', 'resource contains an encoded slash (%2F)');
      if (upper === '5C') return refuse('RESOURCE_HAS_BACKSLASH', 'resource contains an encoded backslash (%5C)');
      i += 2;
    } else if (!PATH_CHAR.test(ch)) {
      return refuse('RESOURCE_NOT_CANONICAL', `character ${JSON.stringify(ch)} must be percent-encoded`);
    }
  }
  // Dot segments, literal or encoded: servers disagree on whether %2e%2e is "..", so refuse both.
  for (const segment of path.split('/')) {
    const decoded = segment.replace(/%2e/gi, '.');
    if (decoded === '.' || decoded === '..')
      return refuse('RESOURCE_DOT_SEGMENT', 'resource path contains a dot segment (. or ..)');
  }
  // Canonical percent-encoding (RFC 3986 §6.2.2): uppercase hex, unreserved characters never encoded.
  for (const m of path.matchAll(/%([0-9A-Fa-f]{2})/g)) {
    const hex = m[1]!;
    if (hex !== hex.toUpperCase())
      return refuse('RESOURCE_NOT_CANONICAL', `percent-escapes must use uppercase hex: %${hex.toUpperCase()}`);
    const decoded = String.fromCharCode(parseInt(hex, 16));
    if (UNRESERVED.test(decoded))
      return refuse('RESOURCE_NOT_CANONICAL', `%${hex} encodes "${decoded}", which must be written as is`);
  }
  return undefined;
}

/** The full §2.2 rule: canonical syntax plus exact-origin coverage (no subdomain implied). */
export function canonicalResourceUrl(input: unknown, coveredOrigins: readonly string[]): ResourceUrlResult {
  const syntax = checkResourceUrlSyntax(input);
  if (!syntax.ok) return syntax;
  if (!coveredOrigins.includes(syntax.origin)) {
    return refuse(
      'RESOURCE_NOT_COVERED',
      `origin ${syntax.origin} is not covered; see GET /v1/capabilities for the covered origins`,
    );
  }
  return syntax;
}

/**
 * UTS #46 ToASCII as the WHATWG URL parser applies it (the same algorithm as node:url's
 * domainToASCII, without Node built-ins: the buyer bundles this rule for the browser); '' if invalid.
 */
function domainToASCII(domain: string): string {
  try {
    return new URL(`https://${domain}/`).hostname;
  } catch {
    return '';
  }
}

/**
 * True when a host would be read as an IP address by some parser: dotted-decimal, a single
 * 32-bit number, hex (0x..) or octal (leading 0) parts, short forms (127.1), or a last label that
 * is numeric (WHATWG treats such hosts as IPv4 and rejects or rewrites them).
 */
function isIpLike(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (h.includes(':')) return true; // IPv6 in any spelling (a port or brackets are refused before this)
  const parts = h.split('.');
  const numeric = (p: string) => /^(0x[0-9a-f]*|[0-9]+)$/.test(p);
  if (parts.every(numeric)) return true;
  return numeric(parts[parts.length - 1] ?? '');
}
