// Association points on the resource itself (rsl.md §3.2, §3.3): the HTTP `Link` header here; the
// HTML `<link>`, inline `<script>` and `<base>` are read by html-associations.ts. A bare
// rel="license" without the RSL media type is a human license page and is ignored (naulon). Pure.

export const RSL_MEDIA_TYPE = 'application/rsl+xml';

export const isRslType = (type: string | undefined) =>
  (type ?? '').split(';')[0]!.trim().toLowerCase() === RSL_MEDIA_TYPE;
/** `rel` is a set of ASCII-whitespace-separated, ASCII-case-insensitive tokens. */
export const relHasLicense = (rel: string | undefined) =>
  (rel ?? '')
    .toLowerCase()
    .split(/[\t\n\f\r ]+/)
    .includes('license');

/** RFC 8288 Link header: `<uri>; rel="license"; type="application/rsl+xml", <...>; ...` */
export function rslLinksFromHeader(value: string | undefined): string[] {
  if (!value) return [];
  const out: string[] = [];
  // Split on commas outside <...> and quotes.
  const values: string[] = [];
  let cur = '';
  let inAngle = false;
  let inQuote = false;
  for (const ch of value) {
    if (ch === '<' && !inQuote) inAngle = true;
    else if (ch === '>' && !inQuote) inAngle = false;
    else if (ch === '"' && !inAngle) inQuote = !inQuote;
    if (ch === ',' && !inAngle && !inQuote) {
      values.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  values.push(cur);
  for (const v of values) {
    const m = /^\s*<([^>]*)>(.*)$/s.exec(v);
    if (!m) continue;
    const params: Record<string, string> = {};
    for (const p of m[2]!.matchAll(/;\s*([A-Za-z0-9!#$&+.^_`|~-]+\*?)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*)))?/g)) {
      const name = p[1]!.toLowerCase();
      if (!(name in params)) params[name] = (p[2] ?? p[3] ?? '').replace(/\\(.)/g, '$1');
    }
    if (relHasLicense(params.rel) && isRslType(params.type)) out.push(m[1]!.trim());
  }
  return out;
}
