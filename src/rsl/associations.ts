// Association points on the resource itself (rsl.md §3.2, §3.3): the HTTP `Link` header and the
// HTML `<link rel="license" type="application/rsl+xml">` and inline
// `<script type="application/rsl+xml">`. Pure string processing; no HTML DOM is built. A bare
// rel="license" without the RSL media type is a human license page and is ignored (naulon).

export const RSL_MEDIA_TYPE = 'application/rsl+xml';

const isRslType = (type: string | undefined) => (type ?? '').split(';')[0]!.trim().toLowerCase() === RSL_MEDIA_TYPE;
const relHasLicense = (rel: string | undefined) => (rel ?? '').toLowerCase().split(/\s+/).includes('license');

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

export interface HtmlAssociations {
  /** href values of `<link rel="license" type="application/rsl+xml">`, entity-decoded, as written. */
  links: string[];
  /** Bodies of `<script type="application/rsl+xml">`, as written. */
  scripts: string[];
  /** `<link>` elements found after `<body>` (an RSL client extension, not conforming HTML). */
  linksOutsideHead: number;
}

export function rslAssociationsFromHtml(html: string): HtmlAssociations {
  const out: HtmlAssociations = { links: [], scripts: [], linksOutsideHead: 0 };
  // Scripts first (their bodies are raw text), then links in the rest with comments removed.
  const withoutScripts = html.replace(
    /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi,
    (_all, attrText: string, body: string) => {
      const attrs = readAttributes(attrText);
      if (isRslType(attrs.type)) out.scripts.push(body);
      return '';
    },
  );
  const text = withoutScripts.replace(/<!--[\s\S]*?-->/g, '');
  const bodyAt = text.search(/<body[\s>]/i);
  for (const m of text.matchAll(/<link\b([^>]*)>/gi)) {
    const attrs = readAttributes(m[1]!);
    if (!relHasLicense(attrs.rel) || !isRslType(attrs.type) || attrs.href === undefined) continue;
    out.links.push(decodeEntities(attrs.href.trim()));
    if (bodyAt !== -1 && m.index! > bodyAt) out.linksOutsideHead += 1;
  }
  return out;
}

function readAttributes(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of text.matchAll(/([^\s"'=<>`/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    const name = m[1]!.toLowerCase();
    if (!(name in attrs)) attrs[name] = m[2] ?? m[3] ?? m[4] ?? '';
  }
  return attrs;
}

function decodeEntities(s: string): string {
  return s.replace(
    /&(amp|lt|gt|quot|apos|#39|#x27);/gi,
    (_m, e: string) =>
      ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", '#x27': "'" })[e.toLowerCase()] ?? _m,
  );
}
