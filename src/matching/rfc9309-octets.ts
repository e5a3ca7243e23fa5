// The comparison form of a path (with optional query) for RFC 9309 §2.2.2 matching:
//
//   "Octets in the URI and robots.txt paths outside the range of the ASCII coded character set,
//    and those in the reserved range defined by [RFC3986], MUST be percent-encoded as defined by
//    [RFC3986] prior to comparison. If a percent-encoded ASCII octet is encountered in the URI, it
//    MUST be unencoded prior to comparison, unless it is a reserved character in the URI as
//    defined by [RFC3986] or the character is outside the unreserved character range."
//
// So: `%XX` of an unreserved character (A-Z a-z 0-9 - . _ ~) is decoded; any other `%XX` stays
// encoded with uppercase hex; a raw reserved character is encoded, except the delimiters that give
// the string its structure (`/` in the path; `?` once, then `=` and `&` in the query), as the
// RFC's own example table does (`/foo/bar?baz=https://foo.bar` → `/foo/bar?baz=https%3A%2F%2Ffoo.bar`);
// non-ASCII is encoded as UTF-8 octets; a `%` that starts no valid escape is itself encoded (`%25`).
// Pure; the same function is applied to patterns (piece by piece) and to paths.
//
//   comparisonForm('/foo/bar/%62%61%7A') === '/foo/bar/baz'
//   comparisonForm('/price$list')        === '/price%24list'

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

export function comparisonForm(input: string): string {
  let out = '';
  let inQuery = false;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (ch === '%' && /^[0-9A-Fa-f]{2}$/.test(input.slice(i + 1, i + 3))) {
      const hex = input.slice(i + 1, i + 3).toUpperCase();
      const decoded = String.fromCharCode(parseInt(hex, 16));
      out += UNRESERVED.test(decoded) ? decoded : `%${hex}`;
      i += 2;
      continue;
    }
    if (UNRESERVED.test(ch)) {
      out += ch;
      continue;
    }
    if (ch === '/' && !inQuery) {
      out += ch;
      continue;
    }
    if (ch === '?' && !inQuery) {
      inQuery = true;
      out += ch;
      continue;
    }
    if (inQuery && (ch === '=' || ch === '&')) {
      out += ch;
      continue;
    }
    const code = input.codePointAt(i)!;
    if (code > 0xffff) i += 1;
    out += encodeOctets(String.fromCodePoint(code));
  }
  return out;
}

function encodeOctets(ch: string): string {
  // A lone surrogate has no UTF-8 octets; U+FFFD keeps the comparison total without matching anything real.
  const bytes = Buffer.from(/^[\ud800-\udfff]$/.test(ch) ? '\ufffd' : ch, 'utf8');
  let out = '';
  for (const b of bytes) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}
