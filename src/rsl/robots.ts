// robots.txt `License:` lines (rsl.md §3.1) with RFC 9309 grouping. Pure.
//
// Grouping is strict RFC 9309: a group starts at a run of `User-agent` lines and lasts until the
// next `User-agent` line that follows a rule, or the end of the file; lines before the first
// group are global. Blank lines and `Sitemap` lines do not end a group (unlike commonmeasure's
// heuristic). The service reads as the `*` agent: if the `*` group(s) carry `License` lines those
// are the candidates and global lines are ignored (§4.4.3), otherwise the global lines are.
// Lines in other groups are never used, but are recorded when they differ, so a report can say
// "ExampleBot is pointed at another license".

export interface RobotsLicenses {
  /** Absolute https URLs to fetch, in file order, deduplicated. */
  candidates: string[];
  selectedFrom: 'star-group' | 'global' | 'none';
  /** Global lines not used because the `*` group has its own (§4.4.3). */
  ignoredGlobal: string[];
  /** Other agents' groups whose License lines differ from the candidates. */
  otherGroups: Array<{ userAgents: string[]; licenses: string[] }>;
  /** Lines whose value could not be used (not https, not a URL). */
  rejected: Array<{ line: number; value: string; reason: string }>;
  /** Relative values resolved against the robots.txt URL (a lenient reading, flagged). */
  resolvedRelative: string[];
}

interface Group {
  userAgents: string[];
  licenses: Array<{ line: number; value: string }>;
}

export function readRobotsLicenses(text: string, robotsUrl: string): RobotsLicenses {
  const global: Array<{ line: number; value: string }> = [];
  const groups: Group[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) return;
    const key = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (key === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { userAgents: [], licenses: [] };
        groups.push(current);
      }
      current.userAgents.push(value.toLowerCase());
      lastWasAgent = true;
      return;
    }
    lastWasAgent = false;
    if (key === 'license') (current ? current.licenses : global).push({ line: i + 1, value });
  });

  const starLines = groups.filter((g) => g.userAgents.includes('*')).flatMap((g) => g.licenses);
  const selected = starLines.length ? starLines : global;
  const out: RobotsLicenses = {
    candidates: [],
    selectedFrom: starLines.length ? 'star-group' : global.length ? 'global' : 'none',
    ignoredGlobal: starLines.length ? global.map((g) => g.value) : [],
    otherGroups: [],
    rejected: [],
    resolvedRelative: [],
  };
  for (const { line, value } of selected) {
    const url = resolveLicenseUrl(value, robotsUrl);
    if (!url.ok) {
      out.rejected.push({ line, value, reason: url.reason });
      continue;
    }
    if (url.relative) out.resolvedRelative.push(value);
    if (!out.candidates.includes(url.href)) out.candidates.push(url.href);
  }
  const selectedValues = new Set(selected.map((s) => s.value));
  for (const g of groups) {
    if (g.userAgents.includes('*') || g.licenses.length === 0) continue;
    const values = g.licenses.map((l) => l.value);
    if (values.length !== selectedValues.size || values.some((v) => !selectedValues.has(v))) {
      out.otherGroups.push({ userAgents: g.userAgents, licenses: values });
    }
  }
  return out;
}

/** Resolve an association target (robots value, Link or href). Only https URLs are usable. */
export function resolveLicenseUrl(
  value: string,
  base: string,
): { ok: true; href: string; relative: boolean } | { ok: false; reason: string } {
  if (value === '') return { ok: false, reason: 'empty value' };
  const relative = !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(value);
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: `scheme ${url.protocol} is not https` };
  url.hash = '';
  return { ok: true, href: url.href, relative };
}

/** RFC 9309 §2.5: crawlers MUST parse at least 500 KiB; this is what the service parses by default. */
export const ROBOTS_PARSE_LIMIT_BYTES = 500 * 1024;

/**
 * The text of robots.txt to parse. When the body was cut at the parse limit, its last line is
 * incomplete (a `License:` URL cut short would name another document), so it is dropped: only lines
 * that ended inside the limit are read, and nothing beyond it can become a grant.
 */
export function robotsTextWithinLimit(body: Buffer, truncated: boolean): string {
  if (!truncated) return body.toString('utf8');
  const lastBreak = Math.max(body.lastIndexOf(0x0a), body.lastIndexOf(0x0d));
  return body.subarray(0, lastBreak + 1).toString('utf8');
}
